package dev.orrery.engine.host;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.orrery.ecs.World;
import dev.orrery.engine.FailurePolicy;
import dev.orrery.engine.InputBatch;
import dev.orrery.engine.InputSource;
import dev.orrery.engine.Simulation;
import dev.orrery.engine.SimulationBuilder;
import dev.orrery.scheduler.SystemFailedException;
import java.util.Collections;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * A world that failed left its simulation open for the caller, and {@code host.close()} left
 * it open too: its worker and watchdog threads ran on, and its world stayed claimed, after the
 * host was closed, though the caller never took it back. Now the host's close closes the
 * simulation of every failed world that no thread has taken back ({@code bindTickThread()}),
 * on the closing thread after the pool's joins, as it closes the worlds still hosted; a
 * failed world's simulation a thread has taken back is that thread's, and stays open. And a
 * simulation whose input source refuses the hand-over to the closing thread is closed all the
 * same (the refusal thrown by the close, or, for a failed world, added to its failure).
 */
@Timeout(value = 120, unit = TimeUnit.SECONDS)
class FailedWorldCloseTest {

    @Test
    void closingTheHostClosesAFailedWorldNobodyTookBackAndLeavesNoThreadOrClaim() throws Exception {
        Set<Thread> before = alive();
        WorldHost host = WorldHost.builder().threads(2).threadName("failclose").build();
        // two workers (a thread of its own) and a watchdog (another): what an unclosed simulation leaves running
        Simulation abandoned = failing(2, 3).watchdog(100, null).build();
        World abandonedWorld = abandoned.world(); // read here, before it is hosted
        Simulation taken = failing(1, 4).build(); // starts no thread: what is left after the close is the other's
        HostedWorld a = host.add("abandoned", abandoned, 0);
        HostedWorld t = host.add("taken", taken, 0);
        for (HostedWorld w : new HostedWorld[] {a, t}) {
            ExecutionException e = assertThrows(ExecutionException.class, () -> w.done().get(60, TimeUnit.SECONDS));
            assertInstanceOf(SystemFailedException.class, e.getCause());
        }
        Set<String> running = names(newThreads(before));
        assertTrue(running.contains("orrery-tick-watchdog") && running.contains("orrery-worker-1"),
                "the failed simulation's own threads run while it is open: " + running);
        taken.bindTickThread(); // this thread takes 'taken' back: it is this thread's now

        host.close();

        assertEquals(Set.of(), awaitNoNewThreads(before), "threads left behind by host.close()");
        assertEquals(HostedWorld.State.FAILED, a.state(), "it left as it failed; the close does not rewrite that");
        IllegalStateException closed = assertThrows(IllegalStateException.class, abandoned::tick);
        assertTrue(closed.getMessage().contains("closed"), closed.getMessage());
        try (Simulation next = Simulation.builder(abandonedWorld).build()) { // its world is free for another
            assertSame(abandonedWorld, next.world());
        }
        // the one taken back is still open, and still this thread's: its failing tick throws again
        assertEquals(4, taken.currentTick());
        assertThrows(SystemFailedException.class, taken::tick);
        taken.close();
    }

    @Test
    void anInputSourceThatRefusesTheClosingThreadDoesNotKeepItsSimulationOpen() throws Exception {
        // host.close() handed each hosted simulation to the closing thread and closed it in one step, so a
        // source whose bindTickThread threw there left that simulation open, its worker thread running
        Set<Thread> before = alive();
        WorldHost host = WorldHost.builder().threads(1).threadName("refusing").build();
        Simulation hosted = HostWorkload.builder(5, 100, 2, null).build();
        hosted.inputs(new PoolOnlySource());
        Simulation failed = failing(2, 2).build();
        failed.inputs(new PoolOnlySource());
        HostedWorld h = host.add("hosted", hosted, 0);
        HostedWorld f = host.add("failed", failed, 0);
        assertThrows(ExecutionException.class, () -> f.done().get(60, TimeUnit.SECONDS));
        long until = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
        while (h.stats().ticks() < 3 && System.nanoTime() - until < 0) {
            Thread.sleep(5);
        }

        IllegalStateException refused = assertThrows(IllegalStateException.class, host::close);
        assertEquals("no hand-over to 'main'", refused.getMessage().replace(Thread.currentThread().getName(), "main"),
                "the hosted world's refusal is thrown");
        assertEquals(0, refused.getSuppressed().length, "the failed world's is not: " + List.of(refused.getSuppressed()));
        IllegalStateException hostedClosed = assertThrows(IllegalStateException.class, hosted::tick,
                "the hosted world's simulation was closed after its source refused");
        assertTrue(hostedClosed.getMessage().contains("closed"), hostedClosed.getMessage());
        Throwable[] withFailure = f.failure().orElseThrow().getSuppressed();
        assertEquals(1, withFailure.length, "the failed world's refusal is reported with its failure");
        assertTrue(withFailure[0].getMessage().startsWith("no hand-over to"), withFailure[0].getMessage());
        assertEquals(Set.of(), awaitNoNewThreads(before), "both simulations closed all the same");
        IllegalStateException failedClosed = assertThrows(IllegalStateException.class, failed::tick);
        assertTrue(failedClosed.getMessage().contains("closed"), failedClosed.getMessage());
    }

    /** An input source that takes its tick thread only among the host's pool threads ('refusing-N'). */
    private static final class PoolOnlySource implements InputSource {
        private final InputBatch empty = new InputBatch();

        @Override
        public InputBatch beginTick(long tick) {
            empty.reset(tick);
            return empty;
        }

        @Override
        public void recordHash(long tick, long stateHash) {
        }

        @Override
        public void bindTickThread() {
            String me = Thread.currentThread().getName();
            if (!me.startsWith("refusing-")) {
                throw new IllegalStateException("no hand-over to '" + me + "'");
            }
        }
    }

    /** A world of {@code workers} workers whose system 'fragile' throws at tick {@code at}, under STOP. */
    private static SimulationBuilder failing(int workers, long at) {
        SimulationBuilder[] holder = new SimulationBuilder[1];
        holder[0] = HostWorkload.builder(3, 100, workers,
                s -> HostWorkload.failing(holder[0].resources(), 1000, at).accept(s));
        return holder[0].onSystemFailure(FailurePolicy.STOP);
    }

    private static Set<Thread> alive() {
        Set<Thread> threads = Collections.newSetFromMap(new IdentityHashMap<>());
        for (Thread th : Thread.getAllStackTraces().keySet()) {
            if (th.isAlive()) {
                threads.add(th);
            }
        }
        return threads;
    }

    /** The threads alive now that were not in {@code before}, less the JVM's and JUnit's own. */
    private static Set<Thread> newThreads(Set<Thread> before) {
        Set<Thread> now = alive();
        now.removeAll(before);
        now.removeIf(th -> th.getName().startsWith("junit") || th.getName().startsWith("Common-Cleaner")
                || th.getName().startsWith("ForkJoinPool") || th.getName().startsWith("process reaper"));
        return now;
    }

    /** Waits up to 30 s for the threads not in {@code before} to end; the names of those still alive then. */
    private static Set<String> awaitNoNewThreads(Set<Thread> before) throws InterruptedException {
        long until = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
        Set<Thread> left = newThreads(before);
        while (!left.isEmpty() && System.nanoTime() - until < 0) {
            Thread.sleep(50);
            left = newThreads(before);
        }
        return names(left);
    }

    private static Set<String> names(Set<Thread> threads) {
        Set<String> names = new TreeSet<>();
        for (Thread th : threads) {
            names.add(th.getName());
        }
        return names;
    }
}
