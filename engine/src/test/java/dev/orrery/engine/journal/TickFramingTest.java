package dev.orrery.engine.journal;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;

import dev.orrery.engine.Durability;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.zip.CRC32;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class TickFramingTest {
    /**
     * Length and CRC-32 of the journal below as format version 2 writes it, with the
     * skip-tick flag and one skipped-tick note (version 1 wrote
     * 169 bytes, CRC-32 2771395179: the same records after a 16-byte header without flags;
     * {@link #V1_GOLDEN} keeps those bytes, which must still read).
     */
    private static final int GOLDEN_LENGTH = 199;
    private static final long GOLDEN_CRC32 = 4011914170L;
    /** The version 1 golden journal, byte for byte. */
    private static final String V1_GOLDEN = "4f5252594a524e4c000000018275fc210000001801000000000000000000000000000000"
            + "070000000101020367108514000000150100000000000000000000000100000008000000023a740ba30000000d020000000000"
            + "00000000000002f06692a9000000110300000000000000000123456789abcdef74d499410000000d0200000000000000010000"
            + "0000294c8df20000001104000000000000000100000000000000058c1385d3";

    @Test
    void shouldAcceptATicksRecordsInOrder() {
        TickFraming f = new TickFraming();
        assertNull(f.input(3, 0));
        assertNull(f.input(3, 1));
        assertNull(f.tickEnd(3, 2));
        assertNull(f.tickHash(3));
        assertNull(f.tickEnd(4, 0));
        assertNull(f.end());
        assertEquals(4, f.lastEnded());
    }

    @Test
    void shouldRefuseOutOfOrderRecordsAndLeaveTheStateAsItWas() {
        TickFraming f = new TickFraming();
        assertNotNull(f.tickHash(0), "a hash before any tick ended");
        assertNull(f.input(5, 0));
        assertNotNull(f.input(5, 2), "a skipped sequence");
        assertNotNull(f.input(6, 1), "another tick's input before this one's end");
        assertNotNull(f.tickEnd(5, 2), "a count that does not match");
        assertNotNull(f.end(), "the journal ending inside a tick");
        assertNull(f.input(5, 1), "the refusals above did not advance the sequence");
        assertNull(f.tickEnd(5, 2));
        assertNull(f.tickHash(5));
        assertNotNull(f.tickHash(5), "a second hash for one tick");
        assertNotNull(f.tickEnd(5, 0), "a tick ended twice");
        assertNotNull(f.input(4, 0), "an earlier tick");
        assertEquals("5", f.lastEndedText());
    }

    /** Pins the byte format: journals recorded before the framing was shared must still read. */
    @Test
    void shouldWriteTheSameBytesAsTheRecordedFormat(@TempDir Path dir) throws IOException {
        Path file = dir.resolve("golden.journal");
        try (JournalWriter w = JournalWriter.create(file, dev.orrery.engine.FailurePolicy.SKIP_TICK,
                Durability.NONE)) {
            w.recordInput(0, 0, 7, 1, new byte[] {1, 2, 3}, 0, 3);
            w.recordInput(0, 1, 8, 2, new byte[0], 0, 0);
            w.recordTickEnd(0, 2);
            w.recordTickHash(0, 0x0123_4567_89AB_CDEFL);
            w.recordTickEnd(1, 0);
            w.recordTickSkipped(1, "steer", 3);
        }
        byte[] bytes = Files.readAllBytes(file);
        CRC32 crc = new CRC32();
        crc.update(bytes);
        assertEquals(GOLDEN_LENGTH, bytes.length);
        assertEquals(GOLDEN_CRC32, crc.getValue(), "the journal's bytes changed: recorded journals would not read");
    }

    /** Version 1 journals, recorded before the header had flags, still read, as runs under STOP. */
    @Test
    void shouldStillReadTheVersionOneFormat(@TempDir Path dir) throws IOException {
        byte[] v1 = java.util.HexFormat.of().parseHex(V1_GOLDEN);
        CRC32 crc = new CRC32();
        crc.update(v1);
        assertEquals(169, v1.length);
        assertEquals(2771395179L, crc.getValue());
        Path file = dir.resolve("v1.journal");
        Files.write(file, v1);
        try (JournalReader r = JournalReader.open(file)) {
            assertEquals(1, r.version());
            assertEquals(dev.orrery.engine.FailurePolicy.STOP, r.failurePolicy());
            JournalTick t = new JournalTick();
            assertEquals(true, r.nextTick(t));
            assertEquals(2, t.inputs().size());
            assertEquals(0x0123_4567_89AB_CDEFL, t.stateHash());
            assertEquals(true, r.nextTick(t));
            assertEquals(1, t.tick());
            assertEquals(false, r.nextTick(t));
            assertEquals(true, r.closedCleanly());
        }
    }
}
