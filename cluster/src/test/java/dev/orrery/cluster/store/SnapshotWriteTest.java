package dev.orrery.cluster.store;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.orrery.engine.journal.ClusterStoreLayout;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@link DirectoryWorldStore#writeSnapshot}'s promise to a crash: a reader sees all of a
 * snapshot or none of it. A writer killed part-way leaves only its temporary file, which
 * {@link DirectoryWorldStore#snapshots} never lists, and which a later write deletes once it
 * is an hour old (a live write's temporary, younger, is left alone).
 */
class SnapshotWriteTest {
    @Test
    void aSnapshotCutByACrashIsNeverListedAndItsTemporaryIsDeletedOnceStale(@TempDir Path tmp) throws Exception {
        DirectoryWorldStore store = new DirectoryWorldStore(tmp);
        long epoch = store.claim("w-1");
        Path folder = Files.createDirectories(tmp.resolve("w-1").resolve(ClusterStoreLayout.SNAPSHOTS_FOLDER));
        Path stale = Files.write(folder.resolve("writing-111.tmp"), new byte[] {1, 2}); // a writer killed long ago
        Files.setLastModifiedTime(stale, FileTime.from(Instant.now().minus(Duration.ofHours(2))));
        Path live = Files.write(folder.resolve("writing-222.tmp"), new byte[] {3}); // a write under way elsewhere
        assertEquals(List.of(), store.snapshots("w-1"), "a cut write is no snapshot");

        byte[] bytes = {4, 5, 6};
        store.writeSnapshot("w-1", epoch, 30, bytes);
        assertEquals(List.of(new SnapshotInfo(30, epoch)), store.snapshots("w-1"));
        assertArrayEquals(bytes, store.readSnapshot("w-1", new SnapshotInfo(30, epoch)));
        assertFalse(Files.exists(stale), "the temporary of a writer killed over an hour ago is deleted");
        assertTrue(Files.exists(live), "a temporary younger than an hour may be a live write's, and stays");
        try (var files = Files.list(folder)) {
            assertEquals(2, files.count(), "the snapshot and the live temporary, no temporary of its own");
        }
    }
}
