package dev.orrery.engine;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.orrery.ecs.World;
import dev.orrery.ecs.component.Component;
import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A simulation restored from a snapshot taken at tick T of a recorded run, going on with the
 * recorded inputs of ticks T, T+1... from the run's journal: a {@code JournalInputSource} over
 * the journal refused its first tick with "run the replay's ticks with the recorded numbers,
 * starting at the first recorded tick", which a restored simulation cannot do, and named no
 * other way. {@link JournalInputSource#resumeAt} now passes over the ticks the snapshot already
 * holds, checks the restored state against the hash the recording took just before the
 * snapshot, and the replay then checks every later recorded hash; a snapshot of another run is
 * refused naming both hashes. {@code RunReplayer.replay(dir, snapshot, sim)} does the same.
 */
class ResumedJournalReplayTest {
    record Got(int value) {
    }

    static final int TICKS = 30;
    static final int SNAPSHOT_AT = 12;

    /** Spawns one entity per input, holding its payload's int; hashes every {@code hashEvery} ticks. */
    static Simulation game(int hashEvery) {
        World world = new World();
        Component<Got> got = world.component(Got.class);
        return Simulation.builder(world).seed(1).workers(1).hashEvery(hashEvery)
                .systems(s -> s.system("take").readsResource(Simulation.INPUTS).exclusive((w, job) -> {
                    InputBatch in = job.resource(Simulation.INPUTS);
                    for (int i = 0; i < in.size(); i++) {
                        w.spawn(new Got(in.payloadInt(i, 0)));
                    }
                })).build();
    }

    private static void publish(InputPipeline p, int value) {
        assertTrue(p.tryPublish(1, 1, new byte[] {0, 0, 0, (byte) value}, 0, 4), "ring full");
    }

    /** A recorded run of {@link #TICKS} ticks with inputs {@code offset + tick} at every third tick. */
    record Recorded(byte[] snapshot, long snapshotHash, long finalHash) {
    }

    private static Recorded record(Path dir, int hashEvery, int offset) throws IOException {
        byte[] snapshot = null;
        long snapshotHash = 0;
        try (Simulation sim = game(hashEvery); RunRecorder rec = RunRecorder.start(sim, dir, InputPipeline.builder())) {
            for (int t = 0; t < TICKS; t++) {
                if (t == SNAPSHOT_AT) {
                    snapshot = sim.snapshot();                       // next tick 12: ticks 0..11 in it
                    snapshotHash = sim.world().stateHash();
                }
                if (t % 3 == 0) {
                    publish(rec.inputs(), offset + t);
                }
                sim.tick();
            }
            return new Recorded(snapshot, snapshotHash, sim.world().stateHash());
        }
    }

    @Test
    void aRestoredSimulationGoesOnFromTheJournalAtItsTickCheckingEveryLaterRecordedHash(@TempDir Path dir)
            throws IOException {
        Recorded run = record(dir, 5, 0);
        try (Simulation restored = game(0);                          // hashes only where the recording did
             JournalInputSource journal = JournalInputSource.open(dir.resolve(RunRecorder.JOURNAL))) {
            restored.restore(run.snapshot());
            assertEquals(SNAPSHOT_AT, restored.currentTick());
            journal.resumeAt(restored.currentTick(), restored.world().stateHash());
            assertEquals(SNAPSHOT_AT, journal.nextTick(), "positioned at the restored tick");
            restored.inputs(journal);
            long ticks = 0;
            while (journal.hasNextTick()) {
                restored.tick();
                ticks++;
            }
            journal.finish();
            assertEquals(TICKS - SNAPSHOT_AT, ticks);
            assertEquals(run.finalHash(), restored.world().stateHash(), "same final state as the recording");
            assertEquals(3, journal.hashesChecked(), "every recorded hash from tick 12 on: 15, 20, 25");
        }
    }

    @Test
    void aRestoredSimulationOnAJournalFromTickZeroIsRefusedNamingResumeAt(@TempDir Path dir) throws IOException {
        Recorded run = record(dir, 1, 0);
        try (Simulation restored = game(1);
             JournalInputSource journal = JournalInputSource.open(dir.resolve(RunRecorder.JOURNAL))) {
            restored.restore(run.snapshot());
            restored.inputs(journal);
            IllegalStateException e = assertThrows(IllegalStateException.class, restored::tick);
            String m = e.getMessage();
            assertTrue(m.contains("replay asked for tick 12 but journal"), m);
            assertTrue(m.contains("records tick 0 next"), m);
            assertTrue(m.contains("resumeAt(sim.currentTick(), sim.world().stateHash())"), m);
            assertTrue(m.contains("RunReplayer.replay(dir, snapshot, sim)"), m);
        }
    }

    @Test
    void aSnapshotOfAnotherRunIsRefusedAtResumeNamingBothHashes(@TempDir Path recorded, @TempDir Path other)
            throws IOException {
        record(recorded, 1, 0);
        Recorded otherRun = record(other, 1, 100);                   // other inputs: another state at tick 12
        try (Simulation restored = game(1);
             JournalInputSource journal = JournalInputSource.open(recorded.resolve(RunRecorder.JOURNAL))) {
            restored.restore(otherRun.snapshot());
            long hash = restored.world().stateHash();
            assertEquals(otherRun.snapshotHash(), hash, "a restore gives the snapshot's state hash");
            ReplayDivergenceException e = assertThrows(ReplayDivergenceException.class,
                    () -> journal.resumeAt(restored.currentTick(), hash));
            String m = e.getMessage();
            assertEquals(11, e.tick(), m);
            assertEquals(hash, e.replayedHash());
            assertNotEquals(hash, e.recordedHash());
            assertTrue(m.contains("the state resumed at tick 12 has hash 0x" + Long.toHexString(hash)), m);
            assertTrue(m.contains("where the recording had 0x" + Long.toHexString(e.recordedHash())
                    + " after tick 11"), m);
            assertTrue(m.contains("not a snapshot of the recorded run"), m);
        }
        try (Simulation fresh = game(1)) {                           // the replayer does the same, with the columns
            ReplayDivergenceException e = assertThrows(ReplayDivergenceException.class,
                    () -> RunReplayer.replay(recorded, otherRun.snapshot(), fresh));
            assertEquals(11, e.tick());
            assertTrue(e.getMessage().contains("not a snapshot of the recorded run"), e.getMessage());
            assertEquals("components that differ: [" + fresh.world().columns().get(0) + "]", e.detail());
        }
    }

    @Test
    void aSnapshotOfAnotherRunWhereTheRecordingHasNoHashBeforeItIsRefusedAtTheNextRecordedHash(
            @TempDir Path recorded, @TempDir Path other) throws IOException {
        record(recorded, 5, 0);                                      // hashes at 0, 5, 10, 15...: none at 11
        Recorded otherRun = record(other, 5, 100);
        try (Simulation restored = game(0);
             JournalInputSource journal = JournalInputSource.open(recorded.resolve(RunRecorder.JOURNAL))) {
            restored.restore(otherRun.snapshot());
            journal.resumeAt(restored.currentTick(), restored.world().stateHash()); // nothing to check it against
            restored.inputs(journal);
            ReplayDivergenceException e = assertThrows(ReplayDivergenceException.class, () -> {
                while (journal.hasNextTick()) {
                    restored.tick();
                }
            });
            String m = e.getMessage();
            assertEquals(15, e.tick(), m);
            assertTrue(m.contains("no hash was checked since the replay resumed at tick 12"), m);
            assertTrue(m.contains("the recording has no hash after tick 11 to check the restored state against"),
                    m); // it has hashes before (0, 5, 10): only none just before the snapshot's tick
            assertTrue(m.contains("restored from may not be a snapshot of the recorded run"), m);
        }
    }

    @Test
    void resumeAtRefusesATickTheJournalDoesNotHoldOrHasPassed(@TempDir Path dir) throws IOException {
        record(dir, 1, 0);
        try (JournalInputSource journal = JournalInputSource.open(dir.resolve(RunRecorder.JOURNAL))) {
            IllegalStateException past = assertThrows(IllegalStateException.class,
                    () -> journal.resumeAt(TICKS + 5, 0));
            assertTrue(past.getMessage().contains("ends after tick " + (TICKS - 1)), past.getMessage());
            assertTrue(past.getMessage().contains("the snapshot was taken after the recording ended"),
                    past.getMessage());
        }
        try (JournalInputSource journal = JournalInputSource.open(dir.resolve(RunRecorder.JOURNAL))) {
            journal.beginTick(0);
            journal.resumeAt(5, hashAfter(dir, 4));
            assertEquals(5, journal.nextTick());
            IllegalStateException back = assertThrows(IllegalStateException.class, () -> journal.resumeAt(3, 0));
            assertTrue(back.getMessage().contains("resumeAt(3) but the journal is past tick 3"), back.getMessage());
        }
    }

    @Test
    void resumeAtPastTheEndOfAJournalACrashCutSaysWhereItWasCutNotThatTheSnapshotCameAfterTheRecording(
            @TempDir Path dir) throws IOException {
        record(dir, 1, 0);
        Path file = dir.resolve(RunRecorder.JOURNAL);
        try (FileChannel ch = FileChannel.open(file, StandardOpenOption.WRITE)) {
            ch.truncate(ch.size() * 2 / 3);                          // a crash: the end and the last ticks lost
        }
        long last;
        try (JournalInputSource journal = JournalInputSource.openAllowingCut(file)) {
            last = -1;
            while (journal.hasNextTick()) {
                last = journal.nextTick();
                journal.beginTick(last);
            }
            assertNotNull(journal.cut(), "the journal was cut");
        }
        assertTrue(last > 0 && last < TICKS - 1, "cut in the middle: " + last);
        long lastTick = last;
        try (JournalInputSource journal = JournalInputSource.openAllowingCut(file)) {
            IllegalStateException e = assertThrows(IllegalStateException.class,
                    () -> journal.resumeAt(lastTick + 3, 0));
            String m = e.getMessage();
            assertTrue(m.contains("was cut after tick " + lastTick), m);
            assertTrue(m.contains("a crash lost the rest of the recording"), m);
            assertTrue(m.contains("resume at a tick up to " + (lastTick + 1)), m);
            assertFalse(m.contains("the snapshot was taken after the recording ended"), m);
        }
    }

    /** The recorded hash after {@code tick}, read by a source of its own. */
    private static long hashAfter(Path dir, long tick) throws IOException {
        try (Simulation sim = game(1);
             JournalInputSource journal = JournalInputSource.open(dir.resolve(RunRecorder.JOURNAL))) {
            sim.inputs(journal);
            while (sim.currentTick() <= tick) {
                sim.tick();
            }
            return sim.world().stateHash();
        }
    }
}
