package dev.orrery.cluster.world;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.orrery.cluster.DriftWorldAccess;
import dev.orrery.cluster.store.DirectoryWorldStore;
import dev.orrery.cluster.store.WorldStore;
import dev.orrery.cluster.world.WorldRuntime.Offer.Verdict;
import dev.orrery.engine.InputBatch;
import dev.orrery.engine.journal.JournalReader;
import dev.orrery.engine.journal.JournalRecordKind;
import dev.orrery.engine.journal.JournalTick;
import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * What a crash loses, as the cluster chapter states it: an input answered {@code accepted at
 * tick N} is in the world's journal on disk as soon as {@link WorldRuntime#tick()} returns
 * (before anything closes or lets go of the journal), so a process killed right after the
 * answer loses none of them, and the next incarnation answers their retries with the same
 * tick; an input queued and not yet ticked (answered nothing yet, {@code unknown} to its client)
 * is lost and applies once, when retried. A segment a crash tore inside a tick holds history up
 * to its last complete tick.
 */
class CrashDurabilityTest {
    private static final String WORLD = "crash-1";
    private static final WorldBlueprint BLUEPRINT = new DriftWorldAccess().blueprint();
    private static final long CLIENT = 9;

    @TempDir
    Path dir;

    private static WorldRuntime.Offer offer(WorldRuntime w, long seq) {
        return w.offer(CLIENT, seq, 1, DriftWorldAccess.PUSH, DriftWorldAccess.push((int) seq));
    }

    /** No periodic snapshot: everything after the start is in the journal only. */
    private static WorldSettings settings() {
        return WorldSettings.defaults().withSnapshotEvery(0).withKeepSnapshots(0);
    }

    /** The client sequences journaled per tick in {@code segment}, read from the file as it is now on disk. */
    private static Map<Long, List<Long>> journaled(Path segment) throws IOException {
        Map<Long, List<Long>> out = new LinkedHashMap<>();
        JournalTick tick = new JournalTick();
        try (JournalReader reader = JournalReader.openAllowingCut(segment)) {
            while (reader.nextTick(tick)) {
                List<Long> seqs = new ArrayList<>();
                InputBatch in = tick.inputs();
                for (int k = 0; k < in.size(); k++) {
                    assertEquals(CLIENT, in.payloadLong(k, 0), "the client id before the payload");
                    seqs.add(in.payloadLong(k, 8));
                }
                out.put(tick.tick(), seqs);
            }
        }
        return out;
    }

    @Test
    void anInputAcceptedBeforeAKillIsInTheJournalAtOnceAndItsRetryIsAnsweredWithItsTick() throws IOException {
        WorldStore store = new DirectoryWorldStore(dir);
        WorldRuntime killed = WorldRuntime.open(WORLD, store, BLUEPRINT, settings());
        Path segment = store.segments(WORLD).get(0).path();
        Map<Long, Long> accepted = new LinkedHashMap<>();
        for (long seq = 1; seq <= 6; seq++) {
            assertEquals(Verdict.QUEUED, offer(killed, seq).verdict());
            long tick = killed.tick(); // returned: the entity answers "accepted at tick" now
            accepted.put(seq, tick);
            // the file on disk, read while the incarnation still holds it open, already holds the tick
            assertEquals(List.of(seq), journaled(segment).get(tick), "input " + seq + " at tick " + tick);
        }
        assertEquals(Verdict.QUEUED, offer(killed, 7).verdict(), "queued, answered nothing yet");
        // the process is killed here: nothing is closed, abandoned or flushed; the next node claims the world
        WorldRuntime next = WorldRuntime.open(WORLD, store, BLUEPRINT, settings());
        try {
            assertEquals(6, next.recovery().ticksReplayed(), "every accepted tick replayed from the journal");
            for (Map.Entry<Long, Long> e : accepted.entrySet()) {
                WorldRuntime.Offer retry = offer(next, e.getKey());
                assertEquals(Verdict.APPLIED, retry.verdict(), "retry of accepted input " + e.getKey());
                assertEquals(e.getValue().longValue(), retry.tick(), "retry of accepted input " + e.getKey());
            }
            assertEquals(Verdict.QUEUED, offer(next, 7).verdict(), "the input the crash caught queued never applied");
            long at = next.tick();
            assertEquals(Verdict.APPLIED, offer(next, 7).verdict());
            assertEquals(at, offer(next, 7).tick(), "it applies once, when retried");
        } finally {
            next.close();
            assertThrows(FencedException.class, killed::tick, "the killed incarnation, were it still running, is fenced");
            killed.abandon();
        }
        WorldVerifier.Report r = WorldVerifier.verify(store, WORLD, BLUEPRINT);
        assertTrue(r.ok(), r.describe());
        assertEquals(7, r.inputsApplied(), r.describe());
    }

    @Test
    void aSegmentTornInsideATickHoldsHistoryUpToItsLastCompleteTick() throws IOException {
        WorldStore store = new DirectoryWorldStore(dir);
        WorldRuntime w = WorldRuntime.open(WORLD, store, BLUEPRINT, settings());
        for (long seq = 1; seq <= 5; seq++) {
            offer(w, seq);
            w.tick();
        }
        w.abandon();
        Path segment = store.segments(WORLD).get(0).path();
        long tornAt = -1; // in the middle of tick 4's input record: a write the crash cut short
        try (JournalReader reader = JournalReader.openAllowingCut(segment)) {
            while (reader.nextRecord()) {
                if (reader.kind() == JournalRecordKind.INPUT && reader.tick() == 4) {
                    tornAt = reader.recordOffset() + 20; // past its header, in its payload
                }
            }
        }
        assertTrue(tornAt > 0, "tick 4 has an input");
        try (FileChannel ch = FileChannel.open(segment, StandardOpenOption.WRITE)) {
            ch.truncate(tornAt);
        }
        WorldRuntime reopened = WorldRuntime.open(WORLD, store, BLUEPRINT, settings());
        try {
            assertEquals(4, reopened.currentTick(), "ticks 0 to 3 replayed; the torn tick 4 is not history");
            assertEquals(3, offer(reopened, 4).tick(), "tick 3's input (sequence 4) applied at tick 3");
            assertEquals(Verdict.QUEUED, offer(reopened, 5).verdict(), "tick 4's input was lost with its tick");
        } finally {
            reopened.close();
        }
        assertTrue(WorldVerifier.verify(store, WORLD, BLUEPRINT).ok());
    }
}
