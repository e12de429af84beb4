package dev.orrery.engine.journal;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.orrery.engine.CorruptJournalException;
import dev.orrery.engine.Durability;
import dev.orrery.engine.FailurePolicy;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A reader resumed at a {@link JournalMark} reads a journal that grew since as a reader of the
 * whole file does, from the mark on only, and refuses a file that no longer holds what the mark
 * was taken after.
 */
class JournalResumeTest {
    @TempDir
    Path dir;

    /** Twelve ticks with 0, 1 or 2 inputs, some skipped, some hashed; closed with its end record. */
    private byte[] journal() throws IOException {
        return journal("full.journal", true);
    }

    /** {@link #journal()} without its hashes: no record tells that a tick is over before the next begins. */
    private byte[] journalWithoutHashes() throws IOException {
        return journal("unhashed.journal", false);
    }

    private byte[] journal(String name, boolean hashes) throws IOException {
        Path file = dir.resolve(name);
        try (JournalWriter w = JournalWriter.create(file, FailurePolicy.SKIP_TICK, Durability.NONE)) {
            for (int t = 0; t < 12; t++) {
                for (int i = 0; i < t % 3; i++) {
                    w.recordInput(t, i, i, 1, new byte[] {(byte) t, (byte) i}, 0, 2);
                }
                w.recordTickEnd(t, t % 3);
                if (t % 4 == 1) {
                    w.recordTickSkipped(t, "steer", t);
                }
                if (hashes && t % 2 == 0) {
                    w.recordTickHash(t, 1000L + t);
                }
            }
        }
        return Files.readAllBytes(file);
    }

    private static String record(JournalReader r) {
        return r.kind() + "@" + r.tick() + "/" + r.recordOffset();
    }

    @Test
    void shouldReadAGrowingJournalFromItsMarkAsAWholeReadDoesAtEveryLength() throws IOException {
        byte[] full = journal();
        Path live = dir.resolve("live.journal");
        Path whole = dir.resolve("whole.journal");
        JournalMark mark = null;
        List<String> resumed = new ArrayList<>();
        for (int length = JournalFormat.HEADER_BYTES; length <= full.length; length++) {
            byte[] prefix = Arrays.copyOf(full, length);
            Files.write(live, prefix); // the same bytes before the mark, more after it
            Files.write(whole, prefix);
            List<String> expected = new ArrayList<>();
            long expectedLast;
            boolean expectedClosed;
            String expectedCut;
            try (JournalReader r = JournalReader.openAllowingCut(whole)) {
                while (r.nextRecord()) {
                    expected.add(record(r));
                }
                expectedLast = r.lastTickEnded();
                expectedClosed = r.closedCleanly();
                expectedCut = r.cut();
            }
            String what = "grown to " + length + " bytes, resumed from " + mark;
            try (JournalReader r = mark == null ? JournalReader.openAllowingCut(live)
                    : JournalReader.resumeAllowingCut(live, mark)) {
                long from = mark == null ? 0 : mark.offset();
                while (r.nextRecord()) {
                    resumed.add(record(r));
                }
                assertEquals(expected, resumed, what);
                assertEquals(expectedLast, r.lastTickEnded(), what);
                assertEquals(expectedClosed, r.closedCleanly(), what);
                assertEquals(expectedCut == null ? null : expectedCut.replace(whole.toString(), live.toString()),
                        r.cut(), what);
                if (mark != null) {
                    // the header, the checksum before the mark and what follows it: never the records before
                    long before = mark.offset() > JournalFormat.HEADER_BYTES ? 4 : 0;
                    assertEquals(JournalFormat.HEADER_BYTES + before + (length - from), r.bytesRead(), what);
                }
                if (r.closedCleanly()) {
                    assertEquals(full.length, length, what);
                    assertThrows(IllegalStateException.class, r::mark, "a closed journal does not grow");
                } else {
                    mark = r.mark();
                    assertEquals(r.lastTickEnded(), mark.lastTickEnded(), what);
                }
            }
        }
        assertEquals(33, resumed.size(), "every record once: " + resumed);
    }

