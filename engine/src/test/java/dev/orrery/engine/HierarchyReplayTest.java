package dev.orrery.engine;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.orrery.ecs.Cleanup;
import dev.orrery.ecs.CommandBuffer;
import dev.orrery.ecs.Relation;
import dev.orrery.ecs.World;
import dev.orrery.ecs.component.Component;
import dev.orrery.ecs.component.Field;
import dev.orrery.ecs.internal.EcsInternals;
import dev.orrery.scheduler.Phase;
import dev.orrery.scheduler.Resources;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Hierarchy churn under a simulation: squads founded around orphaned agents (a provisional
 * squad and its first agent paired in the job that spawns them), fleets for orphaned squads,
 * reparenting, leaving, a multi-target {@code REMOVE_PAIR} relation, and old fleets and squads
 * despawned with their descendants. The state hash (pairs and their order included) is the same
 * after every tick on 1, 2, 4 and 8 workers, after a restore from a snapshot taken mid-run,
 * and when a recording replays on 1 and 4 workers.
 */
class HierarchyReplayTest {
    record Pos(float x) {
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
    /** The snapshot is taken after tick SNAP - 1. */
    static final int SNAP = 64;

    /** Pairs only go agent to squad to fleet, so none can close a cycle (strict playback fails a refusal). */
    static Simulation build(int workers, boolean populate) {
        World world = new World(1024);
        Component<Pos> pos = world.component(Pos.class);
        Component<Age> age = world.component(Age.class);
        Component<Fleet> fleet = world.component(Fleet.class);
        Component<Squad> squad = world.component(Squad.class);
        Component<Agent> agent = world.component(Agent.class);
        Relation childOf = world.relations().childOf();
        Relation likes = world.relations().register("Likes", false, false, Cleanup.REMOVE_PAIR);
        if (populate) {
            populate(world, childOf);
        }
        Component<?> marker = childOf.column();
        Field ageTicks = age.field("ticks");
        Field parentOf = childOf.target();
        Field firstLiked = likes.target();
        SimulationBuilder builder = Simulation.builder(world).seed(11).workers(workers).hashEvery(1);
        Resources res = builder.resources();
        return builder.systems(s -> s.minBatchRows(64)
                .system("age").query(world.query().with(age).build()).writes(age)
                .forEachChunk(job -> {
                    int[] a = job.chunk().writeInts(ageTicks);
                    for (int i = 0, n = job.chunk().size(); i < n; i++) {
                        a[i]++;
                    }
                })
                .system("found").query(world.query().with(agent).without(marker).build())
                .readsResource(Simulation.CLOCK, Simulation.RANDOM).spawns(pos, age, squad, agent).adds(marker)
                .forEachChunk(job -> {
                    CounterRandom rnd = res.get(Simulation.RANDOM);
                    long t = res.get(Simulation.CLOCK).tick();
                    CommandBuffer cmd = job.commands();
                    for (int i = 0, n = job.chunk().size(); i < n; i++) {
                        long e = job.chunk().entity(i);
                        if (rnd.nextFloat(t, e, 0) < 0.3f) {
                            long sq = cmd.spawn();
                            cmd.add(sq, pos, new Pos(1));
                            cmd.add(sq, age, new Age(0));
                            cmd.add(sq, squad);
                            long first = cmd.spawn();
                            cmd.add(first, pos, new Pos(2));
                            cmd.add(first, age, new Age(0));
                            cmd.add(first, agent);
                            cmd.addPair(first, childOf, sq);
                            cmd.addPair(e, childOf, sq);
                        }
                    }
                })
                .system("enlist").query(world.query().with(squad).without(marker).build())
                .readsResource(Simulation.CLOCK, Simulation.RANDOM).spawns(pos, age, fleet).adds(marker)
                .forEachChunk(job -> {
                    CounterRandom rnd = res.get(Simulation.RANDOM);
                    long t = res.get(Simulation.CLOCK).tick();
                    CommandBuffer cmd = job.commands();
                    for (int i = 0, n = job.chunk().size(); i < n; i++) {
                        long e = job.chunk().entity(i);
                        if (rnd.nextFloat(t, e, 1) < 0.25f) {
                            long f = cmd.spawn();
                            cmd.add(f, pos, new Pos(0));
                            cmd.add(f, age, new Age(0));
                            cmd.add(f, fleet);
                            cmd.addPair(e, childOf, f);
                        }
                    }
                })
                .system("transfer").query(world.query().with(marker).build()).reads(marker)
                .readsResource(Simulation.CLOCK, Simulation.RANDOM).adds(marker).removes(marker)
                .forEachChunk(job -> {
                    CounterRandom rnd = res.get(Simulation.RANDOM);
                    long t = res.get(Simulation.CLOCK).tick();
                    long[] parent = job.chunk().readLongs(parentOf);
                    for (int i = 0, n = job.chunk().size(); i < n; i++) {
                        long e = job.chunk().entity(i);
                        float roll = rnd.nextFloat(t, e, 2);
                        // A chunk holds agents or squads, never both (their tags differ), so a
                        // neighbour's parent is of the right level.
                        if (roll < 0.08f && n > 1) {
                            job.commands().addPair(e, childOf, parent[(i + 1) % n]);
                        } else if (roll < 0.11f) {
                            job.commands().removePair(e, childOf, parent[i]);
                        }
                    }
                })
                .system("like").query(world.query().with(agent).optional(likes.column()).build())
                .reads(likes.column()).readsResource(Simulation.CLOCK, Simulation.RANDOM)
                .adds(likes.column()).removes(likes.column())
                .forEachChunk(job -> {
                    CounterRandom rnd = res.get(Simulation.RANDOM);
                    long t = res.get(Simulation.CLOCK).tick();
                    boolean liking = job.chunk().has(likes.column());
                    long[] first = liking ? job.chunk().readLongs(firstLiked) : null;
                    for (int i = 0, n = job.chunk().size(); i < n; i++) {
                        long e = job.chunk().entity(i);
                        float roll = rnd.nextFloat(t, e, 3);
                        if (roll < 0.06f && n > 1) {
                            job.commands().addPair(e, likes, job.chunk().entity((i + 1) % n));
                        } else if (roll < 0.1f && n > 2) {
                            job.commands().addPair(e, likes, job.chunk().entity((i + 2) % n));
                        } else if (liking && roll > 0.85f) {
                            job.commands().removePair(e, likes, first[i]);
                        }
                    }
                })
                .system("cull").inPhase(Phase.POST_UPDATE).query(world.query().with(age).build()).reads(age)
                .readsResource(Simulation.CLOCK, Simulation.RANDOM).despawns()
                .forEachChunk(job -> {
                    CounterRandom rnd = res.get(Simulation.RANDOM);
                    long t = res.get(Simulation.CLOCK).tick();
                    int[] a = job.chunk().readInts(ageTicks);
                    for (int i = 0, n = job.chunk().size(); i < n; i++) {
                        long e = job.chunk().entity(i);
                        if (a[i] > 30 && rnd.nextFloat(t, e, 4) < 0.1f) {
                            job.commands().despawn(e); // a fleet or squad takes its descendants along
                        }
                    }
                })).build();
    }

