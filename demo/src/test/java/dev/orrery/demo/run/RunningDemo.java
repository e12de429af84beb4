package dev.orrery.demo.run;

import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;

/**
 * A demo run on a tick thread of its own, for tests that talk to its server: started and
 * awaited by {@link #start}, stopped by {@link #finish}, which rethrows the run's failure
 * with its log. Keep the test's body in a {@code try} and call {@link #stop} in its
 * {@code finally}, then {@link #finish}.
 */
final class RunningDemo {
    private final ByteArrayOutputStream log = new ByteArrayOutputStream();
    private final DemoRun run;
    private final AtomicReference<RunResult> result = new AtomicReference<>();
    private final AtomicReference<Throwable> failure = new AtomicReference<>();
    private final Thread tickThread;

    private RunningDemo(RunOptions options) {
        run = new DemoRun(options, new PrintStream(log, true, StandardCharsets.UTF_8));
        tickThread = new Thread(() -> {
            try {
                result.set(run.run());
            } catch (Throwable t) {
                failure.set(t);
            }
        }, "test-tick");
    }

    /** Starts a run of {@code options} and waits until its server listens. */
    static RunningDemo start(RunOptions options) throws InterruptedException {
        RunningDemo demo = new RunningDemo(options);
        demo.tickThread.start();
        assertTrue(demo.run.awaitStarted(30, TimeUnit.SECONDS), "the run did not start");
        return demo;
    }

    /** The server's port. */
    int port() {
        return run.port();
    }

    /** The explorer's port, or -1 without one. */
    int explorerPort() {
        return run.explorerPort();
    }

    /** What the run has printed so far. */
    String log() {
        return log.toString(StandardCharsets.UTF_8);
    }

    /** Asks the run to stop and waits up to 30 s for its tick thread. */
    void stop() throws InterruptedException {
        run.stop();
        tickThread.join(30_000);
    }

    /** The run's result, after {@link #stop}; a run that failed is rethrown with its log. */
    RunResult finish() {
        if (failure.get() != null) {
            throw new AssertionError("the run failed; log: " + log(), failure.get());
        }
        RunResult live = result.get();
        assertNotNull(live);
        return live;
    }
}