    @Test
    void shouldReadWholeTicksAfterAMarkBetweenTicksAndRefuseTheRestOfATickResumedInside() throws IOException {
        byte[] full = journal();
        Path live = dir.resolve("live.journal");
        List<Long> offsets = new ArrayList<>();
        List<JournalRecordKind> kinds = new ArrayList<>();
        Files.write(live, full);
        try (JournalReader r = JournalReader.open(live)) {
            while (r.nextRecord()) {
                offsets.add(r.recordOffset());
                kinds.add(r.kind());
            }
        }
        // cut just before tick 2's second input: its first input read, its end not yet written
        int second = kinds.indexOf(JournalRecordKind.INPUT);
        while (!(kinds.get(second) == JournalRecordKind.INPUT && kinds.get(second - 1) == JournalRecordKind.INPUT)) {
            second++;
        }
        Files.write(live, Arrays.copyOf(full, (int) (long) offsets.get(second)));
        JournalMark inside;
        try (JournalReader r = JournalReader.openAllowingCut(live)) {
            JournalTick t = new JournalTick();
            while (r.nextTick(t)) {
                // to the cut inside the tick
            }
            inside = r.mark();
        }
        Files.write(live, full);
        try (JournalReader r = JournalReader.resumeAllowingCut(live, inside)) {
            IllegalStateException e = assertThrows(IllegalStateException.class, () -> r.nextTick(new JournalTick()));
            assertTrue(e.getMessage().contains("inside tick 2"), e.getMessage());
        }
        try (JournalReader r = JournalReader.resumeAllowingCut(live, inside)) {
            assertTrue(r.nextRecord());
            assertEquals(JournalRecordKind.INPUT, r.kind());
            assertEquals(1, r.sequence(), "record by record, the tick goes on where the mark stood");
            while (r.nextRecord()) {
                // to the end record
            }
            assertTrue(r.closedCleanly());
            assertEquals(11, r.lastTickEnded());
        }
        // after tick 0's end, before its hash: its hash would come without its tick
        int end0 = kinds.indexOf(JournalRecordKind.TICK_END);
        assertEquals(JournalRecordKind.TICK_HASH, kinds.get(end0 + 1));
        Files.write(live, Arrays.copyOf(full, (int) (long) offsets.get(end0 + 1)));
        JournalMark beforeHash;
        try (JournalReader r = JournalReader.openAllowingCut(live)) {
            while (r.nextRecord()) {
                // tick 0's end
            }
            beforeHash = r.mark();
        }
        Files.write(live, full);
        try (JournalReader r = JournalReader.resumeAllowingCut(live, beforeHash)) {
            IllegalStateException e = assertThrows(IllegalStateException.class, () -> r.nextTick(new JournalTick()));
            assertTrue(e.getMessage().contains("inside tick 0"), e.getMessage());
        }
        // between ticks (after tick 0's hash): whole ticks, the same as a read from the start
        Files.write(live, Arrays.copyOf(full, (int) (long) offsets.get(end0 + 2)));
        JournalMark between;
        try (JournalReader r = JournalReader.openAllowingCut(live)) {
            JournalTick t = new JournalTick();
            while (r.nextTick(t)) {
                // tick 0
            }
            between = r.mark();
        }
        Files.write(live, full);
        List<Long> ticks = new ArrayList<>();
        try (JournalReader r = JournalReader.resumeAllowingCut(live, between)) {
            JournalTick t = new JournalTick();
            while (r.nextTick(t)) {
                ticks.add(t.tick());
                assertEquals(t.tick() % 3, t.inputs().size(), "tick " + t.tick());
            }
            assertTrue(r.closedCleanly());
        }
        assertEquals(List.of(1L, 2L, 3L, 4L, 5L, 6L, 7L, 8L, 9L, 10L, 11L), ticks);
    }

    /** A tick as nextTick hands it out, in words. */
    private static String describe(JournalTick t) {
        StringBuilder s = new StringBuilder("tick " + t.tick() + ":");
        for (int i = 0; i < t.inputs().size(); i++) {
            s.append(' ').append(t.inputs().client(i)).append('/').append(t.inputs().payloadByte(i, 0)).append('.')
                    .append(t.inputs().payloadByte(i, 1));
        }
        return s + (t.skipped() ? " skipped in " + t.skippedSystem() : "") + (t.hasHash() ? " hash "
                + t.stateHash() : "");
    }

    @Test
    void shouldReadWholeTicksFromATickMarkTakenWhereverAGrowingJournalEndedForNow() throws IOException {
        for (byte[] full : List.of(journal(), journalWithoutHashes())) {
            Map<Long, String> whole = new TreeMap<>();
            Path file = dir.resolve("whole.journal");
            Files.write(file, full);
            try (JournalReader r = JournalReader.open(file)) {
                JournalTick t = new JournalTick();
                while (r.nextTick(t)) {
                    whole.put(t.tick(), describe(t));
                }
            }
            Path live = dir.resolve("live.journal");
            Files.deleteIfExists(live);
            Map<Long, String> seen = new TreeMap<>();
            JournalMark mark = null;
            // one byte at a time: ends inside records, after a tick's end before its skip note or hash
            for (int length = JournalFormat.HEADER_BYTES; length <= full.length; length++) {
                Files.write(live, Arrays.copyOf(full, length));
                String what = "grown to " + length + " bytes, resumed from " + mark;
                try (JournalReader r = mark == null ? JournalReader.openAllowingCut(live)
                        : JournalReader.resumeAllowingCut(live, mark)) {
                    JournalTick t = new JournalTick();
                    while (r.nextTick(t)) { // a mark inside a tick makes this throw
                        seen.put(t.tick(), describe(t)); // a tick read again, whole now, replaces what was seen
                    }
                    long from = mark == null ? 0 : mark.offset();
                    assertEquals(mark == null ? length : JournalFormat.HEADER_BYTES + (from > JournalFormat.HEADER_BYTES
                            ? 4 : 0) + length - from, r.bytesRead(), what);
                    if (r.closedCleanly()) {
                        assertThrows(IllegalStateException.class, r::tickMark);
                        break;
                    }
                    mark = r.tickMark();
                    assertTrue(length - mark.offset() <= 200, "a tick and a record cut short at most: " + mark
                            + " at " + length);
                    assertTrue(mark.toString().contains("between ticks"), mark.toString());
                }
            }
            assertEquals(whole, seen);
        }
    }

