package dev.orrery.explorer;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.orrery.ecs.World;
import dev.orrery.engine.Durability;
import dev.orrery.engine.FailurePolicy;
import dev.orrery.engine.InputBatch;
import dev.orrery.engine.Simulation;
import dev.orrery.engine.journal.JournalReader;
import dev.orrery.engine.journal.JournalRecordKind;
import dev.orrery.engine.journal.JournalWriter;
import dev.orrery.scheduler.SystemFailedException;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@link RecordedInputs} following a journal that grows as a live recording's does, the way the
 * timeline's replay reads it when a client keeps travelling to the newest tick: each catch-up
 * reads about what was appended since the last one (not the whole journal again), hands out the
 * same ticks, inputs and hashes as a read from the start, and reads a journal that was replaced
 * or cut back from its start.
 */
class RecordedInputsTest {
    /**
     * What going on from where a read stopped costs besides what was appended: the header, the
     * checksum before the resume point, and a tick left over from before (the largest here is
     * 136 bytes) with a record cut short after it. A catch-up goes on twice: where it begins, and
     * where its last {@code has} finds the end again.
     */
    private static final int LEFT_OVER = 20 + 4 + 136 + 32;

    @TempDir
    Path dir;

    /**
     * A closed journal of ticks {@code from} to {@code from + ticks - 1} with 0 to 2 inputs each
     * (their payload starts with {@code salt}), every fifth skipped, and hashed every
     * {@code hashEvery} ticks (0: never).
     */
    private byte[] journal(int from, int ticks, int hashEvery, int salt) throws IOException {
        Path file = dir.resolve("source-" + from + "-" + ticks + "-" + hashEvery + "-" + salt + ".journal");
        try (JournalWriter w = JournalWriter.create(file, FailurePolicy.SKIP_TICK, Durability.NONE)) {
            for (int t = from; t < from + ticks; t++) {
                for (int i = 0; i < t % 3; i++) {
                    w.recordInput(t, i, 7, 1, new byte[] {(byte) salt, (byte) t, (byte) i}, 0, 3);
                }
                w.recordTickEnd(t, t % 3);
                if (skipped(t)) {
                    w.recordTickSkipped(t, "steer", 0);
                }
                if (hashEvery > 0 && t % hashEvery == 0) {
                    w.recordTickHash(t, hash(t));
                }
            }
        }
        return Files.readAllBytes(file);
    }

    private static boolean skipped(long t) {
        return t % 5 == 4;
    }

    private static long hash(long t) {
        return 31L * t + 5;
    }

    /** The byte offsets where each tick's first record starts, then that of the end record. */
    private static List<Integer> tickStarts(Path file) throws IOException {
        List<Integer> starts = new ArrayList<>();
        try (JournalReader r = JournalReader.open(file)) {
            while (r.nextRecord()) {
                if (r.kind() == JournalRecordKind.INPUT && r.sequence() == 0
                        || r.kind() == JournalRecordKind.TICK_END && r.inputCount() == 0) {
                    starts.add((int) r.recordOffset());
                }
            }
            starts.add((int) r.recordOffset());
        }
        return starts;
    }

    private static void append(Path file, byte[] bytes, int from, int to) throws IOException {
        Files.write(file, Arrays.copyOfRange(bytes, from, to), StandardOpenOption.CREATE, StandardOpenOption.APPEND);
    }

    /**
     * Replays from tick {@code next} on as far as {@code in} holds ticks, as a replay that skips
     * where the recording skipped and hashes to the recorded hash would; adds each tick it handed
     * out to {@code seen}; returns the tick after the last.
     */
    private static long catchUp(RecordedInputs in, long next, List<String> seen) throws IOException {
        while (in.has(next)) {
            InputBatch batch = in.beginTick(next);
            StringBuilder s = new StringBuilder("tick ").append(next).append(':');
            for (int i = 0; i < batch.size(); i++) {
                s.append(' ').append(batch.client(i)).append('/').append(batch.type(i)).append('/');
                for (int b = 0; b < batch.payloadLength(i); b++) {
                    s.append(batch.payloadByte(i, b)).append(b + 1 < batch.payloadLength(i) ? "." : "");
                }
            }
            if (in.wantsHash(next)) {
                s.append(" hashed");
                in.recordHash(next, hash(next));
            }
            if (skipped(next)) {
                in.tickSkipped(next, "steer", 0);
            }
            in.checkSkipped(next);
            seen.add(s.toString());
            next++;
        }
        return next;
    }

