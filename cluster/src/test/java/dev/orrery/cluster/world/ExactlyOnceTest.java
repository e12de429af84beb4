package dev.orrery.cluster.world;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.orrery.cluster.DriftWorldAccess;
import dev.orrery.cluster.store.DirectoryWorldStore;
import dev.orrery.cluster.store.WorldStore;
import dev.orrery.cluster.world.WorldRuntime.Offer.Verdict;
import java.io.IOException;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A world applies each client id and sequence at most once: a retry is answered with the
 * tick the input applied in, while it is queued, after the tick, after a crash (the window
 * rebuilt by replay), after a hand-off (the window in the snapshot) and after several of
 * each; sequences below the window are refused, the world's limits answer busy (unknown),
 * and the journal holds every input once.
 */
class ExactlyOnceTest {
    private static final String WORLD = "once";
    private static final WorldBlueprint BLUEPRINT = new DriftWorldAccess().blueprint();

    @TempDir
    Path dir;

    private static byte[] push(long id) {
        return DriftWorldAccess.push((int) id);
    }

    private static WorldRuntime.Offer offer(WorldRuntime w, long client, long seq) {
        return w.offer(client, seq, 1, DriftWorldAccess.PUSH, push(seq));
    }

    @Test
    void aRetryIsAnsweredWithItsTickWhereverTheWorldHasBeenSince() throws IOException {
        WorldStore store = new DirectoryWorldStore(dir);
        WorldSettings settings = WorldSettings.defaults().withSnapshotEvery(10).withKeepSnapshots(0);
        Map<Long, Long> appliedAt = new HashMap<>();
        WorldRuntime w = WorldRuntime.open(WORLD, store, BLUEPRINT, settings);
        long seq = 0;
        for (int round = 0; round < 6; round++) {
            for (int t = 0; t < 7; t++) {
                long s = ++seq;
                assertEquals(Verdict.QUEUED, offer(w, 5, s).verdict());
                assertEquals(Verdict.QUEUED, offer(w, 5, s).verdict(), "a retry of a queued input waits for its tick");
                long tick = w.tick();
                appliedAt.put(s, tick);
            }
            // every input so far, retried: answered with its tick, never queued again
            for (Map.Entry<Long, Long> e : appliedAt.entrySet()) {
                WorldRuntime.Offer again = offer(w, 5, e.getKey());
                assertEquals(Verdict.APPLIED, again.verdict(), "retry of " + e.getKey() + " in round " + round);
                assertEquals(e.getValue().longValue(), again.tick());
            }
            assertEquals(0, w.pendingInputs());
            if (round % 2 == 0) {
                w.abandon(); // a crash: the window after the last snapshot is rebuilt by replaying the journal
            } else {
                w.close(); // a hand-off: the window is in the snapshot
            }
            w = WorldRuntime.open(WORLD, store, BLUEPRINT, settings);
        }
        for (Map.Entry<Long, Long> e : appliedAt.entrySet()) {
            assertEquals(e.getValue().longValue(), offer(w, 5, e.getKey()).tick());
        }
        w.close();
        HistoryReplay.Result r = HistoryReplay.replay(store, WORLD, BLUEPRINT);
        assertEquals(0, r.report().duplicateInputs(), r.report().describe());
        assertEquals(appliedAt.size(), r.report().inputsApplied(), r.report().describe());
        for (Map.Entry<Long, Long> e : appliedAt.entrySet()) {
            assertEquals(e.getValue(), r.applied().get(List.of(5L, e.getKey())));
        }
    }

    @Test
    void belowTheWindowIsRefusedAndTheWorldsLimitsAnswerBusy() throws IOException {
        WorldStore store = new DirectoryWorldStore(dir);
        WorldSettings settings = WorldSettings.defaults().withSnapshotEvery(0).withWindow(8, 2, 300)
                .withMaxPendingInputs(3);
        WorldRuntime w = WorldRuntime.open(WORLD, store, BLUEPRINT, settings);
        for (long s = 1; s <= 20; s++) {
            offer(w, 1, s);
            w.tick();
        }
        WorldRuntime.Offer old = offer(w, 1, 12);
        assertEquals(Verdict.REFUSED, old.verdict(), "12 <= 20 - 8: outside the window");
        assertTrue(old.reason().contains("keep fewer than 8 inputs unanswered per world"), old.reason());
        assertEquals(Verdict.APPLIED, offer(w, 1, 13).verdict(), "13 is inside the window");

        assertEquals(Verdict.QUEUED, offer(w, 1, 22).verdict(), "21 may still come");
        WorldRuntime.Offer past = offer(w, 1, 30);
        assertEquals(Verdict.BUSY, past.verdict(), "30 would push the window past the queued 22: " + past.reason());
        assertEquals(Verdict.QUEUED, offer(w, 2, 1).verdict());
        assertEquals(Verdict.BUSY, offer(w, 3, 1).verdict(), "a third client: two are remembered at most");
        assertEquals(Verdict.QUEUED, offer(w, 1, 23).verdict());
        assertEquals(Verdict.BUSY, offer(w, 1, 24).verdict(), "three inputs a tick at most");
        w.tick();
        assertEquals(Verdict.REFUSED, w.offer(1, 25, 1, 1, new byte[65_536]).verdict(), "over the journal's payload");

        // client 2 falls silent; after 300 idle ticks (checked every 256) it is forgotten and client 3 fits
        for (int t = 0; t < 600; t++) {
            offer(w, 1, 24 + t);
            w.tick();
        }
        assertEquals(Verdict.QUEUED, offer(w, 3, 1).verdict(), "the idle client was forgotten");
        w.close();
        WorldVerifier.Report r = WorldVerifier.verify(store, WORLD, BLUEPRINT);
        assertTrue(r.ok(), r.describe());
    }
}
