package dev.orrery.demo.run;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.orrery.demo.net.ServerConfig;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code --replay DIR --explore PORT}: once the replay is over, the line that says the page
 * stays live names the last tick replayed, the tick the page and its timeline end at, and says
 * that the summary follows the stop. It once said "done at tick N" with N the tick after the
 * last (the page showing N - 1), and left a newcomer waiting for a summary that only Ctrl-C
 * brings.
 */
class ReplayExplorerLineTest {
    @TempDir
    Path tmp;

    @Test
    void shouldNameTheLastReplayedTickAndSayTheSummaryFollowsTheStop() throws Exception {
        Path rec = tmp.resolve("rec");
        PrintStream sink = new PrintStream(new ByteArrayOutputStream(), true, StandardCharsets.UTF_8);
        new DemoRun(new RunOptions(200, 2, 30, 1, 7, 0, 0, -1, ServerConfig.loopback(), rec, null, null, null, true),
                sink).run();
        RunningDemo replay = RunningDemo.start(new RunOptions(200, 2, 0, 1, 7, 0, RunOptions.REPLAY_DEFAULT_WARMUP,
                -1, ServerConfig.loopback(), null, rec, null, null, true).withExplorer(0, false));
        try {
            long until = System.nanoTime() + 60_000_000_000L;
            while (!replay.log().contains("replay: done") && System.nanoTime() < until) {
                Thread.sleep(20);
            }
            String log = replay.log();
            assertTrue(log.contains("replay: done after tick 29; the explorer still serves http://127.0.0.1:"
                    + replay.explorerPort() + "/ (its timeline spans the recording); stop with Ctrl-C for the "
                    + "summary"), log);
        } finally {
            replay.stop();
        }
        assertEquals(30, replay.finish().ticks(), "the summary, after the stop, counts every tick replayed");
    }
}
