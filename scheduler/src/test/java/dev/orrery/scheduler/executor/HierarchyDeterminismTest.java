package dev.orrery.scheduler.executor;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.orrery.ecs.Cleanup;
import dev.orrery.ecs.CommandBuffer;
import dev.orrery.ecs.CommandKind;
import dev.orrery.ecs.CommandOutcome;
import dev.orrery.ecs.Hierarchy;
import dev.orrery.ecs.Relation;
import dev.orrery.ecs.World;
import dev.orrery.ecs.WorldSnapshot;
import dev.orrery.ecs.component.Component;
import dev.orrery.ecs.component.Field;
import dev.orrery.ecs.internal.EcsInternals;
import dev.orrery.scheduler.Phase;
import dev.orrery.scheduler.Schedule;
import dev.orrery.scheduler.ScheduleExecutor;
import dev.orrery.scheduler.internal.SchedulerInternals;
import java.util.Arrays;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Hierarchy churn recorded from parallel chunk jobs gives the identical world after every
 * tick, whatever the worker count and batch size, and after a snapshot restore mid-run:
 * fleets, squads and agents under {@code ChildOf}; orphans found new squads spawned in the
 * same job (provisional parents and children paired in one job), orphan squads enlist in new
 * fleets; agents and squads are reparented and leave their parents; agents like chunk
 * neighbours through a multi-target {@code REMOVE_PAIR} relation and drop them; old entities
 * are despawned, fleets and squads taking their descendants with them. The tick's hash is the
 * state hash (pairs and their order included) mixed with the breadth-first hierarchy order.
 */
class HierarchyDeterminismTest {
    record Pos(float x, float y) {
    }

    record Age(int ticks) {
    }

    record Fleet() {
    }

    record Squad() {
    }

    record Agent() {
    }

    static final int TICKS = 150;
    static final int SNAP = 70;

    static int roll(long entity, int tick, int salt) {
        return StructuralDeterminismTest.roll(entity * 31 + salt, tick);
    }

    /**
     * The workload. Pairs only ever go agent to squad to fleet, so no pair can close a cycle
     * (strict playback, on in tests, would fail the run on a refusal).
     */
    static final class Churn {
        final World world = new World(1024);
        final Component<Pos> pos = world.component(Pos.class);
        final Component<Age> age = world.component(Age.class);
        final Component<Fleet> fleet = world.component(Fleet.class);
        final Component<Squad> squad = world.component(Squad.class);
        final Component<Agent> agent = world.component(Agent.class);
        final Relation childOf = world.relations().childOf();
        final Relation likes = world.relations().register("Likes", false, false, Cleanup.REMOVE_PAIR);
        final AtomicInteger tick = new AtomicInteger();
        final Schedule schedule;

        Churn(int minBatchRows, byte[] snapshot) {
            this(minBatchRows, snapshot, false);
        }

