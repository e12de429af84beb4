package dev.orrery.engine.host;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.orrery.engine.InputBatch;
import dev.orrery.engine.InputSource;
import dev.orrery.engine.Simulation;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * An input source that keeps its first failure and throws that same exception again (a sticky
 * failure, a common way to report a broken source) failed a world at its first hand-over, and
 * threw it again when {@code WorldHost.close()} handed the failed world's simulation to the
 * closing thread. The close added it, suppressed, to the world's failure, which is the same
 * exception: {@code Throwable.addSuppressed} refuses self-suppression with an
 * {@code IllegalArgumentException}, which escaped {@code close()} and left every failed world
 * after it open. The close now leaves out an exception that is the failure already; and of the
 * refusals of the worlds still hosted, thrown as the first with the others suppressed in it,
 * one exception thrown by two worlds' shared source is thrown once.
 */
@Timeout(value = 120, unit = TimeUnit.SECONDS)
class FailedWorldSameRefusalTest {

    @Test
    void aSourceThatThrowsItsFailureAgainAtTheCloseDoesNotStopTheClose() throws Exception {
        WorldHost host = WorldHost.builder().threads(1).threadName("sticky").build();
        OneRefusalSource source = new OneRefusalSource(null);
        Simulation broken = HostWorkload.build(1, 10);
        broken.inputs(source);
        Simulation second = HostWorkload.build(2, 10);
        second.inputs(new OneRefusalSource(null));
        HostedWorld b = host.add("broken", broken, 0);
        ExecutionException e = assertThrows(ExecutionException.class, () -> b.done().get(60, TimeUnit.SECONDS));
        assertSame(source.refusal, e.getCause(), "the world failed with the source's own exception");
        HostedWorld s = host.add("second", second, 0); // fails after the first: closed after it
        assertThrows(ExecutionException.class, () -> s.done().get(60, TimeUnit.SECONDS));

        host.close(); // threw IllegalArgumentException: Self-suppression not permitted

        assertEquals(0, source.refusal.getSuppressed().length, "nothing added to itself");
        for (Simulation sim : new Simulation[] {broken, second}) {
            IllegalStateException closed = assertThrows(IllegalStateException.class, sim::tick);
            assertTrue(closed.getMessage().contains("closed"), closed.getMessage());
        }
    }

    @Test
    void oneRefusalThrownByTwoHostedWorldsIsThrownOnceAndBothClose() throws Exception {
        // the hosted worlds' refusals are gathered the same way: the first thrown, the others suppressed in it
        WorldHost host = WorldHost.builder().threads(1).threadName("shared").build();
        OneRefusalSource shared = new OneRefusalSource("shared-");
        Simulation one = HostWorkload.build(3, 10);
        one.inputs(shared);
        Simulation two = HostWorkload.build(4, 10);
        two.inputs(shared);
        HostedWorld a = host.add("one", one, 0);
        HostedWorld b = host.add("two", two, 0);
        long until = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
        while ((a.stats().ticks() < 1 || b.stats().ticks() < 1) && System.nanoTime() - until < 0) {
            Thread.sleep(5);
        }

        IllegalStateException refused = assertThrows(IllegalStateException.class, host::close);

        assertSame(shared.refusal, refused, "was: IllegalArgumentException, Self-suppression not permitted");
        assertEquals(0, refused.getSuppressed().length);
        for (Simulation sim : new Simulation[] {one, two}) {
            IllegalStateException closed = assertThrows(IllegalStateException.class, sim::tick);
            assertTrue(closed.getMessage().contains("closed"), closed.getMessage());
        }
    }

    /**
     * Refuses a hand-over with the one exception it keeps: every hand-over, or (with a prefix)
     * those to a thread whose name does not start with it (the host's pool threads take it).
     */
    private static final class OneRefusalSource implements InputSource {
        final IllegalStateException refusal = new IllegalStateException("the source refuses this thread");
        private final String poolPrefix;
        private final InputBatch empty = new InputBatch();

        OneRefusalSource(String poolPrefix) {
            this.poolPrefix = poolPrefix;
        }

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
            if (poolPrefix == null || !Thread.currentThread().getName().startsWith(poolPrefix)) {
                throw refusal;
            }
        }
    }
}
