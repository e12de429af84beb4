package dev.orrery.examples.newcomer.harbor;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.orrery.ecs.Query;
import dev.orrery.ecs.World;
import dev.orrery.engine.InputPipeline;
import dev.orrery.engine.RunRecorder;
import dev.orrery.engine.RunReplayer;
import dev.orrery.engine.Simulation;
import dev.orrery.examples.newcomer.harbor.HarborGame.Handles;
import dev.orrery.examples.newcomer.harbor.HarborGame.Ledger;
import dev.orrery.examples.newcomer.harbor.HarborGame.Quay;
import dev.orrery.scheduler.Phase;
import dev.orrery.testkit.DeterminismCheck;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The harbour of {@link HarborGame}, checked as the book says a game is checked: the test kit
 * on 1, 2 and 4 workers with the harbour master's inputs; the counts a run must give; a
 * snapshot taken mid-run restored into a fresh simulation on another worker count, with a
 * read-only delta sender's change filter compared tick by tick; and a recording on 4 workers
 * replayed on 1, from its start and from a snapshot taken while it recorded.
 */
class HarborTest {
    static final int TICKS = 120;

    @Test
    void theKitFindsTheHarbourDeterministicOnOneTwoAndFourWorkers() {
        List<String> runs = DeterminismCheck.of(new HarborGame()).ticks(TICKS).workers(1, 2, 4)
                .inputs(HarborGame.MASTER).run();
        assertTrue(runs.size() >= 3, runs.toString());
    }

    /** Ticks {@code sim} from its current tick to {@code until}, feeding the master's inputs. */
    static void tickTo(Simulation sim, InputPipeline inputs, long until) {
        while (sim.currentTick() < until) {
            long tick = sim.currentTick();
            HarborGame.MASTER.inputs(tick, (client, type, payload) -> {
                if (!inputs.tryPublish(client, type, payload, 0, payload.length)) {
                    throw new IllegalStateException("the input ring is full at tick " + tick);
                }
            });
            sim.tick();
        }
    }

    @Test
    void aRunBerthsLoadsAndSendsOffShipsAsTheRulesSay() {
        HarborGame game = new HarborGame();
        try (Simulation sim = game.create(2, true); InputPipeline inputs = InputPipeline.builder().build()) {
            sim.inputs(inputs);
            tickTo(sim, inputs, TICKS);
            World w = sim.world();
            Handles h = HarborGame.handles(w);                    // same registrations: same handles
            int[] ships = {0}, docked = {0}, manifests = {0}, served = {0}, arrivals = {0};
            long[] aboard = {0};
            w.query().with(h.hull).build().forEachReadOnly((view, row) -> ships[0]++);
            w.query().with(h.manifest).build().forEachReadOnly((view, row) -> manifests[0]++);
            w.query().with(h.hull, h.dockedAt.column()).build().forEachReadOnly((view, row) -> {
                long e = view.entity(row);
                docked[0]++;
                aboard[0] += w.get(e, h.hold).tons() + w.get(e, h.deck).tons();
            });
            w.query().with(h.quay).build().forEachReadOnly((view, row) -> {
                Quay q = w.get(view.entity(row), h.quay);
                served[0] += q.served();
                arrivals[0] += q.docked();
            });
            // 40 ships came (one every third tick); every ship that left wrote one manifest.
            assertEquals(40, ships[0] + manifests[0], "ships in the harbour plus ships gone");
            assertEquals(served[0], manifests[0], "each departure counted at its berth");
            assertTrue(manifests[0] > 0, "some ships left");
            // The observer on DockedAt's marker counted every docking: the ships gone and those at a berth.
            assertEquals(served[0] + docked[0], arrivals[0], "dockings seen by the observer");
            // The tide: 120 ticks of 7 units are 84 steps of 10; it turns every sixth step.
            HarborGame.Tide tide = sim.resources().get(HarborGame.TIDE);
            assertEquals(84, tide.steps);
            assertEquals(14, tide.turns);
            Ledger ledger = sim.resources().get(HarborGame.LEDGER);
            assertEquals(14, ledger.turnsSeen, "every turn's event reached the ledger");
            assertEquals(0, ledger.missedReads);
            // Every ton loaded was an event: those aboard now, and each departed ship's full hull.
            long[] holdsGone = {0};
            w.query().with(h.manifest).build().forEachReadOnly((view, row) ->
                    holdsGone[0] += w.get(view.entity(row), h.manifest).tons());
            assertEquals(aboard[0] + 2 * holdsGone[0], ledger.tons, "tons loaded: " + ledger);
            // Tariffs: ticks 3, 10, ..., 115; those at 24, 52, 80 and 108 are out of range.
            long harbour = sim.resources().get(HarborGame.PORT).harbour;
            assertEquals(25, w.getProperty(harbour, "Harbour", "tariff"));
            assertEquals(4, w.getProperty(harbour, "Harbour", "rejected"));
            assertEquals(40, w.getProperty(harbour, "Harbour", "hailed"), "every ship's Awaits pair, added on its provisional handle");
            assertTrue(sim.resources().get(HarborGame.INSPECTED).total() > 0);
        }
    }

