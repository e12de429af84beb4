package dev.orrery.examples.newcomer.fleet;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.orrery.ecs.Relations;
import dev.orrery.ecs.World;
import dev.orrery.engine.InputPipeline;
import dev.orrery.engine.RunRecorder;
import dev.orrery.engine.RunReplayer;
import dev.orrery.engine.Simulation;
import dev.orrery.examples.newcomer.fleet.FleetGame.Census;
import dev.orrery.examples.newcomer.fleet.FleetGame.Handles;
import dev.orrery.testkit.DeterminismCheck;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@link FleetGame}, checked as the book says: the kit on 1, 2 and 4 workers; the counts and
 * positions a run must give; a snapshot restored on another worker count going on with the
 * same state hashes; a recording on 4 workers replayed on 1.
 */
class FleetTest {
    static final int TICKS = 90;

    @Test
    void theKitFindsTheFleetDeterministicOnOneTwoAndFourWorkers() {
        List<String> runs = DeterminismCheck.of(new FleetGame()).ticks(TICKS).workers(1, 2, 4).run();
        assertTrue(runs.size() >= 3, runs.toString());
    }

    static long[] hashes(Simulation sim, int from, int to) {
        long[] out = new long[to];
        for (int t = from; t < to; t++) {
            sim.tick();
            out[t] = sim.world().stateHash();
        }
        return out;
    }

    @Test
    void theSameTicksGiveTheSameHashOnOneTwoAndFourWorkers() {
        long[][] runs = new long[3][];
        int k = 0;
        for (int workers : new int[] {1, 2, 4}) {
            try (Simulation sim = new FleetGame().create(workers, true)) {
                runs[k++] = hashes(sim, 0, TICKS);
            }
        }
        assertArrayEquals(runs[0], runs[1]);
        assertArrayEquals(runs[0], runs[2]);
    }

    @Test
    void aRunLaunchesScrapsAndPropagatesAsTheRulesSay() {
        try (Simulation sim = new FleetGame().create(2, true)) {
            for (int t = 0; t < TICKS; t++) sim.tick();
            World w = sim.world();
            Handles h = FleetGame.handles(w);
            Relations rel = w.relations();
            assertSame(h.escorts, rel.byName("Escorts"), "registering again with the same traits: the same relation");
            long[] row = {-1};
            w.query().with(h.census).build().forEachReadOnly((v, r) -> row[0] = v.entity(r));
            Census census = w.get(row[0], h.census);
            int[] carriers = {0}, drones = {0}, buoys = {0}, children = {0};
            w.query().with(h.hull).build().forEachReadOnly((v, r) -> {
                carriers[0]++;
                children[0] += rel.children(v.entity(r)).length;
            });
            w.query().with(h.local, h.childOf.column()).build().forEachReadOnly((v, r) -> {
                drones[0]++;
                long e = v.entity(r);
                long parent = rel.parent(e);
                assertEquals(w.get(parent, h.global).x() + w.get(e, h.local).x(), w.get(e, h.global).x(), 1e-6,
                        "the level system put drone " + e + " at its carrier's place plus its own");
                assertEquals(parent, w.getProperty(e, "ChildOf", "target"), "the marker read by property name");
            });
            w.query().with(h.local, h.tethered.column()).build().forEachReadOnly((v, r) -> {
                buoys[0]++;
                assertTrue(w.has(rel.target(v.entity(r), h.tethered), h.childOf.column()), "a buoy's drone is alive");
            });
            // Carriers 1..3 (fuel 25, 40, 55) are scrapped at ticks 24, 39 and 54; the yard's, built
            // at 24, 49 and 74 with fuel 30, go at 54 and 79; the flagship and the one of tick 74 remain.
            assertEquals(2, carriers[0], "the flagship and the carrier built at tick 74");
            assertEquals(children[0], drones[0], "every drone is its carrier's child");
            assertEquals(drones[0], census.drones());
            assertEquals(buoys[0], census.buoys());
            long launched = sim.resources().get(FleetGame.LAUNCHED).total();
            assertEquals(launched, drones[0] + census.lost(), "every drone launched is alive or was lost with its carrier");
            assertEquals(45 - 6, census.flagshipCrew(), "the flagship launched every other tick from tick 0; "
                    + "those of offset 7 (ticks 6, 20, 34, 48, 62, 76) were recycled");
            int[] scraps = {0};
            w.query().with(h.scrap).build().forEachReadOnly((v, r) -> {
                scraps[0]++;
                float at = w.get(v.entity(r), h.scrap).x() - 7;     // a carrier's place: 0, 100, 200, 300, 24, 49, 74
                assertTrue(java.util.List.of(0f, 100f, 200f, 300f, 24f, 49f, 74f).contains(at), "scrap at " + at);
            });
            assertTrue(scraps[0] >= 6, "the flagship's six and the other carriers': " + scraps[0]);
            w.query().with(h.local, h.childOf.column()).build().forEachReadOnly((v, r) ->
                    assertTrue(w.get(v.entity(r), h.local).x() != 7f, "no drone of offset 7 is left"));
            assertEquals(2, census.levels(), "carriers, then drones");
            assertEquals(drones[0] + carriers[0], census.slots(), "every carrier has drones at the census");
            assertEquals(3 * 2, census.escorted(), "three escorts, two carriers each");
        }
    }

    @Test
    void aSnapshotRestoredOnFourWorkersGoesOnWithTheSameHashes() {
        FleetGame game = new FleetGame();
        long[] hashes;
        byte[] snapshot;
        try (Simulation sim = game.create(1, true)) {
            hashes = hashes(sim, 0, 44);
            snapshot = sim.snapshot();
            long[] rest = hashes(sim, 44, TICKS);
            System.arraycopy(rest, 44, hashes = java.util.Arrays.copyOf(hashes, TICKS), 44, TICKS - 44);
        }
        try (Simulation restored = game.create(4, false)) {
            restored.restore(snapshot);
            long[] after = hashes(restored, 44, TICKS);
            for (int t = 44; t < TICKS; t++) assertEquals(hashes[t], after[t], "state hash at tick " + t);
        }
    }

    @Test
    void aRecordingOnFourWorkersReplaysOnOne(@TempDir Path dir) throws Exception {
        FleetGame game = new FleetGame();
        Path run = dir.resolve("run");
        long recorded;
        try (Simulation sim = game.create(4, true);
             RunRecorder recorder = RunRecorder.start(sim, run, InputPipeline.builder())) {
            for (int t = 0; t < TICKS; t++) sim.tick();
            recorded = sim.world().stateHash();
        }
        try (Simulation fresh = game.create(1, false)) {
            RunReplayer.Result result = RunReplayer.replay(run, fresh);
            assertEquals(TICKS, result.ticks());
            assertEquals(recorded, result.finalHash());
        }
    }

    @Test
    void childOrderIsStateTheHashCovers() {
        long[] hash = new long[2];
        for (int k = 0; k < 2; k++) {
            World w = new World();
            Handles h = FleetGame.handles(w);
            long parent = w.spawn(h.carrier), a = w.spawn(h.drone), b = w.spawn(h.drone);
            w.relations().add(k == 0 ? a : b, h.childOf, parent);
            w.relations().add(k == 0 ? b : a, h.childOf, parent);
            assertArrayEquals(k == 0 ? new long[] {a, b} : new long[] {b, a}, w.relations().children(parent));
            hash[k] = w.stateHash();
        }
        assertNotEquals(hash[0], hash[1]);
    }
}
