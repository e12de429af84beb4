package dev.orrery.engine;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.orrery.ecs.Query;
import dev.orrery.ecs.World;
import dev.orrery.ecs.component.Component;
import dev.orrery.ecs.component.Field;
import dev.orrery.scheduler.RunCondition;
import dev.orrery.scheduler.SystemFailedException;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * A query with a {@code changed} filter iterated directly by user code that runs on the owner
 * thread during a scheduled run, outside an exclusive system (whose iteration is the system's:
 * {@link ExclusiveChangedQueryTest}), and between ticks.
 *
 * <p>Inside a phase the scheduler has planned each system's tick and sets the clock to the
 * tick of the system a sync point precedes: an observer hook fired by that sync point's
 * playback took that tick as its own, so the system's writes, stamped with the same tick after
 * the iteration, never passed the filter. On the old code the hook saw 0 of the 20 rows "hurt"
 * writes at ticks 3, 6 and 9, at the sync point before "hurt" and at the one after an exclusive
 * system placed just before it; at the phase's closing sync point it saw them (20 each). Such
 * an iteration is now refused at every sync point of a phase (a hook cannot tell which one
 * fires it), with a message naming where to iterate instead; those tests failed on the old code
 * (nothing was thrown). A run condition and a range count were already refused (the phase lock
 * refuses any direct iteration); their tests are guards. Between ticks the query keeps its own
 * ticks and sees exactly the writes since its previous iteration; its last iteration is not in
 * a snapshot, so a restored simulation's first iteration sees every chunk (documented in
 * docs/reacting-to-change.md).
 */
class ScheduledRunChangedQueryTest {
    /** A component set by command every tick, to fire an onSet observer hook at a sync point. */
    record Ping(int n) {
    }

    /** Where the changed-filter query is iterated. */
    enum Site {
        /** An onSet hook fired at the sync point before "hurt" (declared afterStructuralChanges). */
        HOOK_BEFORE_SYSTEM,
        /** An onSet hook fired at the sync point after exclusive "ping", just before "hurt". */
        HOOK_AFTER_EXCLUSIVE,
        /** An onSet hook fired at the phase's closing sync point, after "hurt". */
        HOOK_AT_PHASE_END,
        /** The run condition of "hurt" (declared afterStructuralChanges). */
        RUN_CONDITION,
        /** The count of a range system before "hurt". */
        RANGE_COUNT,
        /** Nowhere in the schedule: the test iterates it after each tick. */
        BETWEEN_TICKS
    }

    /** The workload and its look: the changed-filter query iterated at {@code site}. */
    static final class Workload {
        final Simulation sim;
        final Runnable look;

        Workload(Simulation sim, Runnable look) {
            this.sim = sim;
            this.look = look;
        }
    }

