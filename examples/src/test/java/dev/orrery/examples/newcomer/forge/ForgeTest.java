package dev.orrery.examples.newcomer.forge;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.orrery.ecs.Query;
import dev.orrery.ecs.World;
import dev.orrery.engine.InputPipeline;
import dev.orrery.engine.RunRecorder;
import dev.orrery.engine.RunReplayer;
import dev.orrery.engine.Simulation;
import dev.orrery.examples.newcomer.forge.ForgeGame.Glowing;
import dev.orrery.examples.newcomer.forge.ForgeGame.Ingot;
import dev.orrery.examples.newcomer.forge.ForgeGame.Slag;
import dev.orrery.testkit.DeterminismCheck;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The forge of {@link ForgeGame}, built from the change chapter and checked as it says:
 * the same state hashes and the same observer calls on 1, 2 and 4 workers; the counts the
 * chapter's rules give (every removal swept once, one slag per crack holding its heat); a
 * snapshot restored on another worker count going on as the run did, with no hook fired by
 * the restore and a between-ticks change filter that sees everything once; a recording on 4
 * workers replayed on 1.
 */
class ForgeTest {
    static final int TICKS = 91;          // the last tick, 90, is a sweeper's tick

    static void tickTo(Simulation sim, InputPipeline inputs, long until) {
        while (sim.currentTick() < until) {
            long tick = sim.currentTick();
            ForgeGame.SMITH.inputs(tick, (client, type, payload) -> {
                if (!inputs.tryPublish(client, type, payload, 0, payload.length)) {
                    throw new IllegalStateException("the input ring is full at tick " + tick);
                }
            });
            sim.tick();
        }
    }

    @Test
    void theKitFindsTheForgeDeterministicOnOneTwoAndFourWorkers() {
        List<String> runs = DeterminismCheck.of(new ForgeGame()).ticks(TICKS).workers(1, 2, 4)
                .inputs(ForgeGame.SMITH).run();
        assertTrue(runs.size() >= 3, runs.toString());
    }

    /** Per-tick hashes and the hook counts of a run on {@code workers}. */
    static String run(int workers, long[] hashes) {
        ForgeGame game = new ForgeGame();
        try (Simulation sim = game.create(workers, true); InputPipeline inputs = InputPipeline.builder().build()) {
            sim.inputs(inputs);
            for (int t = 0; t < TICKS; t++) {
                tickTo(sim, inputs, t + 1);
                hashes[t] = sim.world().stateHash();
            }
            return game.hooks + " census=" + sim.resources().get(ForgeGame.CENSUS).total()
                    + " arrived=" + sim.resources().get(ForgeGame.ARRIVED).total();
        }
    }

    @Test
    void oneTwoAndFourWorkersGiveTheSameHashesAndTheSameObserverCalls() {
        long[] one = new long[TICKS], two = new long[TICKS], four = new long[TICKS];
        String a = run(1, one), b = run(2, two), c = run(4, four);
        assertArrayEquals(one, two);
        assertArrayEquals(one, four);
        assertEquals(a, b);
        assertEquals(a, c);
    }

    @Test
    void theChaptersRulesGiveTheCounts() {
        ForgeGame game = new ForgeGame();
        try (Simulation sim = game.create(2, true); InputPipeline inputs = InputPipeline.builder().build()) {
            sim.inputs(inputs);
            tickTo(sim, inputs, TICKS);
            World w = sim.world();
            ForgeGame.Hooks h = game.hooks;
            int slags = w.query().with(w.component(Slag.class)).build().count();
            int glowing = w.query().with(w.component(Glowing.class)).build().count();
            int ingots = w.query().with(w.component(Ingot.class)).build().count();
            long[] slagHeat = {0};
            w.query().with(w.component(Slag.class)).build().forEachReadOnly((view, row) ->
                    slagHeat[0] += w.get(view.entity(row), w.component(Slag.class)).heat());
            assertTrue(h.cracked > 0 && h.lit > 0 && h.putOut > 0, h.toString());
            assertEquals(h.cracked, slags, "one slag per crack: the onRemove hook's spawn, applied after its round");
            assertEquals(h.slagHeat, slagHeat[0], "each slag holds the value the ingot held when it left");
            assertTrue(slagHeat[0] >= 70L * slags, "an ingot cracks at 70 or more");
            assertEquals(h.lit - h.putOut, glowing, "onRemove fires for a glowing ingot that cracked too");
            assertEquals(3000 + 6 * 23 - h.cracked, ingots, "23 refills of 6 (ticks 0, 4, ..., 88)");
            // The sweeper runs every third tick, so it sees every removal once and misses none.
            assertEquals(0, sim.resources().get(ForgeGame.MISSED).total());
            assertEquals(h.cracked, sim.resources().get(ForgeGame.SWEPT).total(), "removals swept");
            assertTrue(sim.resources().get(ForgeGame.ARRIVED).total() >= 6 * 23, "added(Ingot) saw the refills");
        }
    }

