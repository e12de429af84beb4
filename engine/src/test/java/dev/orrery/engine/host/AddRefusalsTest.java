package dev.orrery.engine.host;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.orrery.engine.Simulation;
import java.time.Duration;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * {@code WorldHost.add}'s refusals, one rule for their types: an argument wrong whatever the
 * host holds (a null, a negative or non-finite rate, a negative tick count or delay) is an
 * {@link IllegalArgumentException} (or a {@link NullPointerException}); a call the host's or
 * the simulation's state refuses now, which the same arguments pass later (the host closed, the
 * name taken by a hosted world, the simulation on this host or another, ticked by another
 * thread, or closed), is an {@link IllegalStateException}. A taken name and a simulation hosted
 * on this host already were {@code IllegalArgumentException}s beside the
 * {@code IllegalStateException} for a simulation on another host, and a closed simulation was
 * taken, to fail its first tick on the pool. Every message names the world and the fix, and a
 * refused call leaves the host as it was.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class AddRefusalsTest {

    @Test
    void aNameTakenOrASimulationHostedHereIsRefusedAsHostStateNamingTheWorldAndTheFix() throws Exception {
        try (WorldHost host = WorldHost.builder().threads(1).build()) {
            Simulation first = HostWorkload.build(1, 10);
            host.add("arena", first, 30);

            IllegalStateException name = assertThrows(IllegalStateException.class,
                    () -> host.add("arena", HostWorkload.build(2, 10), 30));
            assertEquals("world 'arena': a world of that name is hosted on this host now; pick another name, or take "
                    + "that world off first: host.world(\"arena\").get().remove().join()", name.getMessage());

            IllegalStateException again = assertThrows(IllegalStateException.class, () -> host.add("copy", first, 30));
            assertEquals("world 'copy': this simulation is hosted on this host already, as world 'arena'; build one "
                    + "simulation per world, or take it off first: host.world(\"arena\").get().remove().join()",
                    again.getMessage());
            assertEquals(1, host.worlds().size(), "nothing was added");
            assertTrue(host.world("copy").isEmpty());
        }
    }

    @Test
    void aClosedSimulationIsRefusedAtAddNotFailedAtItsFirstTick() {
        try (WorldHost host = WorldHost.builder().threads(1).build()) {
            Simulation closed = HostWorkload.build(3, 10);
            closed.close();
            IllegalStateException e = assertThrows(IllegalStateException.class, () -> host.add("gone", closed, 30));
            assertEquals("world 'gone': the simulation is closed, so it cannot tick again; build a new one (restore a "
                    + "snapshot of this one into it to go on from where it was) and add that", e.getMessage());
            assertTrue(host.worlds().isEmpty(), "nothing was added");
        }
    }

    @Test
    void argumentsWrongWhateverTheHostHoldsAreIllegalArgumentsNamingWhichOne() {
        try (WorldHost host = WorldHost.builder().threads(1).build()) {
            Simulation sim = HostWorkload.build(4, 10);
            for (double hz : new double[] {-1, Double.NaN, Double.POSITIVE_INFINITY}) {
                IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> host.add("a", sim, hz));
                assertEquals("world 'a': hz must be 0 (as often as the pool allows) or a positive, finite rate of "
                        + "ticks a second, got " + hz, e.getMessage());
            }
            IllegalArgumentException ticks = assertThrows(IllegalArgumentException.class,
                    () -> host.add("a", sim, 30, -1, Duration.ZERO));
            assertEquals("world 'a': ticks must be 0 (no limit) or a positive count, got -1", ticks.getMessage());
            IllegalArgumentException delay = assertThrows(IllegalArgumentException.class,
                    () -> host.add("a", sim, 30, 0, Duration.ofMillis(-5)));
            assertEquals("world 'a': the first tick's delay must not be negative (Duration.ZERO: due now), got PT-0.005S",
                    delay.getMessage());
            NullPointerException noName = assertThrows(NullPointerException.class, () -> host.add(null, sim, 30));
            assertEquals("the world's name is null; give each world a name, unique on this host while it is hosted",
                    noName.getMessage());
            NullPointerException noSim = assertThrows(NullPointerException.class, () -> host.add("a", null, 30));
            assertEquals("world 'a': the simulation is null; build one per world (Simulation.builder(world)...build())",
                    noSim.getMessage());
            assertTrue(host.worlds().isEmpty(), "nothing was added");
            HostedWorld a = host.add("a", sim, 0, 2, Duration.ZERO); // the refused simulation is still free to add
            assertEquals(2, a.done().join().currentTick(), "it ran its two ticks");
        }
    }

    @Test
    void aClosedHostIsRefusedAsHostStateLeavingTheSimulationFree() {
        WorldHost host = WorldHost.builder().threads(1).build();
        host.close();
        try (Simulation sim = HostWorkload.build(5, 10)) {
            IllegalStateException e = assertThrows(IllegalStateException.class, () -> host.add("late", sim, 30));
            assertEquals("the host is closed; cannot add world 'late': host it on a new WorldHost "
                    + "(WorldHost.builder()...build()), or tick it here; the simulation is still yours", e.getMessage());
            sim.tick(); // untouched by the host
            assertEquals(1, sim.currentTick());
        }
    }
}
