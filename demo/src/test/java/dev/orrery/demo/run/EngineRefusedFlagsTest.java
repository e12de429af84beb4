package dev.orrery.demo.run;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.orrery.demo.run.ExpectedErrorsTest.Outcome;
import dev.orrery.ecs.World;
import dev.orrery.engine.Simulation;
import org.junit.jupiter.api.Test;

/**
 * A flag whose value the engine refuses is refused by the demo first, as a bad option (exit
 * status 2, one line naming the flag and the fix in the flag's own terms), never with the
 * engine's API call: {@code --tick-deadline 1e-12} (less than a nanosecond at 60 Hz, which the
 * engine refuses as no deadline at all) printed the engine's {@code tickDeadline(600)} and exited
 * 1 after the arena was populated; {@code --watchdog 1e-12} was taken as 0 ns and reported every
 * tick; {@code --watchdog Infinity} started a watchdog that could never report. The demo's checks
 * and the engine's must agree, value for value, at the demo's step.
 */
class EngineRefusedFlagsTest {

    private static Outcome refused(String... args) {
        Outcome o = ExpectedErrorsTest.main(args);
        o.assertOneLineError();
        assertEquals(2, o.status(), "a bad option: " + o.err());
        assertEquals("", o.out(), "nothing ran");
        return o;
    }

    @Test
    void aTickDeadlineUnderANanosecondIsRefusedInTheFlagsTerms() {
        Outcome o = refused("--agents", "100", "--ticks", "1", "--quiet", "--tick-deadline", "1e-12");
        assertTrue(o.err().contains("--tick-deadline 1.0E-12 is less than a nanosecond")
                && o.err().contains("--tick-deadline 600") && o.err().contains("--tick-deadline 0"), o.err());
        assertFalse(o.err().contains("tickDeadline("), "names the flag, not the engine's call: " + o.err());
    }

    @Test
    void aWatchdogUnderANanosecondOrInfiniteIsRefusedInTheFlagsTerms() {
        Outcome small = refused("--agents", "100", "--ticks", "1", "--quiet", "--watchdog", "1e-12");
        assertTrue(small.err().contains("--watchdog 1.0E-12 is less than a nanosecond")
                && small.err().contains("every tick") && small.err().contains("--watchdog 10")
                && small.err().contains("--watchdog 0"), small.err());
        assertFalse(small.err().contains("watchdog("), "names the flag, not the engine's call: " + small.err());
        Outcome infinite = refused("--agents", "100", "--ticks", "1", "--quiet", "--watchdog", "Infinity");
        assertTrue(infinite.err().contains("--watchdog must be 0 (off) or a positive number of steps")
                && infinite.err().contains("got Infinity"), infinite.err());
    }

    /** The demo refuses exactly what the engine refuses, at the step the arena runs at. */
    @Test
    void theDemoAndTheEngineRefuseTheSameValues() {
        try (Simulation arena = new dev.orrery.demo.arena.Arena(new dev.orrery.demo.arena.ArenaConfig(10, 2, 1))
                .build(1, 0)) {
            assertEquals(RunOptions.STEP_SECONDS, arena.resources().get(Simulation.CLOCK).stepSeconds(),
                    "the step the demo's checks assume");
        }
        double[] values = {0, 1e-12, 1e-9, 5.9e-8, 5.99e-8, 6e-8, 6.1e-8, 1e-7, 0.5, 1, 10, 600, 1e9,
            Double.POSITIVE_INFINITY, -1, Double.NaN};
        for (double v : values) {
            boolean engineDeadline = takes(() -> Simulation.builder(new World()).tickDeadline(v).build().close());
            boolean demoDeadline = takes(() -> options(RunOptions.DEFAULT_WATCHDOG_STEPS).withTickDeadline(v));
            boolean engineWatchdog = takes(() -> Simulation.builder(new World()).watchdog(v, null).build().close());
            boolean demoWatchdog = takes(() -> options(v));
            if (v != Double.POSITIVE_INFINITY) { // the demo refuses an infinite deadline the engine takes as none
                assertEquals(engineDeadline, demoDeadline, "--tick-deadline " + v);
            }
            assertEquals(engineWatchdog, demoWatchdog, "--watchdog " + v);
        }
        for (int threads : new int[] {0, 1, 257}) {
            boolean engine = takes(() -> Simulation.builder(new World()).workers(threads).build().close());
            boolean demo = takes(() -> new RunOptions(100, 2, 1, threads, 1, 0, 0, -1,
                    java.net.InetAddress.getLoopbackAddress(), null, null, null, null, true));
            assertEquals(engine, demo, "--threads " + threads);
        }
    }

    private static RunOptions options(double watchdog) {
        return new RunOptions(100, 2, 1, 1, 1, 0, 0, -1, java.net.InetAddress.getLoopbackAddress(), null, null, null,
                null, true, dev.orrery.demo.net.ServerConfig.defaults(), 0,
                dev.orrery.engine.Durability.interval(dev.orrery.engine.Durability.DEFAULT_INTERVAL), watchdog);
    }

    private static boolean takes(Runnable r) {
        try {
            r.run();
            return true;
        } catch (IllegalArgumentException e) {
            return false;
        }
    }
}
