package dev.orrery.engine;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.orrery.ecs.World;
import dev.orrery.ecs.component.Component;
import dev.orrery.ecs.component.Field;
import dev.orrery.scheduler.Phase;
import dev.orrery.scheduler.SystemFailedException;
import org.junit.jupiter.api.Test;

/**
 * A snapshot or restore made from inside a tick (a system, a run condition, an observer hook)
 * caught the world part-way through the tick while noting the tick as still to run, so a run
 * restored from it ran the tick's earlier systems twice and diverged without a word; both are
 * refused there now, and a snapshot from the end-of-tick hook (between ticks) still restores
 * to the same future.
 */
class MidTickSnapshotTest {
    record Pos(float x) {
    }

    /** A mover, then (in PostUpdate) an exclusive system that calls {@code during} on tick 1. */
    private static Simulation build(Runnable[] during) {
        World world = new World();
        Component<Pos> pos = world.component(Pos.class);
        Field x = pos.field("x");
        return Simulation.builder(world).systems(s -> s
                .system("move").query(world.query().with(pos).build()).writes(pos)
                .forEachChunk(job -> job.chunk().writeFloats(x)[0]++)
                .system("save").inPhase(Phase.POST_UPDATE).readsResource(Simulation.CLOCK).exclusive((w, job) -> {
                    if (job.resource(Simulation.CLOCK).tick() == 1 && during[0] != null) {
                        during[0].run();
                    }
                })).build();
    }

    @Test
    void shouldRefuseASnapshotOrRestoreFromInsideATickAndKeepTheEndOfTickOne() {
        Runnable[] during = new Runnable[1];
        try (Simulation sim = build(during)) {
            sim.world().spawn(new Pos(0));
            sim.tick();
            during[0] = sim::snapshot;
            SystemFailedException e = assertThrows(SystemFailedException.class, sim::tick);
            IllegalStateException cause = assertInstanceOf(IllegalStateException.class, e.getCause());
            assertTrue(cause.getMessage().contains("Simulation.snapshot() called while tick 1 runs")
                    && cause.getMessage().contains("between ticks"), cause.getMessage());
            during[0] = () -> sim.restore(new byte[0]);
            e = assertThrows(SystemFailedException.class, sim::tick);
            assertTrue(e.getCause().getMessage().contains("Simulation.restore() called while tick 1 runs"),
                    e.getCause().getMessage());
        }
        byte[][] saved = new byte[1][];
        long expected;
        try (Simulation sim = build(during)) {
            during[0] = null;
            sim.world().spawn(new Pos(0));
            sim.atEndOfTick((tick, nanos) -> {
                if (tick == 1) {
                    saved[0] = sim.snapshot();               // between ticks: allowed
                }
            });
            sim.run(4, 0);
            expected = sim.world().stateHash();
        }
        assertNotNull(saved[0]);
        try (Simulation restored = build(during)) {
            restored.restore(saved[0]);
            assertEquals(2, restored.currentTick());
            restored.run(2, 0);
            assertEquals(expected, restored.world().stateHash(), "the end-of-tick snapshot has the same future");
        }
    }
}
