package dev.orrery.scheduler.executor;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.orrery.ecs.CommandBuffer;
import dev.orrery.ecs.World;
import dev.orrery.ecs.component.Component;
import dev.orrery.ecs.component.EntityRef;
import dev.orrery.ecs.component.Field;
import dev.orrery.scheduler.Phase;
import dev.orrery.scheduler.Schedule;
import dev.orrery.scheduler.ScheduleExecutor;
import dev.orrery.scheduler.SystemFailedException;
import dev.orrery.scheduler.internal.SchedulerInternals;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Structural changes recorded from parallel jobs give the identical world (same ids, same
 * values, same rows in the same chunks) after every tick, whatever the worker count and the
 * job batch size: the state hash of each of 200 ticks is compared with a single-threaded run.
 */
class StructuralDeterminismTest {
    record Pos(float x, float y) {
    }

    record Vel(float x, float y) {
    }

    record Hp(int hp) {
    }

    record Age(int ticks) {
    }

    record Marked() {
    }

    record Child(@EntityRef long entity) {
    }

    static final int TICKS = 200;

    /** Same on every thread: a mix of the entity id and the tick, never a shared generator. */
    static int roll(long entity, int tick) {
        long h = entity * 0x9E3779B97F4A7C15L + tick * 0xC2B2AE3D27D4EB4FL;
        h ^= h >>> 29;
        h *= 0xBF58476D1CE4E5B9L;
        return (int) ((h ^ (h >>> 32)) & 0x7FFF_FFFF);
    }

    /** The workload: movement, ageing, spawning with an entity reference, marking, despawning. */
    static final class Workload {
        final World world = new World(2048);
        final Component<Pos> pos = world.component(Pos.class);
        final Component<Vel> vel = world.component(Vel.class);
        final Component<Hp> hp = world.component(Hp.class);
        final Component<Age> age = world.component(Age.class);
        final Component<Marked> marked = world.component(Marked.class);
        final Component<Child> child = world.component(Child.class);
        final AtomicInteger tick = new AtomicInteger();
        final Schedule schedule;

        Workload(int minBatchRows) {
            for (int i = 0; i < 3000; i++) {
                long e = world.spawn(new Pos(i, -i), new Vel(i % 7, i % 5), new Age(i % 23));
                if (i % 2 == 0) {
                    world.add(e, hp, new Hp(i % 100));
                }
            }
            Field px = pos.field("x");
            Field py = pos.field("y");
            Field vx = vel.field("x");
            Field vy = vel.field("y");
            Field ageTicks = age.field("ticks");
            Field hpValue = hp.field("hp");
            schedule = Schedule.builder(world).minBatchRows(minBatchRows)
                    .system("move").query(world.query().with(pos, vel).build()).reads(vel).writes(pos)
                    .forEachChunk(job -> {
                        float[] x = job.chunk().writeFloats(px);
                        float[] y = job.chunk().writeFloats(py);
                        float[] u = job.chunk().readFloats(vx);
                        float[] v = job.chunk().readFloats(vy);
                        for (int i = 0, n = job.chunk().size(); i < n; i++) {
                            x[i] += u[i] * 0.5f;
                            y[i] += v[i] * 0.5f;
                        }
                    })
                    .system("age").query(world.query().with(age).build()).writes(age)
                    .forEachChunk(job -> {
                        int[] a = job.chunk().writeInts(ageTicks);
                        for (int i = 0, n = job.chunk().size(); i < n; i++) {
                            a[i]++;
                        }
                    })
                    .system("spawn").query(world.query().with(pos, age).without(child).build()).reads(pos, age)
                    .spawns(pos, vel, age).adds(child)
                    .forEachChunk(job -> {
                        CommandBuffer cmd = job.commands();
                        float[] x = job.chunk().readFloats(px);
                        int[] a = job.chunk().readInts(ageTicks);
                        for (int i = 0, n = job.chunk().size(); i < n; i++) {
                            long e = job.chunk().entity(i);
                            if (roll(e, tick.get()) % 41 == 0) {
                                long kid = cmd.spawn();
                                cmd.add(kid, pos, new Pos(x[i], a[i]));
                                cmd.add(kid, vel, new Vel(1, -1));
                                cmd.add(kid, age, new Age(0));
                                cmd.add(e, child, new Child(kid));
                            }
                        }
                    })
                    .system("mark").query(world.query().with(hp).without(marked).build()).reads(hp).adds(marked)
                    .afterStructuralChanges()
                    .forEachChunk(job -> {
                        int[] h = job.chunk().readInts(hpValue);
                        for (int i = 0, n = job.chunk().size(); i < n; i++) {
                            if ((h[i] + tick.get()) % 9 == 0) {
                                job.commands().add(job.chunk().entity(i), marked);
                            }
                        }
                    })
                    .system("damage").query(world.query().with(hp, marked).build()).writes(hp).removes(marked).setsLater(hp)
                    .inPhase(Phase.POST_UPDATE)
                    .forEachChunk(job -> {
                        int[] h = job.chunk().writeInts(hpValue);
                        for (int i = 0, n = job.chunk().size(); i < n; i++) {
                            h[i] -= 3;
                            if (h[i] < 0) {
                                job.commands().remove(job.chunk().entity(i), marked);
                                job.commands().set(job.chunk().entity(i), hp, new Hp(50));
                            }
                        }
                    })
                    .system("reap").query(world.query().with(age).build()).reads(age).inPhase(Phase.POST_UPDATE).despawns()
                    .forEachChunk(job -> {
                        int[] a = job.chunk().readInts(ageTicks);
                        for (int i = 0, n = job.chunk().size(); i < n; i++) {
                            long e = job.chunk().entity(i);
                            if (a[i] > 25 && roll(e, tick.get()) % 3 == 0) {
                                job.commands().despawn(e);
                            }
                        }
                    })
                    .build();
        }

