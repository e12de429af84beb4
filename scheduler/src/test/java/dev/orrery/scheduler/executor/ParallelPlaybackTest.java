package dev.orrery.scheduler.executor;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.orrery.ecs.CommandBuffer;
import dev.orrery.ecs.Shape;
import dev.orrery.ecs.World;
import dev.orrery.ecs.component.Component;
import dev.orrery.ecs.component.Field;
import dev.orrery.ecs.internal.Playback;
import dev.orrery.scheduler.Schedule;
import dev.orrery.scheduler.ScheduleExecutor;
import dev.orrery.scheduler.internal.SchedulerInternals;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * A sync point with hundreds of plain spawns lends the executor's workers to playback, which
 * writes the spawns' values side by side: the state hash after every tick must equal the
 * single-threaded executor's, on any worker count, while despawns of the same archetype come
 * first in the same sync point. Both kinds of plain spawn: through a shape with typed writes,
 * and the README's {@code spawn()} with one {@code add(h, column, record)} per column.
 */
class ParallelPlaybackTest {
    record Pos(float x, float y) {
    }

    record Vel(double dx, long born) {
    }

    record Age(int ticks) {
    }

    static final int TICKS = 40;
    static final int SPAWNS = Playback.DEFAULT_PARALLEL_SPAWNS * 2 + 33;

    static final class Workload {
        final World world = new World(1024);
        final Component<Pos> pos = world.component(Pos.class);
        final Component<Vel> vel = world.component(Vel.class);
        final Component<Age> age = world.component(Age.class);
        final Shape shape = world.shape(pos, vel, age);
        final Field px = pos.field("x");
        final Field py = pos.field("y");
        final Field dx = vel.field("dx");
        final Field born = vel.field("born");
        final Field ticks = age.field("ticks");
        final Schedule schedule;
        int tick;

        Workload(boolean readme) {
            for (int i = 0; i < 4000; i++) {
                shape.spawnRow().setFloat(px, i).setInt(ticks, i % 37);
            }
            schedule = Schedule.builder(world)
                    .system("age").query(world.query().with(age).build()).writes(age).forEachChunk(job -> {
                        int[] a = job.chunk().writeInts(ticks);
                        for (int i = 0, n = job.chunk().size(); i < n; i++) {
                            a[i]++;
                        }
                    })
                    .system("reap").query(world.query().with(age).build()).reads(age).despawns().forEachChunk(job -> {
                        int[] a = job.chunk().readInts(ticks);
                        for (int i = 0, n = job.chunk().size(); i < n; i++) {
                            if (a[i] % 37 == 0) {
                                job.commands().despawn(job.chunk().entity(i));
                            }
                        }
                    })
                    .system("respawn").spawns(pos, vel, age).forEachRange(() -> SPAWNS, (job, from, to) -> {
                        CommandBuffer cmd = job.commands();
                        for (int k = from; k < to && readme; k++) {
                            long h = cmd.spawn();
                            cmd.add(h, pos, new Pos(k * 0.25f + tick, -k));
                            cmd.add(h, vel, new Vel(tick * 1e-3 + k, (long) tick << 32 | k));
                            cmd.add(h, age, new Age((k + tick) % 37 + 1));
                        }
                        for (int k = from; k < to && !readme; k++) {
                            long h = cmd.spawn(shape);
                            cmd.setFloat(h, px, k * 0.25f + tick);
                            cmd.setFloat(h, py, -k);
                            cmd.setDouble(h, dx, tick * 1e-3 + k);
                            cmd.setLong(h, born, (long) tick << 32 | k);
                            cmd.setInt(h, ticks, (k + tick) % 37 + 1);
                        }
                    })
                    .build();
        }

        long[] run(ScheduleExecutor executor) {
            long[] hashes = new long[TICKS];
            for (tick = 0; tick < TICKS; tick++) {
                executor.run();
                hashes[tick] = world.stateHash();
            }
            return hashes;
        }
    }

    @ParameterizedTest(name = "{0} workers, README spawns {1}")
    @CsvSource({"1, false", "2, false", "4, false", "8, false", "1, true", "2, true", "4, true", "8, true"})
    void shouldMatchTheSingleThreadedRunAfterEveryTick(int workers, boolean readme) {
        Workload reference = new Workload(readme);
        long[] expected;
        try (ScheduleExecutor ex = new SingleThreadedExecutor(SchedulerInternals.plan(reference.schedule))) {
            expected = reference.run(ex);
        }
        Workload w = new Workload(readme);
        long[] hashes;
        try (ScheduleExecutor ex = w.schedule.executor(workers)) {
            hashes = w.run(ex);
            assertEquals((long) SPAWNS * TICKS, ex.commandTotals().count(
                    dev.orrery.ecs.CommandKind.SPAWN, dev.orrery.ecs.CommandOutcome.APPLIED));
        }
        assertArrayEquals(expected, hashes, "state diverged on " + workers + " workers");
        assertEquals(reference.world.entityCount(), w.world.entityCount());
    }
}
