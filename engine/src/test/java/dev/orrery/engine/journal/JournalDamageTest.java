package dev.orrery.engine.journal;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import dev.orrery.engine.CorruptJournalException;
import dev.orrery.engine.Durability;
import dev.orrery.engine.FailurePolicy;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A record in the middle of a journal whose length field is damaged is corruption, not a
 * crash cut, even where the damaged length runs past the end of the file: only a short or
 * torn final record is a cut.
 */
class JournalDamageTest {
    @TempDir
    Path dir;

    /** A journal of {@code ticks} ticks, each with {@code tick % 3} inputs and a hash every other tick. */
    private Path write(String name, int ticks, boolean close) throws IOException {
        Path file = dir.resolve(name);
        JournalWriter w = JournalWriter.create(file, FailurePolicy.SKIP_TICK, Durability.NONE);
        for (int t = 0; t < ticks; t++) {
            for (int i = 0; i < t % 3; i++) {
                w.recordInput(t, i, 7, 1, new byte[] {(byte) t, (byte) i, 3, 4}, 0, 4);
            }
            w.recordTickEnd(t, t % 3);
            if (t % 2 == 0) {
                w.recordTickHash(t, 1000L + t);
            }
        }
        if (close) {
            w.close();
        } else {
            w.sync();
            w.abandon();
        }
        return file;
    }

    /** The byte offsets of every record of {@code file}. */
    private static List<Long> recordOffsets(Path file) throws IOException {
        List<Long> offsets = new ArrayList<>();
        try (JournalReader r = JournalReader.openAllowingCut(file)) {
            while (r.nextRecord()) {
                offsets.add(r.recordOffset());
            }
        }
        return offsets;
    }

    /** Reads every tick with {@link JournalReader#openAllowingCut}; returns the tick count or throws. */
    private static int readAllowingCut(Path file) throws IOException {
        try (JournalReader r = JournalReader.openAllowingCut(file)) {
            JournalTick t = new JournalTick();
            int n = 0;
            while (r.nextTick(t)) {
                n++;
            }
            return n;
        }
    }

    @Test
    void shouldRefuseAFlippedLengthBitInTheMiddleOfACleanlyClosedJournalAsCorruption() throws IOException {
        // the reproduction: 240 complete ticks, a clean end, one bit of one length field flipped
        Path file = write("clean.journal", 240, true);
        assertEquals(240, readAllowingCut(file));
        List<Long> offsets = recordOffsets(file);
        long at = offsets.get(offsets.size() * 3 / 4); // late, so the longer length runs past the end
        byte[] bytes = Files.readAllBytes(file);
        bytes[(int) at + 2] ^= 0x10; // + 4096 body bytes
        Path damaged = dir.resolve("damaged.journal");
        Files.write(damaged, bytes);
        CorruptJournalException e = assertThrows(CorruptJournalException.class, () -> readAllowingCut(damaged));
        assertEquals(at, e.offset(), e.getMessage());
        assertTrue(e.getMessage().contains(damaged.toString()) && e.getMessage().contains("length field is damaged"),
                e.getMessage());
    }

    @Test
    void shouldRefuseEveryFlippedLengthBitOfEveryRecordButTheLastAsCorruption() throws IOException {
        for (boolean close : new boolean[] {true, false}) {
            Path file = write(close ? "closed.journal" : "crashed.journal", 24, close);
            byte[] full = Files.readAllBytes(file);
            List<Long> offsets = recordOffsets(file);
            // a crash-cut journal has no end record: its last record's length could only be told
            // from a torn one by what follows it, and nothing does
            int checked = close ? offsets.size() + 1 : offsets.size() - 1;
            if (close) {
                offsets.add((long) full.length - (4 + JournalFormat.END_BODY + 4)); // the end record
            }
            Path damaged = dir.resolve("flipped.journal");
            for (int k = 0; k < checked; k++) {
                long at = offsets.get(k);
                for (int bit = 0; bit < 32; bit++) {
                    byte[] bytes = full.clone();
                    bytes[(int) at + bit / 8] ^= (byte) (1 << (bit % 8));
                    Files.write(damaged, bytes);
                    String what = (close ? "closed" : "crashed") + " journal, record at " + at + ", length bit " + bit;
                    try {
                        int ticks = readAllowingCut(damaged);
                        fail(what + ": read " + ticks + " ticks as if the journal were only cut");
                    } catch (CorruptJournalException e) {
                        assertEquals(at, e.offset(), what + ": " + e.getMessage());
                        assertFalse(e.getMessage().contains("\n"), e.getMessage());
                    }
                }
            }
        }
    }

    @Test
    void shouldStillReadATornLastRecordAsACut() throws IOException {
        Path file = write("torn.journal", 10, false);
        byte[] full = Files.readAllBytes(file);
        List<Long> offsets = recordOffsets(file);
        long last = offsets.get(offsets.size() - 1);
        Path cut = dir.resolve("cut.journal");
        // every cut inside the last record, whatever its length field says, is a cut
        for (int length = (int) last + 1; length < full.length; length++) {
            Files.write(cut, java.util.Arrays.copyOf(full, length));
            try (JournalReader r = JournalReader.openAllowingCut(cut)) {
                JournalTick t = new JournalTick();
                while (r.nextTick(t)) {
                    assertTrue(t.tick() < 10);
                }
                assertFalse(r.closedCleanly());
                assertTrue(r.cut() != null && r.cut().contains("without a clean close"), "cut at " + length);
            }
        }
        try (JournalReader r = JournalReader.openAllowingCut(file)) {
            JournalTick t = new JournalTick();
            int n = 0;
            while (r.nextTick(t)) {
                n++;
            }
            assertEquals(10, n);
            assertTrue(r.cut().contains("the file ends after a complete record"), r.cut());
        }
    }

    @Test
    void shouldRefuseALengthBeyondTheDocumentedMaximumWithoutAllocatingIt() throws IOException {
        Path file = write("big.journal", 4, true);
        byte[] bytes = Files.readAllBytes(file);
        ByteBuffer.wrap(bytes).putInt(JournalFormat.HEADER_BYTES, 0x7fff_fff0);
        Files.write(file, bytes);
        CorruptJournalException e = assertThrows(CorruptJournalException.class, () -> readAllowingCut(file));
        assertTrue(e.getMessage().contains("record length 2147483632 is outside"), e.getMessage());
    }
}