        long[] run(ScheduleExecutor executor) {
            long[] hashes = new long[TICKS];
            for (int t = 0; t < TICKS; t++) {
                tick.set(t);
                executor.run();
                hashes[t] = world.stateHash();
            }
            return hashes;
        }
    }

    static long[] reference;

    static synchronized long[] reference() {
        if (reference == null) {
            Workload w = new Workload(Schedule.DEFAULT_MIN_BATCH_ROWS);
            try (ScheduleExecutor ex = new SingleThreadedExecutor(SchedulerInternals.plan(w.schedule))) {
                reference = w.run(ex);
            }
        }
        return reference;
    }

    static Stream<Arguments> executors() {
        return Stream.of(Arguments.of(1, 1), Arguments.of(2, 1), Arguments.of(2, 64), Arguments.of(4, 16),
                Arguments.of(4, 1000), Arguments.of(8, 1), Arguments.of(8, 300));
    }

    @ParameterizedTest(name = "{0} workers, min batch {1} rows")
    @MethodSource("executors")
    void shouldGiveTheSameStateAfterEveryTick(int workers, int minBatchRows) {
        Workload w = new Workload(minBatchRows);
        long[] hashes;
        try (ScheduleExecutor ex = w.schedule.executor(workers)) {
            hashes = w.run(ex);
            assertTrue(ex.commandTotals().applied() > 1000, "the workload must make structural changes: "
                    + ex.commandTotals());
            assertTrue(ex.commandTotals().moves() > 100, ex.commandTotals().toString());
        }
        long[] ref = reference();
        for (int t = 0; t < TICKS; t++) {
            assertEquals(ref[t], hashes[t], "state diverged at tick " + t + " with " + workers + " workers, batch "
                    + minBatchRows);
        }
        assertArrayEquals(ref, hashes);
    }

    @Test
    void shouldLetASystemAfterASyncPointSeeEarlierSpawns() {
        World world = new World();
        Component<Pos> pos = world.component(Pos.class);
        Component<Age> age = world.component(Age.class);
        world.spawn(new Age(1));
        AtomicInteger seenWithSync = new AtomicInteger();
        AtomicInteger seenWithAutoSync = new AtomicInteger();
        // Before declared effects, a system in 'auto's place saw 0 here: nothing told the graph
        // that 'spawner' spawns Pos. Now the declaration places a sync point before it.
        Schedule schedule = Schedule.builder(world)
                .system("spawner").query(world.query().with(age).build()).reads(age).spawns(pos)
                .forEachChunk(job -> job.commands().add(job.commands().spawn(), pos, new Pos(1, 1)))
                .system("auto").query(world.query().with(pos).build()).reads(pos)
                .forEachChunk(job -> seenWithAutoSync.addAndGet(job.chunk().size()))
                .system("synced").query(world.query().with(pos).build()).reads(pos).afterStructuralChanges()
                .forEachChunk(job -> seenWithSync.addAndGet(job.chunk().size()))
                .build();
        try (ScheduleExecutor ex = schedule.executor(2)) {
            ex.run();
        }
        assertEquals(1, seenWithAutoSync.get(), "the automatic sync point before 'auto' applied the spawn");
        assertEquals(1, seenWithSync.get(), "the sync point before 'synced' applied the spawn");
        assertTrue(schedule.toDot().contains("sync before"), schedule.toDot());
        assertTrue(schedule.toString().contains("sync point: command buffers applied"), schedule.toString());
    }

    @Test
    void shouldDiscardRecordedChangesOfAFailedRun() {
        World world = new World();
        Component<Age> age = world.component(Age.class);
        Component<Marked> marked = world.component(Marked.class);
        long e = world.spawn(new Age(1));
        Schedule schedule = Schedule.builder(world)
                .system("tagger").query(world.query().with(age).build()).reads(age).adds(marked)
                .forEachChunk(job -> job.commands().add(job.chunk().entity(0), marked))
                .system("boom").query(world.query().with(age).build()).reads(age).inPhase(Phase.UPDATE)
                .after("tagger")
                .forEachChunk(job -> {
                    throw new IllegalStateException("boom");
                })
                .build();
        try (ScheduleExecutor ex = schedule.executor(2)) {
            SystemFailedException failure = assertThrows(SystemFailedException.class, ex::run);
            assertInstanceOf(IllegalStateException.class, failure.getCause());
            assertFalse(world.has(e, marked), "the failed tick's recorded add must not be applied");
        }
    }
}