        /** {@code swapped}: the founding orphan joins its new squad before the squad's first agent does. */
        Churn(int minBatchRows, byte[] snapshot, boolean swapped) {
            if (snapshot == null) {
                populate();
            } else {
                new WorldSnapshot().read(snapshot, world);
            }
            Component<?> marker = childOf.column();
            Field ageTicks = age.field("ticks");
            Field parentOf = childOf.target();
            Field firstLiked = likes.target();
            Field px = pos.field("x");
            schedule = Schedule.builder(world).minBatchRows(minBatchRows)
                    .system("age").query(world.query().with(age).build()).writes(age)
                    .forEachChunk(job -> {
                        int[] a = job.chunk().writeInts(ageTicks);
                        for (int i = 0, n = job.chunk().size(); i < n; i++) {
                            a[i]++;
                        }
                    })
                    .system("found").query(world.query().with(agent, pos).without(marker).build()).reads(pos)
                    .spawns(pos, age, squad, agent).adds(marker)
                    .forEachChunk(job -> {
                        CommandBuffer cmd = job.commands();
                        float[] x = job.chunk().readFloats(px);
                        for (int i = 0, n = job.chunk().size(); i < n; i++) {
                            long e = job.chunk().entity(i);
                            if (roll(e, tick.get(), 1) % 3 == 0) {
                                long s = cmd.spawn(); // a provisional parent...
                                cmd.add(s, pos, new Pos(x[i], 0));
                                cmd.add(s, age, new Age(0));
                                cmd.add(s, squad);
                                long k = cmd.spawn(); // ...its provisional child, paired in the same job
                                cmd.add(k, pos, new Pos(x[i], 1));
                                cmd.add(k, age, new Age(0));
                                cmd.add(k, agent);
                                if (swapped) {
                                    cmd.addPair(e, childOf, s);
                                }
                                cmd.addPair(k, childOf, s);
                                if (!swapped) {
                                    cmd.addPair(e, childOf, s);
                                }
                            }
                        }
                    })
                    .system("enlist").query(world.query().with(squad).without(marker).build())
                    .spawns(pos, age, fleet).adds(marker)
                    .forEachChunk(job -> {
                        CommandBuffer cmd = job.commands();
                        for (int i = 0, n = job.chunk().size(); i < n; i++) {
                            long e = job.chunk().entity(i);
                            if (roll(e, tick.get(), 2) % 4 == 0) {
                                long f = cmd.spawn();
                                cmd.add(f, pos, new Pos(0, 0));
                                cmd.add(f, age, new Age(0));
                                cmd.add(f, fleet);
                                cmd.addPair(e, childOf, f);
                            }
                        }
                    })
                    .system("transfer").query(world.query().with(agent, marker).build()).reads(marker)
                    .adds(marker).removes(marker)
                    .forEachChunk(job -> {
                        long[] parent = job.chunk().readLongs(parentOf);
                        for (int i = 0, n = job.chunk().size(); i < n; i++) {
                            long e = job.chunk().entity(i);
                            int r = roll(e, tick.get(), 3);
                            if (r % 13 == 0 && n > 1) {
                                job.commands().addPair(e, childOf, parent[(i + 1) % n]); // a neighbour's squad
                            } else if (r % 31 == 0) {
                                job.commands().removePair(e, childOf, parent[i]);
                            }
                        }
                    })
                    .system("regroup").query(world.query().with(squad, marker).build()).reads(marker).adds(marker)
                    .forEachChunk(job -> {
                        long[] parent = job.chunk().readLongs(parentOf);
                        for (int i = 0, n = job.chunk().size(); i < n; i++) {
                            long e = job.chunk().entity(i);
                            if (roll(e, tick.get(), 4) % 11 == 0 && n > 1) {
                                job.commands().addPair(e, childOf, parent[(i + 1) % n]); // a neighbour's fleet
                            }
                        }
                    })
                    .system("like").query(world.query().with(agent).build()).adds(likes.column())
                    .forEachChunk(job -> {
                        for (int i = 0, n = job.chunk().size(); i < n; i++) {
                            long e = job.chunk().entity(i);
                            int r = roll(e, tick.get(), 5);
                            if (r % 17 == 0 && n > 1) {
                                job.commands().addPair(e, likes, job.chunk().entity((i + 1) % n));
                            }
                            if (r % 19 == 0 && n > 2) {
                                job.commands().addPair(e, likes, job.chunk().entity((i + 2) % n));
                            }
                        }
                    })
                    .system("unlike").query(world.query().with(likes.column()).build()).reads(likes.column())
                    .removes(likes.column())
                    .forEachChunk(job -> {
                        long[] first = job.chunk().readLongs(firstLiked);
                        for (int i = 0, n = job.chunk().size(); i < n; i++) {
                            long e = job.chunk().entity(i);
                            if (roll(e, tick.get(), 6) % 7 == 0) {
                                job.commands().removePair(e, likes, first[i]);
                            }
                        }
                    })
                    .system("cull").inPhase(Phase.POST_UPDATE).query(world.query().with(age).build()).reads(age)
                    .despawns()
                    .forEachChunk(job -> {
                        int[] a = job.chunk().readInts(ageTicks);
                        for (int i = 0, n = job.chunk().size(); i < n; i++) {
                            long e = job.chunk().entity(i);
                            if (a[i] > 30 && roll(e, tick.get(), 7) % 9 == 0) {
                                job.commands().despawn(e); // a fleet or squad takes its descendants along
                            }
                        }
                    })
                    .build();
        }

        private void populate() {
            long[] fleets = new long[12];
            long[] squads = new long[80];
            for (int i = 0; i < fleets.length; i++) {
                fleets[i] = world.spawn(new Pos(i, 0), new Age(i % 30), new Fleet());
            }
            for (int i = 0; i < squads.length; i++) {
                squads[i] = world.spawn(new Pos(i, 1), new Age(i % 30), new Squad());
                world.relations().add(squads[i], childOf, fleets[i % fleets.length]);
            }
            for (int i = 0; i < 1200; i++) {
                long a = world.spawn(new Pos(i, 2), new Age(i % 30), new Agent());
                if (i % 10 != 0) {
                    world.relations().add(a, childOf, squads[(i * 7) % squads.length]);
                }
            }
        }