    /** What a replay from {@code from} over the whole of {@code file} is handed. */
    private static List<String> fromTheStart(Path file, long from) throws IOException {
        List<String> seen = new ArrayList<>();
        try (RecordedInputs in = new RecordedInputs(file, from)) {
            catchUp(in, from, seen);
            assertEquals(-1, in.divergedAt(), in.divergence());
        }
        return seen;
    }

    @Test
    void shouldReadAboutWhatWasAppendedWhenCatchingUpWithALiveJournalAgain() throws IOException {
        for (int hashEvery : new int[] {2, 0}) { // without hashes the tick boundaries alone tell where to go on
            byte[] full = journal(0, 3000, hashEvery, 1);
            byte[] live = Arrays.copyOf(full, full.length - 21); // no end record
            Path file = dir.resolve("live-" + hashEvery + ".journal");
            int written = live.length - 2000;
            append(file, live, 0, written);
            List<String> seen = new ArrayList<>();
            long next;
            try (RecordedInputs in = new RecordedInputs(file, 0)) {
                next = catchUp(in, 0, seen);
                assertFalse(in.has(next), "at the live end");
                while (written < live.length) {
                    int grown = Math.min(live.length, written + 37); // about a tick, in pieces that cut records
                    append(file, live, written, grown);
                    long before = in.bytesRead();
                    next = catchUp(in, next, seen);
                    long read = in.bytesRead() - before;
                    assertTrue(read <= 2 * LEFT_OVER + (grown - written), "hashEvery " + hashEvery + ": read " + read
                            + " bytes catching up with " + (grown - written) + " appended to a journal of " + grown);
                    written = grown;
                }
                assertEquals(-1, in.divergedAt(), in.divergence());
                assertEquals(2999, next - 1, "every tick written");
                assertFalse(in.rewritten(), "appended to, never rewritten");
                assertTrue(in.ending().contains("no end record"), in.ending());
            }
            // what a record cut in two hands out is the tick once it is whole, as a read from the start does
            List<String> whole = fromTheStart(file, 0);
            assertEquals(whole.size(), seen.size());
            for (int t = 0; t < whole.size(); t++) {
                // a live end's last tick may be handed out before its hash is written: the rest are the same
                assertEquals(whole.get(t).replace(" hashed", ""), seen.get(t).replace(" hashed", ""), "tick " + t);
            }
        }
    }

    @Test
    void shouldHandOutTheSameTicksAndHashesAsAReadFromTheStartWhenTheJournalGrowsTickByTick() throws IOException {
        byte[] full = journal(0, 400, 1, 2);
        Path source = dir.resolve("source.journal");
        Files.write(source, full);
        List<Integer> starts = tickStarts(source);
        Path file = dir.resolve("live.journal");
        append(file, full, 0, starts.get(100));
        List<String> seen = new ArrayList<>();
        long hashesMatched;
        try (RecordedInputs in = new RecordedInputs(file, 0)) {
            long next = catchUp(in, 0, seen);
            for (int t = 101; t < starts.size(); t++) { // a whole tick at a time, as a recorder flushing every tick
                append(file, full, starts.get(t - 1), starts.get(t));
                long before = in.bytesRead();
                next = catchUp(in, next, seen);
                long read = in.bytesRead() - before;
                assertTrue(read <= 2 * LEFT_OVER + starts.get(t) - starts.get(t - 1), "read " + read + " bytes for tick "
                        + (t - 1));
            }
            append(file, full, starts.get(starts.size() - 1), full.length); // the end record
            assertFalse(in.has(next));
            assertTrue(in.ending().contains("closed there"), in.ending());
            assertEquals(-1, in.divergedAt(), in.divergence());
            assertFalse(in.rewritten(), "appended to, never rewritten");
            hashesMatched = in.hashesMatched();
        }
        assertEquals(fromTheStart(file, 0), seen);
        assertEquals(400, hashesMatched, "every recorded hash checked");
    }

