package dev.orrery.engine.journal;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.code_intelligence.jazzer.junit.FuzzTest;
import dev.orrery.engine.CorruptJournalException;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.zip.CRC32C;

/**
 * Coverage-guided fuzzing of {@link JournalReader}, strict and allowing a cut: whatever the
 * bytes, the only outcome is the ticks of the journal or one {@link CorruptJournalException}
 * naming the file, in one line; never another exception, and never an allocation the bytes do
 * not back. Where both readings succeed they agree, and a strict reading that succeeds means a
 * clean close.
 *
 * <p>An input's first byte picks how the rest becomes a journal: even, as it is; odd, as a
 * header the harness writes (the byte's bit 1 sets the skip-tick flag) followed by records
 * whose length fields and bodies come from the input and whose checksums the harness computes,
 * so that the fuzzer reaches the checks behind the checksums. {@code mvn verify} runs the
 * committed corpus ({@code JournalReaderFuzzTestInputs/readJournal}); a longer run is
 * described in docs/design/engine-and-cluster.md.
 */
class JournalReaderFuzzTest {
    private static final Path FILE;

    static {
        try {
            FILE = Files.createTempFile("orrery-fuzz", ".journal");
            FILE.toFile().deleteOnExit();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    @FuzzTest(maxDuration = "10m")
    void readJournal(byte[] data) throws IOException {
        if (data.length == 0) {
            return;
        }
        Files.write(FILE, (data[0] & 1) == 0 ? Arrays.copyOfRange(data, 1, data.length) : framed(data));
        List<String> strict = read(false);
        List<String> allowingCut = read(true);
        if (strict != null) {
            assertEquals(strict, allowingCut, "a journal read strictly is read the same allowing a cut");
            assertEquals("closed", strict.get(strict.size() - 1));
        }
    }

    /** The ticks read (each as text), then "closed" or the cut; null when refused as corrupt. */
    private static List<String> read(boolean allowCut) throws IOException {
        List<String> ticks = new ArrayList<>();
        try (JournalReader r = allowCut ? JournalReader.openAllowingCut(FILE) : JournalReader.open(FILE)) {
            JournalTick t = new JournalTick();
            long last = Long.MIN_VALUE;
            while (r.nextTick(t)) {
                assertTrue(ticks.isEmpty() || t.tick() > last, "ticks increase");
                last = t.tick();
                ticks.add(t.tick() + ":" + t.inputs().size() + ":" + (t.hasHash() ? t.stateHash() : "-") + ":"
                        + (t.skipped() ? t.skippedSystem() : "-"));
            }
            assertFalse(r.nextTick(t), "the end stays the end");
            if (r.closedCleanly()) {
                ticks.add("closed");
            } else {
                assertTrue(allowCut, "only a reader allowing a cut ends without a clean close");
                assertNotNull(r.cut());
                assertTrue(r.cut().contains(FILE.toString()) && !r.cut().contains("\n"), r.cut());
                ticks.add("cut");
            }
            return ticks;
        } catch (CorruptJournalException e) {
            assertTrue(e.getMessage().contains(FILE.toString()) && !e.getMessage().contains("\n"), e.getMessage());
            assertTrue(e.offset() >= 0 && e.offset() <= Files.size(FILE), e.getMessage());
            return null;
        }
    }

    /**
     * A header the harness writes, then records from {@code data[1..]}: each an {@code int}
     * length and that many body bytes, followed by the checksum the harness computes; a
     * length that does not fit what is left ends the walk, and the rest goes in as it is.
     */
    static byte[] framed(byte[] data) {
        ByteArrayOutputStream out = new ByteArrayOutputStream(data.length + 64);
        CRC32C crc = new CRC32C();
        ByteBuffer header = ByteBuffer.allocate(JournalFormat.HEADER_BYTES).putLong(JournalFormat.MAGIC)
                .putInt(JournalFormat.VERSION).putInt((data[0] & 2) != 0 ? JournalFormat.FLAG_SKIP_TICK : 0);
        crc.update(header.array(), 0, JournalFormat.HEADER_BYTES - 4);
        header.putInt((int) crc.getValue());
        out.writeBytes(header.array());
        int pos = 1;
        while (pos + 4 <= data.length) {
            int length = ByteBuffer.wrap(data, pos, 4).getInt();
            if (length < 0 || length > JournalFormat.MAX_BODY || pos + 4 + length > data.length) {
                break;
            }
            crc.reset();
            crc.update(data, pos, 4 + length);
            out.write(data, pos, 4 + length);
            out.writeBytes(ByteBuffer.allocate(4).putInt((int) crc.getValue()).array());
            pos += 4 + length;
        }
        out.write(data, pos, data.length - pos);
        return out.toByteArray();
    }
}
