package dev.orrery.cluster.world;

import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.orrery.cluster.DriftWorldAccess;
import dev.orrery.cluster.store.DirectoryWorldStore;
import dev.orrery.cluster.store.JournalSegment;
import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A journal that lost its last ticks while a snapshot of a later tick is stored is damage, not
 * a crash (a node journals a tick before it stores a snapshot of it): the verifier says so
 * instead of reporting the shorter history as verified.
 */
class VerifierDamageTest {
    private static final String WORLD = "cut";
    private static final WorldBlueprint BLUEPRINT = new DriftWorldAccess().blueprint();

    @Test
    void shouldRefuseAJournalThatEndsBeforeAStoredSnapshot(@TempDir Path dir) throws IOException {
        DirectoryWorldStore store = new DirectoryWorldStore(dir);
        WorldRuntime w = WorldRuntime.open(WORLD, store, BLUEPRINT, WorldSettings.defaults().withSnapshotEvery(1_000));
        for (int t = 1; t <= 60; t++) {
            w.offer(9, t, 1, DriftWorldAccess.PUSH, DriftWorldAccess.push(t));
            w.tick();
        }
        w.close(); // the hand-off snapshot of tick 60, in the journal's one segment
        assertTrue(WorldVerifier.verify(store, WORLD, BLUEPRINT).ok(), "whole, it verifies");
        List<JournalSegment> segments = store.segments(WORLD);
        try (FileChannel journal = FileChannel.open(segments.get(segments.size() - 1).path(), StandardOpenOption.WRITE)) {
            journal.truncate(journal.size() / 2); // the tail of the history lost
        }
        IOException e = assertThrows(IOException.class, () -> WorldVerifier.verify(store, WORLD, BLUEPRINT));
        assertTrue(e.getMessage().contains("its journal ends at tick") && e.getMessage().contains("snapshot of tick 60")
                && e.getMessage().contains("are lost; the store is damaged"), e.getMessage());
    }
}
