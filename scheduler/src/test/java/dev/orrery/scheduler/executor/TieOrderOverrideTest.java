package dev.orrery.scheduler.executor;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.orrery.ecs.World;
import dev.orrery.ecs.component.Component;
import dev.orrery.ecs.component.Field;
import dev.orrery.scheduler.Phase;
import dev.orrery.scheduler.Schedule;
import dev.orrery.scheduler.ScheduleExecutor;
import dev.orrery.scheduler.graph.SystemGraph;
import dev.orrery.scheduler.internal.SchedulerInternals;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/**
 * {@link TieOrderOverride}: the single-threaded executor runs a phase's unordered systems the
 * other way round, keeps every edge of the graph (declared order, conflicting access, sync
 * points, exclusive systems, phases), and a game that keeps to the rules ends bit-identical to
 * the usual order (each system keeps its position: its change tick, where its commands merge).
 */
class TieOrderOverrideTest {
    record A(int v) {
    }

    record B(int v) {
    }

    record C(int v) {
    }

    record D(int v) {
    }

    private static final Phase LATE = Phase.named("Late");

    private static ScheduleExecutor executor(Schedule schedule, Runnable override) {
        override.run();
        try {
            return schedule.executor(1);
        } finally {
            TieOrderOverride.clear();
        }
    }

    /** The names of the systems in the order one run of {@code schedule} ran them. */
    private static List<String> runOrder(Schedule schedule, List<String> seen, Runnable override) {
        seen.clear();
        try (ScheduleExecutor executor = executor(schedule, override)) {
            executor.run();
        }
        return List.copyOf(seen);
    }

    @Test
    void shouldRunAPhaseOfUnorderedSystemsExactlyReversed() {
        World world = new World();
        List<String> seen = new ArrayList<>();
        Schedule.Builder b = Schedule.builder(world);
        for (String name : List.of("s0", "s1", "s2", "s3")) {
            b.system(name).forEachRange(() -> 1, (job, from, to) -> seen.add(name));
        }
        Schedule schedule = b.build();
        assertEquals(List.of("s0", "s1", "s2", "s3"), runOrder(schedule, seen, () -> { }));
        assertEquals(List.of("s3", "s2", "s1", "s0"), runOrder(schedule, seen, TieOrderOverride::flip));
        assertEquals(List.of("s0", "s1", "s2", "s3"), runOrder(schedule, seen, () -> { }), "cleared: usual order again");
        assertEquals(List.of("s0", "s2", "s1", "s3"), runOrder(schedule, seen, () -> TieOrderOverride.flipOnly("s1", "s2")));
        assertEquals(6, TieOrderOverride.flippedPairs(schedule).size());
        assertEquals(List.of("s0", "s1"), TieOrderOverride.flippedPairs(schedule).get(0), "nearest neighbours first");
    }

    /**
     * Random schedules over four components, two phases, declared before/after, explicit sync
     * points and exclusive systems: the flipped run keeps every edge and every phase, and flips
     * some pair in most of them.
     */
    @Test
    void shouldKeepEveryDeclaredOrderConflictAndSyncPointWhenFlipped() {
        SplittableRandom random = new SplittableRandom(7);
        int flippedSomething = 0;
        for (int round = 0; round < 200; round++) {
            World world = new World();
            List<Component<?>> cs = List.of(world.component(A.class), world.component(B.class), world.component(C.class),
                    world.component(D.class));
            world.spawn(new A(0), new B(0), new C(0), new D(0)); // one chunk: each chunk system runs one job
            var all = world.query().with(cs.get(0)).build();
            List<String> seen = new ArrayList<>();
            Schedule.Builder b = Schedule.builder(world).phases(Phase.UPDATE, LATE);
            int n = 3 + random.nextInt(8);
            for (int i = 0; i < n; i++) {
                String name = "s" + i;
                Schedule.SystemBuilder s = b.system(name).inPhase(random.nextInt(4) == 0 ? LATE : Phase.UPDATE);
                int kind = random.nextInt(12);
                if (kind == 0) {
                    b = s.exclusive(w -> seen.add(name));
                    continue;
                }
                if (random.nextInt(3) == 0) {
                    s.reads(cs.get(random.nextInt(4)));
                }
                if (random.nextInt(4) == 0) {
                    s.writes(cs.get(random.nextInt(4)));
                }
                if (kind == 1) {
                    s.afterStructuralChanges();
                }
                if (i > 0 && random.nextInt(4) == 0) {
                    int other = random.nextInt(i);
                    s.after("s" + other);
                }
                b = s.query(all).forEachChunk(job -> seen.add(name));
            }
            Schedule schedule;
            try {
                schedule = b.build();
            } catch (IllegalArgumentException phaseContradiction) { // after() across phases the wrong way
                continue;
            }
            SystemGraph graph = SchedulerInternals.graph(schedule);
            List<String> usual = runOrder(schedule, seen, () -> { });
            List<String> flipped = runOrder(schedule, seen, TieOrderOverride::flip);
            assertEquals(schedule.systemNames(), usual, "the usual order is the graph's");
            assertEquals(usual.size(), flipped.size(), "every system once: " + flipped);
            for (SystemGraph.Edge e : graph.edges()) {
                String from = graph.system(e.from()).name();
                String to = graph.system(e.to()).name();
                assertTrue(flipped.indexOf(from) < flipped.indexOf(to), "edge " + from + " -> " + to + " (" + e.label()
                        + ") kept in " + flipped + "\n" + graph.toText());
            }
            for (int p = 0; p < graph.phases().size(); p++) {
                for (int s = graph.phaseStart(p); s < graph.phaseEnd(p); s++) {
                    int at = flipped.indexOf(graph.system(s).name());
                    assertTrue(at >= graph.phaseStart(p) && at < graph.phaseEnd(p), "phase " + graph.phases().get(p)
                            + " keeps its systems: " + flipped);
                }
            }
            int pairs = TieOrderOverride.flippedPairs(schedule).size();
            for (List<String> pair : TieOrderOverride.flippedPairs(schedule)) {
                assertTrue(flipped.indexOf(pair.get(1)) < flipped.indexOf(pair.get(0)), pair + " in " + flipped);
                assertTrue(usual.indexOf(pair.get(0)) < usual.indexOf(pair.get(1)), pair + " in " + usual);
                List<String> one = runOrder(schedule, seen, () -> TieOrderOverride.flipOnly(pair.get(0), pair.get(1)));
                assertTrue(one.indexOf(pair.get(1)) < one.indexOf(pair.get(0)), pair + " flipped alone: " + one);
                for (SystemGraph.Edge e : graph.edges()) {
                    assertTrue(one.indexOf(graph.system(e.from()).name()) < one.indexOf(graph.system(e.to()).name()),
                            "edge " + e + " kept with only " + pair + " flipped: " + one);
                }
            }
            if (pairs > 0) {
                flippedSomething++;
                assertNotEquals(usual, flipped);
            } else {
                assertEquals(usual, flipped, "nothing unordered: the usual order");
            }
        }
        assertTrue(flippedSomething > 100, "most random schedules have unordered systems: " + flippedSomething);
    }

