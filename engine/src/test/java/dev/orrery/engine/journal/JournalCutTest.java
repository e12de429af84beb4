package dev.orrery.engine.journal;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.orrery.engine.Durability;
import dev.orrery.engine.FailurePolicy;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A journal cut by a crash at any byte reads, with {@link JournalReader#openAllowingCut},
 * exactly the ticks whose end record lies before the cut, and reports the cut in one line.
 */
class JournalCutTest {
    @TempDir
    Path dir;

    @Test
    void shouldReadExactlyTheCompleteTicksBeforeACutAtEveryByte() throws IOException {
        Path file = dir.resolve("full.journal");
        try (JournalWriter w = JournalWriter.create(file, FailurePolicy.SKIP_TICK, Durability.NONE)) {
            for (int t = 0; t < 12; t++) {
                for (int i = 0; i < t % 3; i++) {
                    w.recordInput(t, i, i, 1, new byte[] {(byte) t, (byte) i}, 0, 2);
                }
                w.recordTickEnd(t, t % 3);
                if (t % 4 == 1) {
                    w.recordTickSkipped(t, "steer", t);
                }
                if (t % 2 == 0) {
                    w.recordTickHash(t, 1000L + t);
                }
            }
        }
        byte[] full = Files.readAllBytes(file);
        // where each tick's end record ends
        List<Long> tickEndEnds = new ArrayList<>();
        List<JournalTick> ticks = new ArrayList<>();
        try (JournalReader r = JournalReader.open(file)) {
            long previousOffset = -1;
            boolean lastWasEnd = false;
            while (r.nextRecord()) {
                if (lastWasEnd) {
                    tickEndEnds.add(r.recordOffset());
                }
                lastWasEnd = r.kind() == JournalRecordKind.TICK_END;
                previousOffset = r.recordOffset();
            }
            assertTrue(previousOffset > 0);
            if (lastWasEnd) {
                tickEndEnds.add(r.recordOffset()); // offset of the END record
            }
        }
        try (JournalReader r = JournalReader.open(file)) {
            JournalTick t = new JournalTick();
            while (r.nextTick(t)) {
                JournalTick c = new JournalTick();
                c.reset(t.tick());
                if (t.hasHash()) {
                    c.hash(t.stateHash());
                }
                if (t.skipped()) {
                    c.skipped(t.skippedSystem(), t.skippedChunk());
                }
                ticks.add(c);
            }
        }
        assertEquals(12, tickEndEnds.size());
        int endRecord = 4 + JournalFormat.END_BODY + 4;
        Path cut = dir.resolve("cut.journal");
        for (int length = 0; length <= full.length - endRecord; length++) {
            // zeros: space a power loss left unwritten (the header is forced when the file is created)
            for (int zeros : length < JournalFormat.HEADER_BYTES ? new int[] {0} : new int[] {0, 37}) {
                byte[] bytes = new byte[length + zeros];
                System.arraycopy(full, 0, bytes, 0, length);
                Files.write(cut, bytes);
                int complete = 0;
                while (complete < tickEndEnds.size() && tickEndEnds.get(complete) <= length) {
                    complete++;
                }
                String what = "cut at " + length + " + " + zeros + " zero bytes";
                try (JournalReader r = JournalReader.openAllowingCut(cut)) {
                    JournalTick t = new JournalTick();
                    int n = 0;
                    while (r.nextTick(t)) {
                        JournalTick e = ticks.get(n);
                        assertEquals(e.tick(), t.tick(), what);
                        assertEquals(n % 3, t.inputs().size(), what);
                        if (t.hasHash()) {
                            assertEquals(e.stateHash(), t.stateHash(), what);
                        }
                        assertEquals(e.skipped() && (t.skipped() || n == complete - 1), e.skipped(), what);
                        n++;
                    }
                    assertEquals(complete, n, what);
                    assertFalse(r.closedCleanly(), what);
                    assertNotNull(r.cut(), what);
                    assertTrue(r.cut().contains("without a clean close") && r.cut().contains(cut.toString())
                            && !r.cut().contains("\n"), r.cut());
                    assertFalse(r.nextTick(t), what);
                }
            }
        }
        try (JournalReader r = JournalReader.openAllowingCut(file)) {
            JournalTick t = new JournalTick();
            int n = 0;
            while (r.nextTick(t)) {
                n++;
            }
            assertEquals(12, n);
            assertTrue(r.closedCleanly());
            assertEquals(null, r.cut());
        }
    }
}
