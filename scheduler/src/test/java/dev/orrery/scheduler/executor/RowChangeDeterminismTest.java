package dev.orrery.scheduler.executor;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.orrery.ecs.ChunkView;
import dev.orrery.ecs.World;
import dev.orrery.ecs.WorldSnapshot;
import dev.orrery.ecs.component.Component;
import dev.orrery.ecs.component.Field;
import dev.orrery.scheduler.Phase;
import dev.orrery.scheduler.Schedule;
import dev.orrery.scheduler.ScheduleExecutor;
import dev.orrery.scheduler.internal.SchedulerInternals;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Per-row change versions stay deterministic: a workload whose {@code poke} marks a few hp
 * rows of every chunk ({@code markRows} + {@code markChanged(hp, row)}), whose {@code heal}
 * sets hp later through playback, whose {@code cull} despawns and spawns (swap-removes and
 * arrivals), and whose {@code react} visits only the changed hp rows through
 * {@code firstChanged}/{@code nextChanged}, gives the same state hash (and the same tally of
 * visited rows) after every tick on 1, 2 and 4 workers and after a mid-run snapshot restore.
 */
class RowChangeDeterminismTest {
    record Pos(float x, float y) {
    }

    record Hp(int hp) {
    }

    static final int TICKS = 80;

    static final class Workload {
        final World world = new World(2048);
        final Component<Pos> pos = world.component(Pos.class);
        final Component<Hp> hp = world.component(Hp.class);
        final Field px = pos.field("x");
        final Field hpValue = hp.field("hp");
        int tick;
        final AtomicLong visited = new AtomicLong(); // a sum, so the job order does not matter
        final AtomicLong visitedRows = new AtomicLong();
        final AtomicLong culled = new AtomicLong();
        final Schedule schedule;

        Workload(byte[] snapshot) {
            world.trackRowChanges(hp);
            if (snapshot == null) {
                for (int i = 0; i < 4000; i++) {
                    world.spawn(new Pos(i, -i), new Hp(1 + i % 12));
                }
            } else {
                new WorldSnapshot().read(snapshot, world);
            }
            schedule = Schedule.builder(world).minBatchRows(64)
                    .system("poke").query(world.query().with(hp).build()).writes(hp)
                    .forEachChunk(job -> {
                        ChunkView c = job.chunk();
                        c.markRows(hp);
                        int[] h = c.writeInts(hpValue);
                        for (int i = 0, n = c.size(); i < n; i++) {
                            if (StructuralDeterminismTest.roll(c.entity(i), tick) % 20 == 0) {
                                h[i] -= 3;
                                c.markChanged(hp, i);
                            }
                        }
                    })
                    .system("heal").query(world.query().with(hp, pos).build()).reads(pos).setsLater(hp)
                    .inPhase(Phase.POST_UPDATE).after("cull") // after react: it sees the sets next tick
                    .forEachChunk(job -> {
                        ChunkView c = job.chunk();
                        for (int i = 0, n = c.size(); i < n; i++) {
                            long e = c.entity(i);
                            if (StructuralDeterminismTest.roll(e, tick + 1000) % 97 == 0) {
                                job.commands().set(e, hp, new Hp(60));
                            }
                        }
                    })
                    .system("react").query(world.query().with(pos).changed(hp).build()).reads(hp).writes(pos)
                    .inPhase(Phase.POST_UPDATE)
                    .forEachChunk(job -> {
                        ChunkView c = job.chunk();
                        c.markRows(pos);
                        float[] x = c.writeFloats(px);
                        int[] h = c.readInts(hpValue);
                        long sum = 0;
                        int rows = 0;
                        for (int i = c.firstChanged(hp); i >= 0; i = c.nextChanged(i + 1)) {
                            x[i] += h[i];
                            c.markChanged(pos, i);
                            sum += c.entity(i) * (tick + 1);
                            rows++;
                        }
                        visited.addAndGet(sum);
                        visitedRows.addAndGet(rows);
                    })
                    .system("cull").query(world.query().with(hp).build()).reads(hp).spawns(pos, hp).despawns()
                    .inPhase(Phase.POST_UPDATE).after("react")
                    .forEachChunk(job -> {
                        ChunkView c = job.chunk();
                        int[] h = c.readInts(hpValue);
                        for (int i = 0, n = c.size(); i < n; i++) {
                            if (h[i] <= 0) {
                                job.commands().despawn(c.entity(i));
                                culled.incrementAndGet();
                                long born = job.commands().spawn();
                                job.commands().add(born, pos, new Pos(i, tick));
                                job.commands().add(born, hp, new Hp(20 + i % 40));
                            }
                        }
                    })
                    .build();
        }

        long[] run(ScheduleExecutor executor, int from, int to) {
            long[] hashes = new long[to - from];
            for (int t = from; t < to; t++) {
                tick = t;
                executor.run();
                hashes[t - from] = world.stateHash() ^ visited.get() * 0x9E3779B97F4A7C15L;
            }
            return hashes;
        }
    }

    static long[] reference;
    static long referenceRows;

    static synchronized long[] reference() {
        if (reference == null) {
            Workload w = new Workload(null);
            try (ScheduleExecutor ex = new SingleThreadedExecutor(SchedulerInternals.plan(w.schedule))) {
                reference = w.run(ex, 0, TICKS);
            }
            referenceRows = w.visitedRows.get();
        }
        return reference;
    }

    @ParameterizedTest(name = "{0} workers")
    @ValueSource(ints = {1, 2, 4})
    void shouldGiveTheSameStateAfterEveryTickOnAnyWorkerCount(int workers) {
        Workload w = new Workload(null);
        long[] hashes;
        try (ScheduleExecutor ex = w.schedule.executor(workers)) {
            hashes = w.run(ex, 0, TICKS);
        }
        assertArrayEquals(reference(), hashes, workers + " workers diverged");
        assertEquals(referenceRows, w.visitedRows.get());
        assertTrue(w.culled.get() > 100, "the workload must despawn (swap-remove) and respawn: " + w.culled.get());
    }

    @Test
    void reactVisitsOnlyTheChangedRowsNotWholeChunks() {
        reference();
        long everything = 4000L * (TICKS - 1);
        // poke marks about one row in 20, heal one in 97, cull's newcomers are new: well under a fifth
        assertTrue(referenceRows > 4000 + everything / 40 && referenceRows < 4000 + everything / 5,
                "react visited " + referenceRows + " rows over " + TICKS + " ticks of 4000 entities");
    }

    @ParameterizedTest(name = "restored at tick {0}")
    @ValueSource(ints = {1, 37})
    void shouldFilterAfterASnapshotRestoreExactlyAsTheOriginalRun(int k) {
        long[] ref = reference();
        Workload original = new Workload(null);
        byte[] snapshot;
        try (ScheduleExecutor ex = original.schedule.executor(2)) {
            original.run(ex, 0, k);
            snapshot = new WorldSnapshot().write(original.world);
        }
        Workload restored = new Workload(snapshot);
        restored.visited.set(original.visited.get());
        try (ScheduleExecutor ex = restored.schedule.executor(4)) {
            long[] rest = restored.run(ex, k, TICKS);
            for (int t = k; t < TICKS; t++) {
                assertEquals(ref[t], rest[t - k], "restored run diverged at tick " + t);
            }
        }
    }
}