    @Test
    void shouldReadAJournalReplacedOrCutBackFromItsStartAndAnEarlierTickToo() throws IOException {
        byte[] full = journal(0, 500, 2, 3);
        Path file = dir.resolve("live.journal");
        append(file, full, 0, full.length - 21 - 300);
        List<String> seen = new ArrayList<>();
        try (RecordedInputs in = new RecordedInputs(file, 0)) {
            long next = catchUp(in, 0, seen);
            // the recording started again in the same folder, rewritten in place and longer: other inputs and
            // hashes, so the record before where the reader stopped is another (one alike there cannot be told)
            byte[] other = journal(0, 600, 3, 9);
            Files.write(file, Arrays.copyOf(other, other.length - 21));
            long before = in.bytesRead();
            List<String> after = new ArrayList<>();
            long end = catchUp(in, next, after);
            assertEquals(fromTheStart(file, next), after, "the new journal's ticks");
            assertEquals(599, end - 1);
            assertTrue(in.rewritten(), "what it read before is gone: the timeline starts again");
            assertTrue(in.bytesRead() - before >= other.length - 21, "read from its start");
            // replaced by another file holding fewer bytes: read from its start as well
            Path replacement = dir.resolve("replacement.journal");
            Files.write(replacement, Arrays.copyOf(full, full.length - 21));
            Files.move(replacement, file, StandardCopyOption.REPLACE_EXISTING);
            assertFalse(in.has(end), "the replacement holds ticks up to 499");
            List<String> earlier = new ArrayList<>();
            long start = in.bytesRead();
            assertEquals(500, catchUp(in, 480, earlier), "an earlier tick is read from the start");
            assertTrue(in.bytesRead() - start >= full.length - 21, "read from its start");
            assertEquals(fromTheStart(file, 480), earlier);
        }
    }
    /**
     * A journal replaced by another recording of the program that holds the same bytes up to
     * where the reader stopped (the header, and tick 0's end with no inputs, alike in every
     * recording) but tick 0's hash there, which the first one had not: the resumed reader refuses
     * that record, and the ticks are read from the new journal's start as for any other
     * replaced journal, not refused as a journal that cannot be read.
     */
    @Test
    void shouldReadAReplacedJournalAlikeUpToWhereItStoppedFromItsStart() throws IOException {
        byte[] unhashed = journal(0, 2, 0, 3);
        Path file = dir.resolve("live.journal");
        append(file, unhashed, 0, unhashed.length - 21); // live: ticks 0 and 1, no hash, no end record
        try (RecordedInputs in = new RecordedInputs(file, 0)) {
            long next = catchUp(in, 0, new ArrayList<>());
            assertEquals(2, next);
            byte[] hashed = journal(0, 10, 2, 9); // tick 0's hash right after its end
            Path replacement = dir.resolve("replacement.journal");
            Files.write(replacement, Arrays.copyOf(hashed, hashed.length - 21));
            Files.move(replacement, file, StandardCopyOption.REPLACE_EXISTING);
            List<String> after = new ArrayList<>();
            assertEquals(10, catchUp(in, next, after), "the new journal's ticks up to 9");
            assertEquals(fromTheStart(file, next), after);
            assertTrue(in.rewritten());
            assertEquals(-1, in.divergedAt(), in.divergence());
        }
    }

