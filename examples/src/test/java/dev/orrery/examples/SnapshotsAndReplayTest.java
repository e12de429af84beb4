package dev.orrery.examples;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/**
 * A restored snapshot holds the state it was taken in, and the recording replays from its
 * start and from the half-way snapshot, on another worker count, to the recorded final hash.
 */
class SnapshotsAndReplayTest {
    private static final Pattern HASH = Pattern.compile("hash=([0-9a-f]{16})");

    @Test
    void shouldRestoreAndReplayToTheRecordedHashes() throws Exception {
        List<String> lines = Programs.run(SnapshotsAndReplay::main, "80");
        assertEquals(5, lines.size(), String.join("\n", lines));
        String halfWay = hash(lines.get(0)), recorded = hash(lines.get(1));
        assertNotEquals(halfWay, recorded, "the run goes on after the snapshot");
        assertEquals(halfWay, hash(lines.get(2)), "restored: " + lines.get(2));
        assertEquals(recorded, hash(lines.get(3)), "replayed from the start: " + lines.get(3));
        assertEquals(recorded, hash(lines.get(4)), "replayed from the snapshot: " + lines.get(4));
        assertTrue(lines.get(1).startsWith("recorded 80 ticks on 2 workers, 128 inputs"), lines.get(1));
        assertTrue(lines.get(3).startsWith("replayed 80 ticks from the start"), lines.get(3));
        assertTrue(lines.get(4).startsWith("replayed 40 ticks from the snapshot"), lines.get(4));
    }

    private static String hash(String line) {
        Matcher m = HASH.matcher(line);
        assertTrue(m.find(), line);
        return m.group(1);
    }
}