    /**
     * A chunk system "hurt" writes hp of the 20 TagA-only rows every third tick; the look at
     * {@code site} iterates {@code changed(hp)} directly, counts the rows and bumps their Seen.
     */
    static Workload workload(Site site, int workers, boolean populate, FeaturePairRuns.Log log) {
        World world = new World(1024);
        Component<FeaturePairsTest.Hp> hp = world.component(FeaturePairsTest.Hp.class);
        Component<FeaturePairsTest.Seen> seen = world.component(FeaturePairsTest.Seen.class);
        Component<FeaturePairsTest.TagA> a = world.component(FeaturePairsTest.TagA.class);
        Component<FeaturePairsTest.TagB> b = world.component(FeaturePairsTest.TagB.class);
        Component<FeaturePairsTest.TagC> c = world.component(FeaturePairsTest.TagC.class);
        Component<Ping> ping = world.component(Ping.class);
        if (populate) {
            FeaturePairsTest.populate(world, hp, seen, a, b, c);
            world.spawn(new Ping(0));
        }
        Field hpv = hp.field("hp");
        Field seenv = seen.field("count");
        Query changedHp = world.query().changed(hp).with(seen).build();
        Query pings = world.query().with(ping).build();
        SimulationBuilder builder = Simulation.builder(world).seed(3).workers(workers).hashEvery(1);
        var res = builder.resources();
        Runnable look = () -> {
            int[] rows = {0};
            changedHp.forEachChunk(v -> {
                int[] n = v.writeInts(seenv);
                for (int i = 0; i < v.size(); i++) {
                    n[i]++;
                }
                rows[0] += v.size();
            });
            log.add("tick " + res.get(Simulation.CLOCK).tick() + ": " + site + " saw " + rows[0] + " changed rows");
        };
        if (site.name().startsWith("HOOK")) {
            world.observe(ping).onSet((w, e, commands) -> look.run());
        }
        Simulation sim = builder.systems(s -> {
            if (site == Site.HOOK_AFTER_EXCLUSIVE) {
                s.system("ping").readsResource(Simulation.CLOCK).exclusive((w, job) ->
                        pings.forEachChunk(v -> job.commands().set(v.entity(0), ping,
                                new Ping((int) job.resource(Simulation.CLOCK).tick()))));
            } else if (site == Site.HOOK_BEFORE_SYSTEM || site == Site.HOOK_AT_PHASE_END) {
                var p = s.system("ping").query(pings).readsResource(Simulation.CLOCK).setsLater(ping);
                if (site == Site.HOOK_AT_PHASE_END) {
                    p.after("hurt");
                }
                p.forEachChunk(job -> job.commands().set(job.chunk().entity(0), ping,
                        new Ping((int) job.resource(Simulation.CLOCK).tick())));
            } else if (site == Site.RANGE_COUNT) {
                s.system("count").forEachRange(() -> {
                    look.run();
                    return 1;
                }, (job, from, to) -> { });
            }
            var hurt = s.system("hurt").query(world.query().with(hp, a).without(b).build()).writes(hp)
                    .readsResource(Simulation.CLOCK);
            if (site == Site.HOOK_BEFORE_SYSTEM || site == Site.HOOK_AFTER_EXCLUSIVE || site == Site.RANGE_COUNT) {
                hurt.after(site == Site.RANGE_COUNT ? "count" : "ping");
            }
            if (site == Site.HOOK_BEFORE_SYSTEM || site == Site.RUN_CONDITION) {
                hurt.afterStructuralChanges();
            }
            if (site == Site.RUN_CONDITION) {
                hurt.runIf(RunCondition.of("looks", r -> {
                    look.run();
                    return true;
                }));
            }
            hurt.forEachChunk(job -> {
                if (job.resource(Simulation.CLOCK).tick() % 3 == 0) {
                    int[] h = job.chunk().writeInts(hpv);
                    for (int i = 0; i < job.chunk().size(); i++) {
                        h[i]--;
                    }
                }
            });
        }).build();
        return new Workload(sim, look);
    }

    /** Each message of {@code t} and its causes, joined. */
    private static String messages(Throwable t) {
        StringBuilder sb = new StringBuilder();
        for (Throwable x = t; x != null; x = x.getCause()) {
            sb.append(x.getMessage()).append(" | ");
        }
        return sb.toString();
    }

    /** Runs the workload at {@code site} and expects its first look refused with a message holding {@code says}. */
    private static void assertRefused(Site site, String says) {
        FeaturePairRuns.Log log = new FeaturePairRuns.Log();
        Workload w = workload(site, 1, true, log);
        try (Simulation sim = w.sim) {
            SystemFailedException e = assertThrows(SystemFailedException.class, () -> sim.run(10, 0));
            String m = messages(e);
            assertTrue(m.contains("query with [Hp, Seen]") && m.contains(says) && m.contains("in an exclusive system"), m);
            assertEquals(List.of(), log.from(0), "nothing was seen before the refusal");
        }
    }

    private static void assertRefused(Site site) {
        assertRefused(site, "has a change filter and was iterated directly during phase Update");
    }

    @Test
    void shouldRefuseAChangedIterationInAHookAtTheSyncPointBeforeASystem() {
        assertRefused(Site.HOOK_BEFORE_SYSTEM);
    }

    @Test
    void shouldRefuseAChangedIterationInAHookAtTheSyncPointAfterAnExclusiveSystem() {
        assertRefused(Site.HOOK_AFTER_EXCLUSIVE);
    }

    @Test
    void shouldRefuseAChangedIterationInAHookAtThePhaseEnd() {
        assertRefused(Site.HOOK_AT_PHASE_END);
    }

    /**
     * Already refused before (by the guard of iterations while scheduled jobs run): kept as a guard.
     * The refusal now names the run condition and a condition's fix, not a job's.
     */
    @Test
    void shouldRefuseAChangedIterationInARunCondition() {
        assertRefused(Site.RUN_CONDITION, "iterated inside the run condition of system 'hurt'");
    }