        /** The state hash mixed with the hierarchy's breadth-first order. */
        long tickHash() {
            Hierarchy h = world.relations().hierarchy(childOf);
            long s = world.stateHash() * 31 + h.levels();
            for (int slot = 0; slot < h.size(); slot++) {
                s = (s * 0x9E3779B97F4A7C15L + h.entity(slot)) * 31 + h.parentSlot(slot);
            }
            return s;
        }

        long[] run(ScheduleExecutor executor, int from, int to) {
            long[] hashes = new long[to - from];
            for (int t = from; t < to; t++) {
                tick.set(t);
                executor.run();
                hashes[t - from] = tickHash();
            }
            return hashes;
        }
    }

    static long[] reference;
    static byte[] midSnapshot;
    static Churn referenceEnd;

    static synchronized long[] reference() {
        if (reference == null) {
            Churn w = new Churn(Schedule.DEFAULT_MIN_BATCH_ROWS, null);
            try (ScheduleExecutor ex = new SingleThreadedExecutor(SchedulerInternals.plan(w.schedule))) {
                long[] first = w.run(ex, 0, SNAP);
                midSnapshot = new WorldSnapshot().write(w.world);
                long[] rest = w.run(ex, SNAP, TICKS);
                reference = new long[TICKS];
                System.arraycopy(first, 0, reference, 0, SNAP);
                System.arraycopy(rest, 0, reference, SNAP, TICKS - SNAP);
                assertTrue(ex.commandTotals().count(CommandKind.DESPAWN, CommandOutcome.APPLIED) > 100,
                        ex.commandTotals().toString());
            }
            referenceEnd = w;
        }
        return reference;
    }

    @ParameterizedTest(name = "{0} workers, min batch {1} rows")
    @MethodSource("dev.orrery.scheduler.executor.StructuralDeterminismTest#executors") // the same worker/batch matrix
    void shouldGiveTheSameStateAfterEveryTick(int workers, int minBatchRows) {
        long[] ref = reference();
        Churn w = new Churn(minBatchRows, null);
        long[] hashes;
        try (ScheduleExecutor ex = w.schedule.executor(workers)) {
            hashes = w.run(ex, 0, TICKS);
            assertTrue(ex.commandTotals().applied() > 1000, ex.commandTotals().toString());
        }
        for (int t = 0; t < TICKS; t++) {
            assertEquals(ref[t], hashes[t], "state diverged at tick " + t + " with " + workers + " workers, batch "
                    + minBatchRows);
        }
    }

    @ParameterizedTest(name = "restored on {0} workers")
    @MethodSource("restoreWorkers")
    void shouldGoOnIdenticallyAfterAMidRunSnapshot(int workers) {
        long[] ref = reference();
        Churn w = new Churn(16, midSnapshot);
        long[] hashes;
        try (ScheduleExecutor ex = w.schedule.executor(workers)) {
            hashes = w.run(ex, SNAP, TICKS);
        }
        for (int t = SNAP; t < TICKS; t++) {
            assertEquals(ref[t], hashes[t - SNAP], "restored run diverged at tick " + t + " on " + workers + " workers");
        }
    }

    static Stream<Arguments> restoreWorkers() {
        return Stream.of(Arguments.of(1), Arguments.of(4));
    }

    /**
     * The control: the same workload with only the order of two pair commands swapped (so the
     * new squads' children come in the other order) hashes differently, so the comparisons
     * above can fail.
     */
    @Test
    void shouldSeeWhenOnlyTheChildrenOrderDiffers() {
        long[] ref = reference();
        Churn w = new Churn(Schedule.DEFAULT_MIN_BATCH_ROWS, null, true);
        long[] swapped;
        try (ScheduleExecutor ex = new SingleThreadedExecutor(SchedulerInternals.plan(w.schedule))) {
            swapped = w.run(ex, 0, TICKS);
        }
        assertNotEquals(ref[0], swapped[0], "the first tick already founds squads");
        assertFalse(Arrays.equals(ref, swapped));
    }

    /** The workload does churn the hierarchy: many pairs, several levels, every kind of pair change. */
    @Test
    void shouldChurnTheHierarchy() {
        reference();
        Churn w = referenceEnd;
        Hierarchy h = w.world.relations().hierarchy(w.childOf);
        assertEquals(3, h.levels(), "fleets, squads, agents");
        assertTrue(w.world.relations().pairCount(w.childOf) > 300, "pairs: " + w.world.relations().pairCount(w.childOf));
        assertTrue(w.world.relations().pairCount(w.likes) > 20, "likes: " + w.world.relations().pairCount(w.likes));
        assertTrue(EcsInternals.nextPairSeq(w.world.relations(), w.childOf) > 3 * w.world.relations().pairCount(w.childOf),
                "pairs were made and unmade many times over");
        assertNotEquals(0, w.world.entityCount());
    }
}