    @Test
    void aSnapshotMidRunGoesOnAsTheRunDidWithObserversAndChangeFilters() {
        HarborGame game = new HarborGame();
        long[] hashes = new long[TICKS];
        int[] deltas = new int[TICKS];
        byte[] snapshot;
        Ledger expected;
        long inspected;
        long welcomed;
        String surveyed;
        try (Simulation sim = game.create(2, true); InputPipeline inputs = InputPipeline.builder().build()) {
            sim.inputs(inputs);
            Query delta = deltaQuery(sim.world());
            snapshot = null;
            for (long t = 0; t < TICKS; t++) {
                if (t == 60) snapshot = sim.snapshot();
                tickTo(sim, inputs, t + 1);
                hashes[(int) t] = sim.world().stateHash();
                deltas[(int) t] = rows(delta);
            }
            expected = sim.resources().get(HarborGame.LEDGER);
            inspected = sim.resources().get(HarborGame.INSPECTED).total();
            welcomed = sim.resources().get(HarborGame.WELCOMED).total();
            assertTrue(welcomed > 0);
            HarborGame.Survey survey = sim.resources().get(HarborGame.SURVEY);
            surveyed = survey.chunks + "/" + survey.rows;
            assertTrue(survey.rows > 0);
        }
        try (Simulation restored = game.create(4, false); InputPipeline inputs = InputPipeline.builder().build()) {
            restored.restore(snapshot);
            restored.inputs(inputs);
            assertEquals(60, restored.currentTick());
            Query delta = deltaQuery(restored.world());
            long[] after = new long[TICKS];
            int[] afterDeltas = new int[TICKS];
            for (long t = 60; t < TICKS; t++) {
                tickTo(restored, inputs, t + 1);
                after[(int) t] = restored.world().stateHash();
                afterDeltas[(int) t] = rows(delta);
            }
            for (int t = 60; t < TICKS; t++) {
                assertEquals(hashes[t], after[t], "state hash at tick " + t);
            }
            // The delta sender's first iteration after the restore sees every chunk; from the
            // second on it sees what the uninterrupted run saw.
            assertTrue(afterDeltas[60] >= deltas[60]);
            for (int t = 61; t < TICKS; t++) {
                assertEquals(deltas[t], afterDeltas[t], "changed Hold rows seen between ticks after tick " + t);
            }
            assertEquals(expected.toString(), restored.resources().get(HarborGame.LEDGER).toString());
            assertEquals(inspected, restored.resources().get(HarborGame.INSPECTED).total());
            assertEquals(welcomed, restored.resources().get(HarborGame.WELCOMED).total(), "added(DockedAt) after the restore");
            HarborGame.Survey survey = restored.resources().get(HarborGame.SURVEY);
            assertEquals(surveyed, survey.chunks + "/" + survey.rows, "the surveyor's change filter after the restore");
        }
    }

    /**
     * A ledger that reads the loads in the next tick's PreUpdate has the last tick's events
     * unread at every snapshot. The events are records of primitives, so the snapshot carries
     * them and the readers' positions with no codec registered (the book said they were kept
     * only with {@code SimulationBuilder.events(key, codec)}).
     */
    @Test
    void loadsStillUnreadAtTheSnapshotReachTheRestoredLedgerWithNoCodec() {
        HarborGame late = new HarborGame();
        late.ledgerPhase = Phase.PRE_UPDATE;
        byte[] snapshot = null;
        int unread = 0;
        String original;
        try (Simulation sim = late.create(2, true)) {
            for (int t = 0; t < 60; t++) {
                if (t == 40) {
                    snapshot = sim.snapshot();
                    unread = sim.resources().get(HarborGame.LEDGER).loads;
                }
                sim.tick();
                if (t == 40) unread = sim.resources().get(HarborGame.LEDGER).loads - unread;
            }
            original = sim.resources().get(HarborGame.LEDGER).toString();
        }
        assertTrue(unread > 0, "tick 39 loaded ships, read only at tick 40");
        try (Simulation restored = late.create(1, false)) {
            restored.restore(snapshot);
            while (restored.currentTick() < 60) restored.tick();
            assertEquals(original, restored.resources().get(HarborGame.LEDGER).toString());
        }
    }

    static Query deltaQuery(World world) {
        return world.query().with(world.component(HarborGame.Cargo.class, "Hold"))
                .changed(world.component(HarborGame.Cargo.class, "Hold")).build();
    }

    static int rows(Query q) {
        int[] n = {0};
        q.forEachChunkReadOnly(c -> n[0] += c.size());
        return n[0];
    }

    @Test
    void aRecordingOnFourWorkersReplaysOnOneFromItsStartAndFromAMidRunSnapshot(@TempDir Path dir) throws Exception {
        HarborGame game = new HarborGame();
        Path run = dir.resolve("run");
        long recorded;
        String ledger;
        byte[] atTick40;
        try (Simulation sim = game.create(4, true);
             RunRecorder recorder = RunRecorder.start(sim, run, InputPipeline.builder())) {
            tickTo(sim, recorder.inputs(), 40);
            atTick40 = sim.snapshot();
            tickTo(sim, recorder.inputs(), TICKS);
            recorded = sim.world().stateHash();
            ledger = sim.resources().get(HarborGame.LEDGER).toString();
        }
        try (Simulation fresh = game.create(1, false)) {
            RunReplayer.Result result = RunReplayer.replay(run, fresh);
            assertEquals(recorded, result.finalHash());
            assertEquals(TICKS, result.ticks());
            assertTrue(result.closedCleanly());
            assertEquals(ledger, fresh.resources().get(HarborGame.LEDGER).toString(), "events from the tide's sub-steps, replayed");
        }
        try (Simulation fresh = game.create(1, false)) {
            RunReplayer.Result result = RunReplayer.replay(run, atTick40, fresh);
            assertEquals(recorded, result.finalHash());
            assertEquals(recorded, fresh.world().stateHash());
            assertEquals(ledger, fresh.resources().get(HarborGame.LEDGER).toString());
        }
    }
}