    @Test
    void shouldGiveATickMarkWhereNextTickReadAheadAndAfterAResumeThatReadNoTick() throws IOException {
        byte[] full = journalWithoutHashes();
        Path live = dir.resolve("live.journal");
        Files.write(live, full);
        List<Long> offsets = new ArrayList<>();
        try (JournalReader r = JournalReader.open(live)) {
            while (r.nextRecord()) {
                offsets.add(r.recordOffset());
            }
        }
        Files.write(live, Arrays.copyOf(full, full.length - 30));
        JournalMark mark;
        try (JournalReader r = JournalReader.openAllowingCut(live)) {
            JournalTick t = new JournalTick();
            assertTrue(r.nextTick(t));
            assertTrue(r.nextTick(t)); // tick 1, its skip note, then tick 2's first input read ahead
            assertThrows(IllegalStateException.class, r::mark);
            mark = r.tickMark();
        }
        assertEquals(1, mark.lastTickEnded());
        assertTrue(offsets.contains(mark.offset()), "a record boundary: " + mark);
        JournalMark again;
        Files.write(live, Arrays.copyOf(full, (int) mark.offset() + 3)); // tick 2's first record cut short
        try (JournalReader r = JournalReader.resumeAllowingCut(live, mark)) {
            assertFalse(r.nextTick(new JournalTick()));
            again = r.tickMark();
        }
        assertEquals(mark.offset(), again.offset(), "no tick begun since the resume: it stands where it was");
        Files.write(live, full);
        List<Long> ticks = new ArrayList<>();
        try (JournalReader r = JournalReader.resumeAllowingCut(live, again)) {
            JournalTick t = new JournalTick();
            while (r.nextTick(t)) {
                ticks.add(t.tick());
            }
            assertTrue(r.closedCleanly());
        }
        assertEquals(List.of(2L, 3L, 4L, 5L, 6L, 7L, 8L, 9L, 10L, 11L), ticks);
        // a reader resumed inside a tick (tick 2, between its two inputs) knows no tick boundary until a tick begins
        Files.write(live, Arrays.copyOf(full, (int) (long) offsets.get(5)));
        JournalMark inside;
        try (JournalReader r = JournalReader.openAllowingCut(live)) {
            while (r.nextRecord()) {
                // to the cut
            }
            assertEquals(1, r.tickMark().lastTickEnded(), "before tick 2, read from the start");
            inside = r.mark();
        }
        try (JournalReader r = JournalReader.resumeAllowingCut(live, inside)) {
            assertFalse(r.nextRecord());
            IllegalStateException e = assertThrows(IllegalStateException.class, r::tickMark);
            assertTrue(e.getMessage().contains("resumed inside a tick"), e.getMessage());
        }
    }

    @Test
    void shouldRefuseToResumeAFileThatNoLongerHoldsWhatTheMarkWasTakenAfter() throws IOException {
        byte[] full = journal();
        Path live = dir.resolve("live.journal");
        Files.write(live, Arrays.copyOf(full, full.length - 17));
        JournalMark mark;
        try (JournalReader r = JournalReader.openAllowingCut(live)) {
            while (r.nextRecord()) {
                // to the cut
            }
            mark = r.mark();
        }
        assertTrue(mark.offset() > 100, mark.toString());
        // truncated before the mark
        Files.write(live, Arrays.copyOf(full, (int) mark.offset() - 3));
        CorruptJournalException shorter = assertThrows(CorruptJournalException.class,
                () -> JournalReader.resumeAllowingCut(live, mark));
        assertTrue(shorter.getMessage().contains("shorter than the mark") && shorter.getMessage()
                .contains("openAllowingCut"), shorter.getMessage());
        // rewritten: as long, another record before the mark
        byte[] other = full.clone();
        other[(int) mark.offset() - 2] ^= 1;
        Files.write(live, other);
        CorruptJournalException rewritten = assertThrows(CorruptJournalException.class,
                () -> JournalReader.resumeAllowingCut(live, mark));
        assertTrue(rewritten.getMessage().contains("the record before the mark is not the one"),
                rewritten.getMessage());
        // replaced by a journal of another failure policy
        Path stop = dir.resolve("stop.journal");
        try (JournalWriter w = JournalWriter.create(stop, FailurePolicy.STOP, Durability.NONE)) {
            for (int t = 0; t < 40; t++) {
                w.recordTickEnd(t, 0);
            }
        }
        Files.copy(stop, live, java.nio.file.StandardCopyOption.REPLACE_EXISTING);
        CorruptJournalException replaced = assertThrows(CorruptJournalException.class,
                () -> JournalReader.resumeAllowingCut(live, mark));
        assertTrue(replaced.getMessage().contains("its header is not the one"), replaced.getMessage());
    }

