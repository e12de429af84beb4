package dev.orrery.scheduler.executor;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.orrery.ecs.ChunkView;
import dev.orrery.ecs.Relation;
import dev.orrery.ecs.World;
import dev.orrery.ecs.component.Component;
import dev.orrery.ecs.component.Entity;
import dev.orrery.ecs.component.Field;
import dev.orrery.scheduler.Schedule;
import dev.orrery.scheduler.ScheduleExecutor;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.SplittableRandom;
import java.util.concurrent.ConcurrentHashMap;
import org.junit.jupiter.api.Test;

/**
 * Level systems ({@code forEachLevel}) x the {@code ChildOf} despawn cascade issued through a
 * job's command buffer in the same tick: after the sync point the walk visits exactly the
 * survivors, breadth first in the documented order, no job of a later system sees a dead
 * entity, and 1 and 2 workers end with the same state hash. Guards what {@code LevelSystemTest}
 * (pair additions only) and {@code RelationsTest} (direct despawns, no scheduler) do not: a
 * cascade played back from a chunk job's buffer rebuilding the hierarchy a later walk takes.
 */
class LevelWalkDespawnCascadeTest {
    record Depth(int depth) {
    }

    record Doomed(int unused) {
    }

    /** What one run saw and left. */
    private static final class Run {
        long[] walked;
        Set<Long> seenByLaterJobs = ConcurrentHashMap.newKeySet();
        long hash;
        World world;
        long[] entities;
        Component<Depth> depth;
        Relation childOf;
    }

    private static Run run(int workers) {
        Run r = new Run();
        World world = new World(4096);
        Component<Depth> depth = world.component(Depth.class);
        Component<Doomed> doomed = world.component(Doomed.class);
        Field d = depth.field("depth");
        Relation childOf = world.relations().childOf();
        SplittableRandom random = new SplittableRandom(23);
        long[] entities = new long[3000];
        for (int i = 0; i < entities.length; i++) {
            // every 97th entity is doomed: a parent of a subtree, a leaf, or a descendant of another doomed one
            entities[i] = i % 97 == 5 ? world.spawn(new Depth(-1), new Doomed(0)) : world.spawn(new Depth(-1));
            if (i >= 30) {
                world.relations().add(entities[i], childOf, entities[random.nextInt(i)]);
            }
        }
        r.walked = new long[entities.length];
        Arrays.fill(r.walked, Entity.NULL);
        Schedule schedule = Schedule.builder(world)
                .system("cull").query(world.query().with(doomed).build()).reads(doomed).despawns()
                .forEachChunk(job -> {
                    ChunkView c = job.chunk();
                    for (int i = 0; i < c.size(); i++) {
                        job.commands().despawn(c.entity(i));
                    }
                })
                .system("depth").writes(depth).forEachLevel(childOf, (job, h, from, to) -> {
                    for (int i = from; i < to; i++) {
                        r.walked[i] = h.entity(i);
                        int p = h.parentSlot(i);
                        job.setInt(h.entity(i), d, p < 0 ? 0 : job.getInt(h.entity(p), d) + 1);
                    }
                })
                .system("look").query(world.query().with(depth).build()).reads(depth).forEachChunk(job -> {
                    for (int i = 0; i < job.chunk().size(); i++) {
                        r.seenByLaterJobs.add(job.chunk().entity(i));
                    }
                })
                .build();
        try (ScheduleExecutor executor = schedule.executor(workers)) {
            executor.run();
        }
        r.hash = world.stateHash();
        r.world = world;
        r.entities = entities;
        r.depth = depth;
        r.childOf = childOf;
        return r;
    }

    /** The documented walk order of the survivors, computed without Hierarchy. */
    private static long[] expectedWalk(Run r) {
        List<Long> roots = new ArrayList<>();
        for (long e : r.entities) {
            if (r.world.isAlive(e) && r.world.relations().parent(e) == Entity.NULL
                    && r.world.relations().children(e).length > 0) {
                roots.add(e);
            }
        }
        roots.sort((a, b) -> Integer.compare(Entity.index(a), Entity.index(b)));
        List<Long> order = new ArrayList<>(roots);
        ArrayDeque<Long> queue = new ArrayDeque<>(roots);
        while (!queue.isEmpty()) {
            for (long c : r.world.relations().children(queue.poll())) {
                order.add(c);
                queue.add(c);
            }
        }
        return order.stream().mapToLong(Long::longValue).toArray();
    }

    private static Set<Long> doomedWithDescendants(long[] entities) {
        // recomputed from the same seed: the doomed entities and every descendant of one
        SplittableRandom random = new SplittableRandom(23);
        int[] parent = new int[entities.length];
        boolean[] dead = new boolean[entities.length];
        for (int i = 0; i < entities.length; i++) {
            parent[i] = i >= 30 ? random.nextInt(i) : -1;
            dead[i] = i % 97 == 5 || (parent[i] >= 0 && dead[parent[i]]);
        }
        Set<Long> out = new HashSet<>();
        for (int i = 0; i < entities.length; i++) {
            if (dead[i]) {
                out.add(entities[i]);
            }
        }
        return out;
    }

    @Test
    void shouldWalkOnlySurvivorsInOrderAndAgreeOnOneAndTwoWorkers() {
        Run one = run(1);
        Run two = run(2);
        for (Run r : List.of(one, two)) {
            Set<Long> dead = doomedWithDescendants(r.entities);
            assertTrue(dead.size() > 100, "the cascade reaches many descendants: " + dead.size());
            for (long e : r.entities) {
                assertEquals(!dead.contains(e), r.world.isAlive(e), "alive after the cascade: " + e);
            }
            long[] expected = expectedWalk(r);
            long[] walked = Arrays.stream(r.walked).filter(e -> e != Entity.NULL).toArray();
            assertArrayEquals(expected, walked, "the level walk visits the survivors, breadth first");
            for (long e : walked) {
                assertFalse(dead.contains(e), "the walk visited a dead entity " + e);
                int depth = 0;
                for (long p = r.world.relations().parent(e); p != Entity.NULL; p = r.world.relations().parent(p)) {
                    depth++;
                }
                assertEquals(depth, r.world.get(e, r.depth).depth(), "depth of " + e);
            }
            for (long e : r.seenByLaterJobs) {
                assertFalse(dead.contains(e), "a later system's job saw dead entity " + e);
            }
            assertEquals(r.entities.length - dead.size(), r.seenByLaterJobs.size(), "later jobs see every survivor");
        }
        assertEquals(one.hash, two.hash, "1 and 2 workers end in the same state");
    }
}
