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
 * Each is refused now, naming the value and the fix.
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
}
