package dev.orrery.engine.journal;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.zip.CRC32;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class TickFramingTest {
    /** Length and CRC-32 of the journal below as written before the framing rules were shared. */
    private static final int GOLDEN_LENGTH = 169;
    private static final long GOLDEN_CRC32 = 2771395179L;

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
        try (JournalWriter w = JournalWriter.create(file)) {
            w.recordInput(0, 0, 7, 1, new byte[] {1, 2, 3}, 0, 3);
            w.recordInput(0, 1, 8, 2, new byte[0], 0, 0);
            w.recordTickEnd(0, 2);
            w.recordTickHash(0, 0x0123_4567_89AB_CDEFL);
            w.recordTickEnd(1, 0);
        }
        byte[] bytes = Files.readAllBytes(file);
        CRC32 crc = new CRC32();
        crc.update(bytes);
        assertEquals(GOLDEN_LENGTH, bytes.length);
        assertEquals(GOLDEN_CRC32, crc.getValue(), "the journal's bytes changed: recorded journals would not read");
    }
}
