package dev.orrery.engine;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.orrery.ecs.World;
import dev.orrery.ecs.component.Component;
import dev.orrery.ecs.component.Field;
import org.junit.jupiter.api.Test;

/**
 * A second simulation built on a world that another, still open, simulation drives was
 * accepted: the two then ticked, snapshotted and restored one world, each with its own
 * schedule, clock and input source, and nothing said so. The second build is refused now,
 * naming the world and the fix, and allowed again once the first is closed (the world
 * carries on under the new simulation).
 */
class SharedWorldTest {
    record Count(int n) {
    }

    private static Simulation build(World world) {
        Component<Count> count = world.component(Count.class);
        Field n = count.field("n");
        return Simulation.builder(world).workers(1).systems(s -> s
                .system("count").query(world.query().with(count).build()).writes(count)
                .forEachChunk(job -> {
                    int[] v = job.chunk().writeInts(n);
                    for (int i = 0; i < job.chunk().size(); i++) {
                        v[i]++;
                    }
                })).build();
    }

    @Test
    void shouldRefuseASecondSimulationOnAWorldAnOpenOneDrives() {
        World world = new World();
        try (Simulation first = build(world)) {
            long e = world.spawn(new Count(0));
            first.tick();
            IllegalStateException refused = assertThrows(IllegalStateException.class, () -> build(world));
            String m = refused.getMessage();
            assertTrue(m.contains("World@" + Integer.toHexString(System.identityHashCode(world)))
                    && m.contains("another open Simulation") && m.contains("close the first")
                    && m.contains("world of its own"), m);
            first.tick(); // the refused build left the first as it was
            assertEquals(2, world.get(e, world.component(Count.class)).n());
        }
    }

    @Test
    void shouldLetANewSimulationDriveTheWorldOnceTheFirstIsClosed() {
        World world = new World();
        long e;
        try (Simulation first = build(world)) {
            e = world.spawn(new Count(0));
            first.run(3, 0);
        }
        try (Simulation second = build(world)) {
            second.run(2, 0);
            assertEquals(5, world.get(e, world.component(Count.class)).n(), "the world carried on under the second");
            assertThrows(IllegalStateException.class, () -> build(world), "the second holds it now");
        }
        try (Simulation third = build(world)) { // and after the second closes, again
            third.tick();
            assertEquals(6, world.get(e, world.component(Count.class)).n());
        }
    }

    @Test
    void shouldReleaseTheWorldWhenABuildFails() {
        World world = new World();
        assertThrows(IllegalStateException.class, () -> Simulation.builder(world).systems(s -> {
            throw new IllegalStateException("a systems block that throws");
        }).build());
        try (Simulation sim = build(world)) { // the failed build does not hold the world
            long e = world.spawn(new Count(0));
            sim.tick();
            assertEquals(1, world.get(e, world.component(Count.class)).n());
        }
    }
}