    @Test
    void shouldRefuseToFlipAnOrderedPair() {
        World world = new World();
        Component<A> a = world.component(A.class);
        Schedule schedule = Schedule.builder(world)
                .system("writer").query(world.query().with(a).build()).writes(a).forEachChunk(job -> { })
                .system("reader").query(world.query().with(a).build()).reads(a).forEachChunk(job -> { })
                .build();
        assertTrue(TieOrderOverride.flippedPairs(schedule).isEmpty(), "a conflict orders them");
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> executor(schedule, () -> TieOrderOverride.flipOnly("writer", "reader")));
        assertTrue(e.getMessage().contains("'writer' and 'reader'"), e.getMessage());
    }

    /** Two unordered systems that spawn through commands, two that write their own columns, change filters after them. */
    private static long correctGame(boolean flip) {
        World world = new World();
        Component<A> a = world.component(A.class);
        Component<B> bc = world.component(B.class);
        Component<C> c = world.component(C.class);
        Component<D> d = world.component(D.class);
        Field av = a.field("v");
        Field bv = bc.field("v");
        Field dv = d.field("v");
        for (int i = 0; i < 50; i++) {
            world.spawn(new A(i), new B(i), new D(0));
        }
        Schedule schedule = Schedule.builder(world)
                .system("spawnC").spawns(c).forEachRange(() -> 3, (job, from, to) -> {
                    for (int i = from; i < to; i++) {
                        long e = job.commands().spawn();
                        job.commands().add(e, c, new C(i));
                    }
                })
                .system("spawnMore").spawns(c).forEachRange(() -> 2, (job, from, to) -> {
                    for (int i = from; i < to; i++) {
                        long e = job.commands().spawn();
                        job.commands().add(e, c, new C(100 + i));
                    }
                })
                .system("bumpA").query(world.query().with(a).build()).writes(a).forEachChunk(job -> {
                    int[] x = job.chunk().writeInts(av);
                    for (int i = 0; i < job.chunk().size(); i++) {
                        x[i] += (i % 3 == 0 ? 1 : 0);
                    }
                })
                .system("bumpB").query(world.query().with(bc).build()).writes(bc).forEachChunk(job -> {
                    int[] x = job.chunk().writeInts(bv);
                    for (int i = 0; i < job.chunk().size(); i++) {
                        x[i] += 2;
                    }
                })
                .system("countChanged").query(world.query().with(a).with(d).build()).reads(a).writes(d)
                .forEachChunk(job -> {
                    int[] x = job.chunk().writeInts(dv);
                    for (int i = 0; i < job.chunk().size(); i++) {
                        x[i] += job.chunk().changed(a, i) ? 1 : 0;
                    }
                })
                .build();
        try (ScheduleExecutor executor = executor(schedule, flip ? TieOrderOverride::flip : () -> { })) {
            for (int t = 0; t < 5; t++) {
                executor.run();
            }
        }
        return world.stateHash();
    }

    @Test
    void shouldGiveACorrectGameTheSameStateFlipped() {
        assertEquals(correctGame(false), correctGame(true), "commands merge by position, change ticks by position");
    }
}