    static int rows(Query q) {
        int[] n = {0};
        q.forEachChunkReadOnly(c -> n[0] += c.size());
        return n[0];
    }

    /** Rows of chunks a direct (not read-only) iteration visits: it takes a tick of the change clock. */
    static int directRows(Query q) {
        int[] n = {0};
        q.forEachChunk(c -> n[0] += c.size());
        return n[0];
    }

    static Query glowDelta(World w) {
        return w.query().with(w.component(Glowing.class)).changed(w.component(Ingot.class)).build();
    }

    static Query delta(World w) {
        return w.query().with(w.component(Ingot.class)).changed(w.component(Ingot.class)).build();
    }

    @Test
    void aSnapshotRestoredOnAnotherWorkerCountGoesOnAsTheRunDidAndFiresNoHook() {
        long[] hashes = new long[TICKS];
        int[] deltas = new int[TICKS];
        int[] directs = new int[TICKS];
        byte[] snapshot = null;
        String atSnapshot = null;
        ForgeGame.Hooks end;
        int[] hooksAt40 = new int[3];
        String resources;
        ForgeGame game = new ForgeGame();
        try (Simulation sim = game.create(2, true); InputPipeline inputs = InputPipeline.builder().build()) {
            sim.inputs(inputs);
            Query delta = delta(sim.world());
            Query direct = glowDelta(sim.world());
            for (int t = 0; t < TICKS; t++) {
                if (t == 40) {
                    snapshot = sim.snapshot();
                    hooksAt40 = new int[] {game.hooks.lit, game.hooks.putOut, game.hooks.cracked};
                }
                tickTo(sim, inputs, t + 1);
                hashes[t] = sim.world().stateHash();
                deltas[t] = rows(delta);
                directs[t] = directRows(direct);
            }
            end = game.hooks;
            resources = resources(sim);
        }
        for (int workers : new int[] {1, 4}) {
            ForgeGame again = new ForgeGame();
            try (Simulation restored = again.create(workers, false); InputPipeline inputs = InputPipeline.builder().build()) {
                restored.restore(snapshot);
                assertEquals("lit=0 putOut=0 cracked=0 slagHeat=0", again.hooks.toString(), "a restore fires no hook");
                restored.inputs(inputs);
                Query delta = delta(restored.world());
                Query direct = glowDelta(restored.world());
                for (int t = 40; t < TICKS; t++) {
                    tickTo(restored, inputs, t + 1);
                    assertEquals(hashes[t], restored.world().stateHash(), "hash at tick " + t + " on " + workers);
                    int seen = rows(delta);
                    int seenDirect = directRows(direct);
                    if (t > 40) {
                        assertEquals(directs[t], seenDirect, "a direct between-ticks iteration after tick " + t);
                    }
                    if (t == 40) {
                        assertEquals(restored.world().query().with(restored.world().component(Ingot.class)).build()
                                .count(), seen, "the delta sender's first iteration after a restore sees every chunk");
                    } else {
                        assertEquals(deltas[t], seen, "changed rows between ticks after tick " + t);
                    }
                }
                assertEquals(end.lit - hooksAt40[0], again.hooks.lit, "onAdd(Glowing) calls after the restore");
                assertEquals(end.putOut - hooksAt40[1], again.hooks.putOut, "onRemove(Glowing) calls after the restore");
                assertEquals(end.cracked - hooksAt40[2], again.hooks.cracked, "onRemove(Ingot) calls after the restore");
                assertEquals(resources, resources(restored), "change filters, removal log and census after the restore");
            }
        }
    }

    static String resources(Simulation sim) {
        return "swept=" + sim.resources().get(ForgeGame.SWEPT).total()
                + " missed=" + sim.resources().get(ForgeGame.MISSED).total()
                + " arrived=" + sim.resources().get(ForgeGame.ARRIVED).total()
                + " census=" + sim.resources().get(ForgeGame.CENSUS).total()
                + " fuel=" + sim.resources().get(ForgeGame.FURNACE).fuel;
    }

    @Test
    void aRecordingOnFourWorkersReplaysOnOneWithTheSameHooks(@TempDir Path dir) throws Exception {
        ForgeGame game = new ForgeGame();
        Path run = dir.resolve("run");
        long recorded;
        String hooks, resources;
        try (Simulation sim = game.create(4, true);
             RunRecorder recorder = RunRecorder.start(sim, run, InputPipeline.builder())) {
            tickTo(sim, recorder.inputs(), TICKS);
            recorded = sim.world().stateHash();
            hooks = game.hooks.toString();
            resources = resources(sim);
        }
        ForgeGame replay = new ForgeGame();
        try (Simulation fresh = replay.create(1, false)) {
            RunReplayer.Result result = RunReplayer.replay(run, fresh);
            assertEquals(recorded, result.finalHash());
            assertEquals(TICKS, result.ticks());
            assertEquals(hooks, replay.hooks.toString(), "the replay's hooks fire as the recording's did");
            assertEquals(resources, resources(fresh));
        }
    }
}