    private static void populate(World world, Relation childOf) {
        long[] fleets = new long[10];
        long[] squads = new long[60];
        for (int i = 0; i < fleets.length; i++) {
            fleets[i] = world.spawn(new Pos(0), new Age(i % 30), new Fleet());
        }
        for (int i = 0; i < squads.length; i++) {
            squads[i] = world.spawn(new Pos(1), new Age(i % 30), new Squad());
            world.relations().add(squads[i], childOf, fleets[i % fleets.length]);
        }
        for (int i = 0; i < 1000; i++) {
            long a = world.spawn(new Pos(2), new Age(i % 30), new Agent());
            if (i % 10 != 0) {
                world.relations().add(a, childOf, squads[(i * 7) % squads.length]);
            }
        }
    }

    /** The hash after every tick of a fresh run on {@code workers}, with the snapshot after tick SNAP - 1 in {@code snap[0]}. */
    private static long[] run(int workers, byte[][] snap) {
        long[] hashes = new long[TICKS];
        try (Simulation sim = build(workers, true)) {
            for (int t = 0; t < TICKS; t++) {
                sim.tick();
                hashes[t] = sim.lastHash();
                if (t == SNAP - 1 && snap != null) {
                    snap[0] = sim.snapshot();
                }
            }
            Relation childOf = sim.world().relations().childOf();
            assertTrue(sim.world().relations().pairCount(childOf) > 300, "the workload keeps a hierarchy");
            assertTrue(EcsInternals.nextPairSeq(sim.world().relations(), childOf) > 3L * sim.world().relations().pairCount(childOf),
                    "pairs were made and unmade many times over");
            assertEquals(3, sim.world().relations().hierarchy(childOf).levels());
        }
        return hashes;
    }

    @Test
    void shouldHashTheSameOnAnyWorkerCountAndAfterAMidRunRestore() {
        byte[][] snap = new byte[1][];
        long[] reference = run(2, snap);
        assertNotEquals(reference[SNAP - 1], reference[SNAP], "the state moves on every tick");
        for (int workers : new int[] {1, 4, 8}) {
            assertArrayEquals(reference, run(workers, null), workers + " workers");
            long[] resumed = reference.clone();
            try (Simulation sim = build(workers, false)) {
                sim.restore(snap[0]);
                assertEquals(reference[SNAP - 1], sim.world().stateHash(), "the restored state");
                for (int t = SNAP; t < TICKS; t++) {
                    assertEquals(t, sim.tick());
                    resumed[t] = sim.lastHash();
                }
            }
            assertArrayEquals(reference, resumed, "resumed on " + workers + " workers");
        }
    }

    @Test
    void shouldReplayARecordingOnAnyWorkerCount(@TempDir Path dir) throws Exception {
        RecordedReplays.recordThenReplay(HierarchyReplayTest::build, dir, TICKS, 1, 4);
    }
}
