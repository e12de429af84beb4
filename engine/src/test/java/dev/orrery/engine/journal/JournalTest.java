package dev.orrery.engine.journal;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.orrery.engine.CorruptJournalException;
import dev.orrery.engine.InputBatch;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.zip.CRC32C;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class JournalTest {
    @TempDir
    Path dir;

    /** Writes a journal of {@code ticks} ticks with 0..4 inputs each and a hash every 5 ticks. */
    private List<JournalTick> writeSample(Path file, int ticks, long seed) throws IOException {
        Random rnd = new Random(seed);
        List<JournalTick> expected = new ArrayList<>();
        try (JournalWriter w = JournalWriter.create(file)) {
            for (int t = 0; t < ticks; t++) {
                long tick = 100 + t * 2L; // ticks need not be contiguous
                JournalTick jt = new JournalTick();
                jt.reset(tick);
                int n = rnd.nextInt(5);
                for (int i = 0; i < n; i++) {
                    byte[] p = new byte[rnd.nextInt(24)];
                    rnd.nextBytes(p);
                    int client = rnd.nextInt(1000);
                    int type = rnd.nextInt(8);
                    w.recordInput(tick, i, client, type, p, 0, p.length);
                    jt.inputs().add(client, type, p, 0, p.length);
                }
                w.recordTickEnd(tick, n);
                if (t % 5 == 4) {
                    long h = rnd.nextLong();
                    w.recordTickHash(tick, h);
                    jt.hash(h);
                }
                expected.add(jt);
            }
        }
        return expected;
    }

    private static List<JournalTick> readAll(Path file) throws IOException {
        List<JournalTick> out = new ArrayList<>();
        try (JournalReader r = JournalReader.open(file)) {
            JournalTick t = new JournalTick();
            while (r.nextTick(t)) {
                out.add(copy(t));
            }
        }
        return out;
    }

    private static JournalTick copy(JournalTick t) {
        JournalTick c = new JournalTick();
        c.reset(t.tick());
        InputBatch b = t.inputs();
        byte[] buf = new byte[JournalFormat.MAX_PAYLOAD];
        for (int i = 0; i < b.size(); i++) {
            int len = b.copyPayload(i, buf, 0);
            c.inputs().add(b.client(i), b.type(i), buf, 0, len);
        }
        if (t.hasHash()) {
            c.hash(t.stateHash());
        }
        return c;
    }

    private static void assertSameTick(JournalTick expected, JournalTick actual) {
        assertEquals(expected.tick(), actual.tick());
        assertTrue(expected.inputs().sameContentAs(actual.inputs()), "inputs of tick " + expected.tick());
        assertEquals(expected.hasHash(), actual.hasHash(), "hash presence at tick " + expected.tick());
        if (expected.hasHash()) {
            assertEquals(expected.stateHash(), actual.stateHash());
        }
    }

    @Test
    void shouldRoundTripTicksInputsAndHashes() throws IOException {
        Path file = dir.resolve("run.journal");
        List<JournalTick> expected = writeSample(file, 40, 1);
        List<JournalTick> actual = readAll(file);
        assertEquals(expected.size(), actual.size());
        for (int i = 0; i < expected.size(); i++) {
            assertSameTick(expected.get(i), actual.get(i));
        }
        assertTrue(actual.stream().anyMatch(t -> t.inputs().isEmpty()), "sample should include empty ticks");
    }

    @Test
    void shouldExposeRecordsOneByOne() throws IOException {
        Path file = dir.resolve("records.journal");
        try (JournalWriter w = JournalWriter.create(file)) {
            w.recordInput(7, 0, 42, 3, new byte[] {1, 2, 3}, 0, 3);
            w.recordTickEnd(7, 1);
            w.recordTickHash(7, 0xABCDEFL);
            assertEquals(3, w.recordCount());
        }
        try (JournalReader r = JournalReader.open(file)) {
            assertTrue(r.nextRecord());
            assertEquals(JournalRecordKind.INPUT, r.kind());
            assertEquals(7, r.tick());
            assertEquals(0, r.sequence());
            assertEquals(42, r.client());
            assertEquals(3, r.type());
            byte[] p = new byte[3];
            assertEquals(3, r.copyPayload(p, 0));
            assertArrayEquals(new byte[] {1, 2, 3}, p);
            assertTrue(r.nextRecord());
            assertEquals(JournalRecordKind.TICK_END, r.kind());
            assertEquals(1, r.inputCount());
            assertThrows(IllegalStateException.class, r::stateHash);
            assertTrue(r.nextRecord());
            assertEquals(0xABCDEFL, r.stateHash());
            assertFalse(r.nextRecord());
            assertFalse(r.nextRecord());
        }
    }

    @Test
    void shouldRefuseToReadOnAfterCloseNamingTheJournalAndTheFix() throws IOException {
        Path file = dir.resolve("closed.journal");
        writeSample(file, 40, 2);
        JournalReader r = JournalReader.open(file);
        assertTrue(r.nextTick(new JournalTick()));
        r.close();
        r.close(); // closing twice is harmless
        // the records read ahead into the reader's buffer are not handed out after close
        for (String call : new String[] {"nextRecord", "nextTick", "mark", "tickMark"}) {
            IllegalStateException e = assertThrows(IllegalStateException.class, () -> {
                switch (call) {
                    case "nextRecord" -> r.nextRecord();
                    case "nextTick" -> r.nextTick(new JournalTick());
                    case "mark" -> r.mark();
                    default -> r.tickMark();
                }
            }, call);
            assertEquals("journal " + file + " is closed; open it again (JournalReader.open, or resumeAllowingCut "
                    + "from a mark taken before close) to read on", e.getMessage(), call);
        }
    }

    @Test
    void shouldRoundTripTheLargestPayload() throws IOException {
        Path file = dir.resolve("large.journal");
        byte[] big = new byte[JournalFormat.MAX_PAYLOAD];
        new Random(5).nextBytes(big);
        try (JournalWriter w = JournalWriter.create(file)) {
            w.recordInput(1, 0, 1, 1, big, 0, big.length);
            w.recordInput(1, 1, 1, 1, big, 0, 10);
            w.recordTickEnd(1, 2);
            assertThrows(IllegalArgumentException.class, () -> w.recordInput(2, 0, 1, 1, new byte[big.length + 1],
                    0, big.length + 1));
        }
        List<JournalTick> ticks = readAll(file);
        assertEquals(1, ticks.size());
        byte[] back = new byte[big.length];
        assertEquals(big.length, ticks.get(0).inputs().copyPayload(0, back, 0));
        assertArrayEquals(big, back);
        assertEquals(10, ticks.get(0).inputs().payloadLength(1));
    }

    @Test
    void shouldReadAnEmptyClosedJournal() throws IOException {
        Path file = dir.resolve("empty.journal");
        JournalWriter.create(file).close();
        assertTrue(readAll(file).isEmpty());
    }

    @Test
    void shouldNeverOverwriteAnExistingFile() throws IOException {
        Path file = dir.resolve("taken.journal");
        Files.writeString(file, "precious");
        FileAlreadyExistsException e = assertThrows(FileAlreadyExistsException.class, () -> JournalWriter.create(file));
        assertTrue(e.getMessage().contains(file.toString()), e.getMessage());
        assertEquals("precious", Files.readString(file));
    }

    @Test
    void shouldRefuseWritesOutOfTickOrder() throws IOException {
        try (JournalWriter w = JournalWriter.create(dir.resolve("order.journal"))) {
            w.recordTickEnd(5, 0);
            assertThrows(IllegalStateException.class, () -> w.recordTickEnd(5, 0), "same tick twice");
            assertThrows(IllegalStateException.class, () -> w.recordInput(4, 0, 1, 1, new byte[0], 0, 0));
            assertThrows(IllegalStateException.class, () -> w.recordInput(6, 1, 1, 1, new byte[0], 0, 0),
                    "sequence must start at 0");
            w.recordInput(6, 0, 1, 1, new byte[0], 0, 0);
            assertThrows(IllegalStateException.class, () -> w.recordTickEnd(6, 2), "count must match");
            assertThrows(IllegalStateException.class, () -> w.recordTickHash(5, 1), "hash after a later input");
            w.recordTickEnd(6, 1);
            w.recordTickHash(6, 1);
            assertThrows(IllegalStateException.class, () -> w.recordTickHash(6, 1), "one hash per tick");
        }
    }

    @Test
    void shouldRefuseAFileThatIsNotAJournal() throws IOException {
        Path file = dir.resolve("notes.txt");
        Files.writeString(file, "this is not a journal at all");
        CorruptJournalException e = assertThrows(CorruptJournalException.class, () -> JournalReader.open(file));
        assertTrue(e.getMessage().contains(file.toString()) && e.getMessage().contains("magic"), e.getMessage());
        assertEquals(0, e.offset());
        assertEquals(-1, e.recordIndex());
    }

    @Test
    void shouldRefuseAnUnknownVersionNamingIt() throws IOException {
        Path file = dir.resolve("future.journal");
        ByteBuffer h = ByteBuffer.allocate(16).putLong(JournalFormat.MAGIC).putInt(99);
        CRC32C crc = new CRC32C();
        crc.update(h.array(), 0, 12);
        h.putInt((int) crc.getValue());
        Files.write(file, h.array());
        CorruptJournalException e = assertThrows(CorruptJournalException.class, () -> JournalReader.open(file));
        assertTrue(e.getMessage().contains("version 99"), e.getMessage());
    }

    @Test
    void shouldRefuseAJournalCutShortAtARecordBoundary() throws IOException {
        Path file = dir.resolve("cut.journal");
        writeSample(file, 10, 2);
        byte[] full = Files.readAllBytes(file);
        int endRecord = 4 + JournalFormat.END_BODY + 4;
        Path cut = dir.resolve("cut-at-boundary.journal");
        Files.write(cut, java.util.Arrays.copyOf(full, full.length - endRecord));
        CorruptJournalException e = assertThrows(CorruptJournalException.class, () -> readAll(cut));
        assertTrue(e.getMessage().contains("without an end-of-journal record"), e.getMessage());
        assertEquals(full.length - endRecord, e.offset());
    }

    @Test
    void shouldLeaveAnAbandonedJournalUnterminated() throws IOException {
        Path file = dir.resolve("abandoned.journal");
        JournalWriter w = JournalWriter.create(file);
        w.recordTickEnd(1, 0);
        w.flush();
        w.abandon();
        w.close(); // no end record after abandon
        CorruptJournalException e = assertThrows(CorruptJournalException.class, () -> readAll(file));
        assertTrue(e.getMessage().contains("without an end-of-journal record")
                && e.getMessage().contains("last tick ended: 1"), e.getMessage());
    }

    @Test
    void shouldRefuseTrailingBytesAfterTheEnd() throws IOException {
        Path file = dir.resolve("trailing.journal");
        writeSample(file, 3, 3);
        Files.write(file, new byte[] {0}, java.nio.file.StandardOpenOption.APPEND);
        CorruptJournalException e = assertThrows(CorruptJournalException.class, () -> readAll(file));
        assertTrue(e.getMessage().contains("follow the end"), e.getMessage());
    }

    @Test
    void shouldRefuseEveryOneOfAThousandDamagedCopies() throws IOException {
        Path original = dir.resolve("original.journal");
        List<JournalTick> expected = writeSample(original, 60, 4);
        byte[] full = Files.readAllBytes(original);
        Random rnd = new Random(20261122L);
        Path damaged = dir.resolve("damaged.journal");
        for (int c = 0; c < 1000; c++) {
            byte[] bytes;
            long firstDamage;
            String what;
            if (c % 2 == 0) {
                bytes = full.clone();
                int flips = 1 + rnd.nextInt(4);
                firstDamage = Long.MAX_VALUE;
                for (int f = 0; f < flips; f++) {
                    int at = rnd.nextInt(bytes.length);
                    bytes[at] ^= (byte) (1 + rnd.nextInt(255));
                    firstDamage = Math.min(firstDamage, at);
                }
                what = "case " + c + ": " + flips + " byte flips, first at " + firstDamage;
            } else {
                int length = rnd.nextInt(full.length);
                bytes = java.util.Arrays.copyOf(full, length);
                firstDamage = length;
                what = "case " + c + ": truncated to " + length + " of " + full.length + " bytes";
            }
            Files.write(damaged, bytes);
            List<JournalTick> got = new ArrayList<>();
            CorruptJournalException e = assertThrows(CorruptJournalException.class, () -> {
                try (JournalReader r = JournalReader.open(damaged)) {
                    JournalTick t = new JournalTick();
                    while (r.nextTick(t)) {
                        got.add(copy(t));
                    }
                }
            }, what);
            assertTrue(e.getMessage().contains(damaged.toString()) && e.getMessage().contains("byte offset "),
                    what + ": " + e.getMessage());
            assertTrue(e.offset() <= firstDamage, what + ": reported offset " + e.offset() + " is past the damage");
            assertTrue(got.size() <= expected.size(), what);
            for (int i = 0; i < got.size(); i++) {
                assertSameTick(expected.get(i), got.get(i)); // never garbage before the error
            }
        }
    }
}
