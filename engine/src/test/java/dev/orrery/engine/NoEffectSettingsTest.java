package dev.orrery.engine;

import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.orrery.ecs.World;
import org.junit.jupiter.api.Test;

/**
 * Settings that were taken and then did nothing: {@code newTrace(0)} made a trace that keeps no
 * job nor tick (its file opened empty, every job counted as dropped), and a tick deadline of a
 * positive number of steps too small to make a nanosecond ({@code tickDeadline(1e-12)}) was
 * rounded to 0, which means no deadline, so a stuck job hung the tick the caller meant to end.
 * Each is refused now, naming the value and the fix. So is a watchdog limit too small to make a
 * nanosecond ({@code watchdog(1e-12, listener)}), which was rounded to 0 ns and so reported every
 * tick as an overrun, and an infinite one, which started a thread that could never report.
 */
class NoEffectSettingsTest {

    @Test
    void aTraceThatKeepsNoJobIsRefused() {
        try (Simulation sim = ArenaWorkload.build(1, 2, true, 0)) {
            IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> sim.newTrace(0));
            assertTrue(e.getMessage().contains("got 0") && e.getMessage().contains("empty trace")
                    && e.getMessage().contains("newTrace(4096)"), e.getMessage());
        }
    }

    @Test
    void aDeadlineTooSmallToMakeANanosecondIsRefusedNotTakenAsNone() {
        World world = new World();
        IllegalArgumentException built = assertThrows(IllegalArgumentException.class,
                () -> Simulation.builder(world).tickDeadline(1e-12).build());
        assertTrue(built.getMessage().contains("1.0E-12") && built.getMessage().contains("tickDeadline(0)")
                && built.getMessage().contains("less than a nanosecond"), built.getMessage());
        try (Simulation sim = Simulation.builder(world).build()) { // the refused build left the world free
            IllegalArgumentException set = assertThrows(IllegalArgumentException.class, () -> sim.tickDeadline(1e-12));
            assertTrue(set.getMessage().contains("1.0E-12"), set.getMessage());
        }
    }

    @Test
    void aWatchdogLimitTooSmallToMakeANanosecondIsRefusedNotTakenAsEveryTick() {
        World world = new World();
        IllegalArgumentException built = assertThrows(IllegalArgumentException.class,
                () -> Simulation.builder(world).watchdog(1e-12, null).build());
        assertTrue(built.getMessage().contains("1.0E-12") && built.getMessage().contains("less than a nanosecond")
                && built.getMessage().contains("watchdog(10, listener)")
                && built.getMessage().contains("watchdog(0, null)"), built.getMessage());
        try (Simulation sim = Simulation.builder(world).build()) { // the refused build left the world free
            IllegalArgumentException set = assertThrows(IllegalArgumentException.class, () -> sim.watchdog(1e-12, null));
            assertTrue(set.getMessage().contains("1.0E-12") && set.getMessage().contains("every tick"),
                    set.getMessage());
        }
    }

    @Test
    void aWatchdogLimitThatIsNegativeNotANumberOrInfiniteIsRefusedNamingIt() {
        World world = new World();
        for (double bad : new double[] {-1, Double.NaN, Double.POSITIVE_INFINITY, Double.NEGATIVE_INFINITY}) {
            IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                    () -> Simulation.builder(world).watchdog(bad, null), "watchdog(" + bad + ")");
            assertTrue(e.getMessage().contains("got " + bad) && e.getMessage().contains("watchdog(10, listener)"),
                    e.getMessage());
        }
        try (Simulation sim = Simulation.builder(world).build()) {
            IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                    () -> sim.watchdog(Double.POSITIVE_INFINITY, null));
            assertTrue(e.getMessage().contains("got Infinity") && e.getMessage().contains("finite"), e.getMessage());
        }
    }
}
