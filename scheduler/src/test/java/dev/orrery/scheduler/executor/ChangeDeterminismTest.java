package dev.orrery.scheduler.executor;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.orrery.ecs.RemovedEntities;
import dev.orrery.ecs.World;
import dev.orrery.ecs.WorldSnapshot;
import dev.orrery.ecs.archetype.Archetype;
import dev.orrery.ecs.archetype.Archetypes;
import dev.orrery.ecs.component.Component;
import dev.orrery.ecs.component.Field;
import dev.orrery.ecs.internal.EcsInternals;
import dev.orrery.scheduler.Phase;
import dev.orrery.scheduler.Schedule;
import dev.orrery.scheduler.ScheduleExecutor;
import dev.orrery.scheduler.internal.SchedulerInternals;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Change detection and observers stay deterministic: a workload whose integration runs only
 * on chunks a {@code changed(vel)} filter passes, whose glow marks fire an onAdd hook that
 * writes a value, whose deaths fire an onDespawn hook that records a spawn, and whose
 * mourning system reads the removal log of {@code hp}, gives the same state hash (with the
 * hooks' and the log's tallies) after every tick on 1, 2, 4 and 8 workers, and again after a
 * snapshot restore in the middle of the run.
 */
class ChangeDeterminismTest {
    record Pos(float x, float y) {
    }

    record Vel(float x, float y) {
    }

    record Hp(int hp) {
    }

    record Glow() {
    }

    record Corpse() {
    }

    static final int TICKS = 120;

    static int roll(long a, int tick) {
        return StructuralDeterminismTest.roll(a, tick);
    }

    static final class Workload {
        final World world = new World(2048);
        final Component<Pos> pos = world.component(Pos.class);
        final Component<Vel> vel = world.component(Vel.class);
        final Component<Hp> hp = world.component(Hp.class);
        final Component<Glow> glow = world.component(Glow.class);
        final Component<Corpse> corpse = world.component(Corpse.class);
        final Field px = pos.field("x");
        final Field vx = vel.field("x");
        final Field py = pos.field("y");
        final Field hpValue = hp.field("hp");
        int tick;
        long mourned;
        long glowHooks;
        long deathHooks;
        long integratedRows;
        final Schedule schedule;

        Workload(byte[] snapshot) {
            if (snapshot == null) {
                for (int i = 0; i < 3000; i++) {
                    world.spawn(new Pos(i, -i), new Vel(i % 7, i % 5), new Hp(40 + i % 400));
                }
                world.trackRemoved(hp);
            } else {
                new WorldSnapshot().read(snapshot, world); // the removal log comes back tracked
            }
            world.observe(glow).onAdd((w, e, commands) -> {
                glowHooks += e;
                w.set(e, hp, new Hp(w.get(e, hp).hp() + 2)); // sees the entity with its new column
            });
            world.observe(hp).onDespawn((w, e, commands) -> {
                deathHooks++;
                long body = commands.spawn();
                commands.add(body, corpse);
            });
            schedule = Schedule.builder(world).minBatchRows(64)
                    .system("nudge").query(world.query().with(vel).build()).writes(vel)
                    .forEachChunk(job -> {
                        if (roll(job.chunkOrdinal(), tick) % 4 != 0) {
                            return; // three chunks in four are left alone this tick
                        }
                        float[] v = job.chunk().writeFloats(vx);
                        for (int i = 0, n = job.chunk().size(); i < n; i++) {
                            v[i] = -v[i] + 0.25f;
                        }
                    })
                    .system("integrate").query(world.query().with(pos).changed(vel).build()).reads(vel).writes(pos)
                    .forEachChunk(job -> {
                        float[] x = job.chunk().writeFloats(px);
                        float[] v = job.chunk().readFloats(vx);
                        for (int i = 0, n = job.chunk().size(); i < n; i++) {
                            x[i] += v[i];
                        }
                    })
                    .system("regen").query(world.query().with(pos).changed(hp).build()).reads(hp).writes(pos)
                    .after("integrate")
                    .forEachChunk(job -> { // reacts to last tick's damage: written after it ran
                        float[] y = job.chunk().writeFloats(py);
                        for (int i = 0, n = job.chunk().size(); i < n; i++) {
                            y[i] += 1;
                        }
                    })
                    .system("glow").query(world.query().with(hp).without(glow).build()).reads(hp).adds(glow)
                    .forEachChunk(job -> {
                        int[] h = job.chunk().readInts(hpValue);
                        for (int i = 0, n = job.chunk().size(); i < n; i++) {
                            if ((h[i] + tick) % 17 == 0) {
                                job.commands().add(job.chunk().entity(i), glow);
                            }
                        }
                    })
                    .system("hurt").query(world.query().with(hp, glow).build()).writes(hp).removes(glow).despawns()
                    .inPhase(Phase.POST_UPDATE)
                    .forEachChunk(job -> {
                        int[] h = job.chunk().writeInts(hpValue);
                        for (int i = 0, n = job.chunk().size(); i < n; i++) {
                            h[i] -= 4;
                            long e = job.chunk().entity(i);
                            if (h[i] < 0) {
                                job.commands().despawn(e);
                            } else if (roll(e, tick) % 3 != 0) {
                                job.commands().remove(e, glow);
                            }
                        }
                    })
                    .system("mourn").query(world.query().with(pos).build()).reads(pos, hp).inPhase(Phase.POST_UPDATE)
                    .forEachChunk(job -> {
                        if (job.chunkOrdinal() != 0) {
                            return; // one chunk reads the log for the system
                        }
                        RemovedEntities gone = job.removed(hp);
                        for (int i = 0; i < gone.count(); i++) {
                            mourned = mourned * 31 + gone.entity(i);
                        }
                    })
                    .build();
        }

