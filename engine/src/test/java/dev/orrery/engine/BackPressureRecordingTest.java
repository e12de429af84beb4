package dev.orrery.engine;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.orrery.ecs.World;
import dev.orrery.ecs.component.Component;
import dev.orrery.scheduler.Phase;
import dev.orrery.scheduler.Resources;
import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * InputPipeline back-pressure x RunRecorder: with a ring of 4, each round publishes six inputs
 * with a timeout and no tick between them; the first four wait for room (the journal frees the
 * ring) and are taken, the last two are refused when their timeout ends. The journal holds
 * exactly the taken inputs, in order and none of the refused, the pipeline counts the refused
 * ones, and the recording replays to the live hash.
 */
class BackPressureRecordingTest {
    record Val(int v) {
    }

    private static Simulation sim() {
        World world = new World();
        Component<Val> val = world.component(Val.class);
        SimulationBuilder b = Simulation.builder(world).seed(3).hashEvery(1);
        Resources res = b.resources();
        return b.systems(s -> s.system("inputs").inPhase(Phase.PRE_UPDATE).exclusive(w -> {
            InputBatch in = res.get(Simulation.INPUTS);
            for (int i = 0; i < in.size(); i++) {
                w.spawn(new Val(in.payloadInt(i, 0)));
            }
        })).build();
    }

    @Test
    void shouldJournalTheTakenInputsOnlyAndReplayToTheLiveHash(@TempDir Path dir) throws Exception {
        List<Integer> taken = new ArrayList<>();
        List<Integer> refused = new ArrayList<>();
        long liveHash;
        long rejected;
        try (Simulation sim = sim();
             RunRecorder rec = RunRecorder.start(sim, dir, InputPipeline.builder().ringSize(4).maxPayloadBytes(4))) {
            for (int round = 0; round < 5; round++) {
                for (int j = 0; j < 6; j++) {
                    int v = round * 100 + j;
                    byte[] p = ByteBuffer.allocate(4).putInt(v).array();
                    boolean ok = rec.inputs().publish(round, 1, p, 0, 4, j < 4 ? 30_000 : 20, TimeUnit.MILLISECONDS);
                    (ok ? taken : refused).add(v);
                }
                sim.tick();
            }
            sim.tick(); // nothing left in the ring
            assertEquals(0, rec.inputs().pendingCount());
            rejected = rec.inputs().rejectedCount();
            liveHash = sim.world().stateHash();
            assertEquals(20, sim.world().entityCount(), "the taken inputs spawned");
        }
        assertEquals(20, taken.size(), "taken: " + taken + ", refused: " + refused);
        assertEquals(10, rejected, "refused inputs counted");

        List<Integer> journaled = new ArrayList<>();
        try (JournalInputSource journal = JournalInputSource.open(dir.resolve(RunRecorder.JOURNAL))) {
            while (journal.hasNextTick()) {
                InputBatch in = journal.beginTick(journal.nextTick());
                for (int i = 0; i < in.size(); i++) {
                    journaled.add(in.payloadInt(i, 0));
                }
            }
            assertTrue(journal.closedCleanly(), "the recorder wrote its end record");
        }
        assertEquals(taken, journaled, "the journal holds exactly the taken inputs, in order");
        for (int v : refused) {
            assertFalse(journaled.contains(v), "refused input " + v + " journaled");
        }
        try (Simulation fresh = sim()) {
            RunReplayer.Result r = RunReplayer.replay(dir, fresh);
            assertEquals(liveHash, r.finalHash(), "the replay reaches the live hash");
            assertTrue(r.hashesChecked() >= 6, "hashes checked: " + r.hashesChecked());
        }
    }
}
