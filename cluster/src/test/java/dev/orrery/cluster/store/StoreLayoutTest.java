package dev.orrery.cluster.store;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.orrery.engine.RunReplayer;
import dev.orrery.engine.journal.ClusterStoreLayout;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The engine tells a cluster store's folder by file names only ({@link ClusterStoreLayout}, which
 * the engine's replayer, the explorer's timeline and the demo's {@code --replay} share); this
 * pins that rule to the folders a {@link DirectoryWorldStore} really writes, so a change of the
 * store's layout shows here rather than as the plain "no starting snapshot" refusal again.
 */
class StoreLayoutTest {
    @Test
    void shouldBeRecognisedByTheEnginesRuleInEveryFolderItWrites(@TempDir Path tmp) throws Exception {
        DirectoryWorldStore store = new DirectoryWorldStore(tmp.resolve("store"));
        long epoch = store.claim("arena-0");
        store.writeSnapshot("arena-0", epoch, 0, new byte[] {1, 2, 3});
        Files.write(store.newSegment("arena-0", epoch, 0), new byte[0]);
        Path world = store.root().resolve("arena-0");
        for (Path given : new Path[] {store.root(), world, world.resolve("epochs"), world.resolve("journal"),
                world.resolve("snapshots")}) {
            assertTrue(Files.isDirectory(given), given + " is one of the store's folders");
            assertTrue(ClusterStoreLayout.isClusterStore(given), given.toString());
            NoSuchFileException e = assertThrows(NoSuchFileException.class, () -> RunReplayer.startSnapshot(given));
            assertTrue(e.getMessage().contains("cluster store") && e.getMessage().contains("WorldVerifier.verify"),
                    e.getMessage());
        }
        assertFalse(ClusterStoreLayout.isClusterStore(tmp), "the folder above the store is not the store");
    }

    @Test
    void shouldBeRecognisedForAWorldOnlyClaimedOrNeverSnapshotted(@TempDir Path tmp) throws Exception {
        // a world whose open failed after its claim (a blueprint that cannot snapshot) has epochs/ alone, one
        // that crashed before its first periodic snapshot epochs/ and journal/: both got the plain refusal
        DirectoryWorldStore store = new DirectoryWorldStore(tmp.resolve("store"));
        store.claim("claimed-0");
        Path claimed = store.root().resolve("claimed-0");
        DirectoryWorldStore other = new DirectoryWorldStore(tmp.resolve("other"));
        Files.write(other.newSegment("crashed-0", other.claim("crashed-0"), 0), new byte[0]);
        Path crashed = other.root().resolve("crashed-0");
        for (Path given : new Path[] {store.root(), claimed, claimed.resolve(ClusterStoreLayout.EPOCHS_FOLDER),
                other.root(), crashed, crashed.resolve(ClusterStoreLayout.EPOCHS_FOLDER),
                crashed.resolve(ClusterStoreLayout.JOURNAL_FOLDER)}) {
            assertTrue(Files.isDirectory(given), given + " is one of the store's folders");
            assertTrue(ClusterStoreLayout.isClusterStore(given), given.toString());
            NoSuchFileException e = assertThrows(NoSuchFileException.class, () -> RunReplayer.startSnapshot(given));
            assertTrue(e.getMessage().contains("cluster store"), e.getMessage());
        }
        assertFalse(Files.exists(claimed.resolve(ClusterStoreLayout.JOURNAL_FOLDER)), "only claimed");
        assertFalse(Files.exists(crashed.resolve(ClusterStoreLayout.SNAPSHOTS_FOLDER)), "never snapshotted");
    }
}