    @Test
    void shouldRefuseAMarkWhereNoBoundaryStands() throws IOException {
        Path live = dir.resolve("live.journal");
        byte[] full = journal();
        Files.write(live, full);
        try (JournalReader r = JournalReader.openAllowingCut(live)) {
            JournalTick t = new JournalTick();
            assertTrue(r.nextTick(t)); // tick 0, whose hash follows
            assertTrue(r.nextTick(t)); // tick 1: its skip note, then tick 2's end read ahead
            IllegalStateException e = assertThrows(IllegalStateException.class, r::mark);
            assertTrue(e.getMessage().contains("read ahead"), e.getMessage());
        }
        byte[] damaged = full.clone();
        damaged[JournalFormat.HEADER_BYTES + 6] ^= 1; // the first record's tick: its checksum fails, records follow
        Files.write(live, damaged);
        try (JournalReader r = JournalReader.openAllowingCut(live)) {
            assertThrows(CorruptJournalException.class, r::nextRecord);
            IllegalStateException e = assertThrows(IllegalStateException.class, r::mark);
            assertTrue(e.getMessage().contains("damaged"), e.getMessage());
        }
        Files.write(live, Arrays.copyOf(full, 10));
        try (JournalReader r = JournalReader.openAllowingCut(live)) {
            assertFalse(r.nextRecord());
            IllegalStateException e = assertThrows(IllegalStateException.class, r::mark);
            assertTrue(e.getMessage().contains("inside its header"), e.getMessage());
        }
    }
    /**
     * A tick mark stands where a tick's first record was read, so nothing of the tick before can
     * follow it. A file replaced since by one that holds the same header and the same record
     * before the mark (another recording of the same program: a tick end with no inputs reads
     * the same in both) but the tick before's hash at the mark is not the journal the mark was
     * taken in: the resumed reader must refuse it as a CorruptJournalException, as it refuses
     * other rewritten files, not let it through to nextTick's "resumed inside tick"
     * IllegalStateException, which a reader of outside bytes does not expect.
     */
    @Test
    void shouldRefuseAReplacedFileWithTheTickBeforesHashAtATickMarkAsCorruptNotAsAMisuse() throws IOException {
        Path live = dir.resolve("replaced.journal");
        try (JournalWriter w = JournalWriter.create(live, FailurePolicy.STOP, Durability.NONE)) {
            w.recordTickEnd(0, 0);
            w.recordTickEnd(1, 0);
            w.flush();
            Files.copy(live, dir.resolve("a.journal")); // live: tick 1 is read, its hash may still come
        }
        Path a = dir.resolve("a.journal");
        JournalMark mark;
        try (JournalReader r = JournalReader.openAllowingCut(a)) {
            JournalTick t = new JournalTick();
            assertTrue(r.nextTick(t));
            assertTrue(r.nextTick(t));
            assertFalse(r.nextTick(t));
            mark = r.tickMark(); // tick 1 begins here: after tick 0's end, which had no hash
        }
        Files.delete(live); // replaced: another recording into the same place
        try (JournalWriter w = JournalWriter.create(live, FailurePolicy.STOP, Durability.NONE)) {
            w.recordTickEnd(0, 0); // the same bytes before the mark
            w.recordTickHash(0, 77L); // at the mark: tick 0's hash, which the journal the mark was taken in had not
            w.recordTickEnd(1, 0);
        }
        CorruptJournalException e = assertThrows(CorruptJournalException.class, () -> {
            try (JournalReader r = JournalReader.resumeAllowingCut(live, mark)) {
                JournalTick t = new JournalTick();
                while (r.nextTick(t)) {
                    // the replaced file's ticks
                }
            }
        });
        assertTrue(e.getMessage().contains("openAllowingCut"), e.getMessage());
        try (JournalReader whole = JournalReader.openAllowingCut(live)) { // the new file itself reads whole
            JournalTick t = new JournalTick();
            assertTrue(whole.nextTick(t));
            assertEquals(77L, t.stateHash());
        }
    }
}