    /** Already refused before (by the guard of iterations while scheduled jobs run): kept as a guard. */
    @Test
    void shouldRefuseAChangedIterationInARangeCount() {
        assertRefused(Site.RANGE_COUNT, "iterated while scheduled jobs run");
    }

    /** The same query iterated without its change filter there is allowed, as before. */
    @Test
    void shouldStillIterateAQueryWithoutAChangeFilterInAHook() {
        World world = new World(1024);
        Component<FeaturePairsTest.Hp> hp = world.component(FeaturePairsTest.Hp.class);
        Component<Ping> ping = world.component(Ping.class);
        world.spawn(new FeaturePairsTest.Hp(1));
        world.spawn(new Ping(0));
        Query all = world.query().with(hp).build();
        Query pings = world.query().with(ping).build();
        int[] rows = {0};
        world.observe(ping).onSet((w, e, commands) -> all.forEachChunk(v -> rows[0] += v.size()));
        try (Simulation sim = Simulation.builder(world).systems(s -> s
                .system("ping").query(pings).setsLater(ping).forEachChunk(job ->
                        job.commands().set(job.chunk().entity(0), ping, new Ping(1))))
                .build()) {
            sim.run(3, 0);
        }
        assertEquals(3, rows[0], "one row a tick, through the hook at each tick's closing sync point");
    }

    /** Between ticks the query sees exactly what was written since its previous iteration. */
    @Test
    void shouldSeeEveryWriteSinceItsPreviousIterationBetweenTicks() {
        FeaturePairRuns.Log log = new FeaturePairRuns.Log();
        Workload w = workload(Site.BETWEEN_TICKS, 1, true, log);
        try (Simulation sim = w.sim) {
            w.look.run(); // the first sees every chunk
            for (int t = 0; t < 10; t++) {
                sim.tick();
                w.look.run();
            }
        }
        List<String> expected = new ArrayList<>();
        expected.add("tick 0: BETWEEN_TICKS saw 80 changed rows");
        for (int t = 0; t < 10; t++) {
            expected.add("tick " + t + ": BETWEEN_TICKS saw " + (t % 3 == 0 ? 20 : 0) + " changed rows");
        }
        assertEquals(expected, log.from(0));
    }

    /**
     * What docs/reacting-to-change.md says of a restore: the query's last iteration is its own
     * (not in the snapshot), so a restored simulation's first iteration sees every chunk, as a
     * new query's first does; from the second on it sees what the uninterrupted run sees. Its
     * writes (here Seen) make the state differ: the documented reason to iterate in an exclusive
     * system when they must survive a restore.
     */
    @Test
    void shouldSeeEveryChunkOnTheFirstIterationAfterARestoreBetweenTicks() {
        FeaturePairRuns.Log refLog = new FeaturePairRuns.Log();
        Workload ref = workload(Site.BETWEEN_TICKS, 1, true, refLog);
        byte[] atFour;
        List<String> refSeen;
        long refHash;
        try (Simulation sim = ref.sim) {
            ref.look.run();
            for (int t = 0; t < 4; t++) {
                sim.tick();
                ref.look.run();
            }
            atFour = sim.snapshot();
            int mark = refLog.size();
            for (int t = 4; t < 8; t++) {
                sim.tick();
                ref.look.run();
            }
            refSeen = refLog.from(mark);
            refHash = sim.world().stateHash();
        }
        FeaturePairRuns.Log log = new FeaturePairRuns.Log();
        Workload restored = workload(Site.BETWEEN_TICKS, 1, false, log);
        try (Simulation sim = restored.sim) {
            sim.restore(atFour);
            for (int t = 4; t < 8; t++) {
                sim.tick();
                restored.look.run();
            }
            List<String> seen = log.from(0);
            assertEquals("tick 4: BETWEEN_TICKS saw 80 changed rows", seen.get(0));
            assertEquals("tick 4: BETWEEN_TICKS saw 0 changed rows", refSeen.get(0));
            assertEquals(refSeen.subList(1, 4), seen.subList(1, 4), "from the second iteration on");
            assertNotEquals(refHash, sim.world().stateHash(), "the first iteration's writes reached 80 rows, not 0");
        }
    }
}