        long hash() {
            return world.stateHash() ^ mourned * 0x9E3779B97F4A7C15L ^ glowHooks * 31 ^ deathHooks << 40;
        }

        long[] run(ScheduleExecutor executor, int from, int to) {
            long[] hashes = new long[to - from];
            for (int t = from; t < to; t++) {
                tick = t;
                executor.run();
                hashes[t - from] = hash();
            }
            return hashes;
        }

        void copyTallies(Workload from) {
            mourned = from.mourned;
            glowHooks = from.glowHooks;
            deathHooks = from.deathHooks;
        }
    }

    static long[] reference;

    static synchronized long[] reference() {
        if (reference == null) {
            Workload w = new Workload(null);
            try (ScheduleExecutor ex = new SingleThreadedExecutor(SchedulerInternals.plan(w.schedule))) {
                reference = w.run(ex, 0, TICKS);
            }
            assertTrue(w.deathHooks > 10 && w.glowHooks != 0 && w.mourned != 0,
                    "the workload must fire its hooks and read removals: " + w.deathHooks + " deaths");
        }
        return reference;
    }

    @ParameterizedTest(name = "{0} workers")
    @ValueSource(ints = {1, 2, 4, 8})
    void shouldGiveTheSameStateAfterEveryTickOnAnyWorkerCount(int workers) {
        Workload w = new Workload(null);
        long[] hashes;
        try (ScheduleExecutor ex = w.schedule.executor(workers)) {
            hashes = w.run(ex, 0, TICKS);
        }
        assertArrayEquals(reference(), hashes, workers + " workers diverged");
        assertTrue(w.world.query().with(w.hp).build().count() > 500, "the workload must stay alive to the end: " + w.world.query().with(w.hp).build().count() + " deaths " + w.deathHooks + " glow " + w.world.query().with(w.glow).build().count());
    }

    @Test
    void theChangedFilterSkipsChunksNobodyWrote() {
        Workload w = new Workload(null);
        try (ScheduleExecutor ex = new SingleThreadedExecutor(SchedulerInternals.plan(w.schedule))) {
            w.run(ex, 0, 1); // first run: everything is new
            float[] before = xs(w);
            w.run(ex, 1, 2);
            float[] after = xs(w);
            int moved = 0;
            for (int i = 0; i < before.length; i++) {
                moved += before[i] != after[i] ? 1 : 0;
            }
            assertTrue(moved > 0 && moved < before.length * 3 / 4, "integrate moved " + moved + " of " + before.length
                    + " entities: only those in chunks nudge wrote");
        }
    }

    private static float[] xs(Workload w) {
        float[] out = new float[w.world.entityCount()];
        int[] n = {0};
        w.world.query().with(w.pos).build().forEach((c, i) -> out[n[0]++] = c.readFloats(w.px)[i]);
        return out;
    }

    @ParameterizedTest(name = "restored at tick {0}")
    @ValueSource(ints = {1, 37, 80})
    void shouldFilterAfterASnapshotRestoreExactlyAsTheOriginalRun(int k) {
        long[] ref = reference();
        Workload original = new Workload(null);
        byte[] snapshot;
        try (ScheduleExecutor ex = original.schedule.executor(2)) {
            original.run(ex, 0, k);
            snapshot = new WorldSnapshot().write(original.world);
        }
        Workload restored = new Workload(snapshot);
        restored.copyTallies(original);
        try (ScheduleExecutor ex = restored.schedule.executor(4)) {
            long[] rest = restored.run(ex, k, TICKS);
            for (int t = k; t < TICKS; t++) {
                assertEquals(ref[t], rest[t - k], "restored run diverged at tick " + t);
            }
        }
    }

    @Test
    void aRestoreThatLostTheVersionsWouldDiverge() {
        // The control for the test above: the same restore with every chunk version reset to
        // the clock (as if the snapshot had not saved them) filters differently.
        long[] ref = reference();
        int k = 37;
        Workload original = new Workload(null);
        byte[] snapshot;
        try (ScheduleExecutor ex = new SingleThreadedExecutor(SchedulerInternals.plan(original.schedule))) {
            original.run(ex, 0, k);
            snapshot = new WorldSnapshot().write(original.world);
        }
        Workload restored = new Workload(snapshot);
        restored.copyTallies(original);
        Archetypes archetypes = EcsInternals.storage(restored.world).archetypes();
        long now = archetypes.clock().now();
        for (int a = 0; a < archetypes.count(); a++) {
            Archetype arch = archetypes.get(a);
            for (int c = 0; c < arch.chunkCount(); c++) {
                for (int s = 0; s < arch.columnCount(); s++) {
                    arch.chunk(c).restoreVersions(s, 1, 1);
                }
            }
        }
        assertTrue(now > 1);
        try (ScheduleExecutor ex = new SingleThreadedExecutor(SchedulerInternals.plan(restored.schedule))) {
            long[] rest = restored.run(ex, k, TICKS);
            assertNotEquals(ref[k], rest[0], "losing the versions must change what the filter passes");
        }
    }
}