    /**
     * Another recording of the program copied over a live one in place, with tick 0's command
     * sent as two (58 bytes of records either way) and alike from there on, so the header and the
     * record before where the reader stopped are the same bytes (all a resume checks) while the
     * copy has one record more before it. Its end record, read on from there, counts one more than
     * the records before it as the reader had them: the ticks must still be handed out to the end,
     * as a read from the new file's start hands them, not refused as a damaged journal a few ticks
     * on (the timeline's replay then failed that tick: a 409 and a divergence for good).
     */
    @Test
    void shouldReadOnAJournalRewrittenInPlaceWithOneRecordMoreBeforeWhereItStopped() throws IOException {
        Path file = dir.resolve("live.journal");
        Files.write(file, shaped("first", 1, 10, false)); // live: ticks 0 to 9 so far
        try (RecordedInputs in = new RecordedInputs(file, 0)) {
            long next = catchUp(in, 0, new ArrayList<>());
            assertEquals(10, next);
            Files.write(file, shaped("second", 2, 20, true)); // in place, longer, closed
            List<String> after = new ArrayList<>();
            assertEquals(20, catchUp(in, next, after), "the new journal's ticks up to 19");
            assertEquals(fromTheStart(file, next), after);
            assertTrue(in.rewritten(), "refused on from where it stopped, read from the start");
            assertTrue(in.ending().contains("closed there"), in.ending());
            assertEquals(-1, in.divergedAt(), in.divergence());
        }
    }

    /**
     * A journal of ticks 0 to {@code ticks - 1} under {@code SKIP_TICK}, every fifth skipped: tick 0
     * holds {@code tick0} inputs whose records take 58 bytes together (one of a 29-byte payload, or
     * two empty ones), the other ticks none; closed when {@code closed}, else without its end record.
     */
    private byte[] shaped(String name, int tick0, int ticks, boolean closed) throws IOException {
        Path file = dir.resolve(name + ".journal");
        try (JournalWriter w = JournalWriter.create(file, FailurePolicy.SKIP_TICK, Durability.NONE)) {
            for (int t = 0; t < ticks; t++) {
                int inputs = t == 0 ? tick0 : 0;
                for (int i = 0; i < inputs; i++) {
                    int payload = inputs == 1 ? 29 : 0;
                    w.recordInput(t, i, 7, 1, new byte[payload], 0, payload);
                }
                w.recordTickEnd(t, inputs);
                if (skipped(t)) {
                    w.recordTickSkipped(t, "steer", 0);
                }
            }
        }
        byte[] bytes = Files.readAllBytes(file);
        return closed ? bytes : Arrays.copyOf(bytes, bytes.length - 25); // live: no end record (25 bytes) yet
    }

    /**
     * A tick both the recording and the replay skipped, because different systems threw: the
     * timeline's replay reports a divergence there, as RunReplayer does; before, it passed.
     */
    @Test
    void shouldReportATickSkippedBecauseAnotherSystemThrew() throws IOException {
        Path file = dir.resolve("other-system.journal");
        Files.write(file, journal(0, 10, 1, 0)); // tick 4 skipped, "steer" threw
        try (RecordedInputs in = new RecordedInputs(file, 0)) {
            for (long t = 0; t < 4; t++) {
                in.beginTick(t);
                in.recordHash(t, hash(t));
                in.checkSkipped(t);
            }
            in.beginTick(4);
            in.tickSkipped(4, failure("drift"), List.of("steer", "drift"));
            in.checkSkipped(4);
            assertEquals(4, in.divergedAt(), in.divergence());
            assertTrue(in.divergence().contains("tick 4: the recording skipped the tick because system 'steer' threw "
                    + "(the journal keeps the name of what failed, not what it threw) but the replay skipped it because "
                    + "system 'drift' threw (java.lang.IllegalStateException: drift broke)"), in.divergence());
        }
    }

    /** What a simulation's tick throws under STOP when {@code system} throws "{@code system} broke". */
    private static SystemFailedException failure(String system) {
        World world = new World();
        try (Simulation sim = Simulation.builder(world).systems(s -> s.system(system).exclusive(w -> {
            throw new IllegalStateException(system + " broke");
        })).build()) {
            return assertThrows(SystemFailedException.class, sim::tick);
        }
    }
}
