package dev.orrery.engine;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.orrery.ecs.World;
import dev.orrery.engine.journal.ClusterStoreLayout;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * What {@link RunReplayer} says of a folder that holds no recording: a cluster store's folder
 * (the cluster module's {@code DirectoryWorldStore} layout, recognised by its file names) is
 * named as one, with the tool that checks it, in one line; any other folder keeps the plain
 * refusal naming the missing starting snapshot.
 */
class ReplayFolderTest {
    @TempDir
    Path tmp;

    @Test
    void shouldNameTheClusterToolForAClusterStoresFolder() throws Exception {
        // once: "DIR/start.snapshot: the recording folder has no starting snapshot; replay a folder a recording wrote"
        Path store = tmp.resolve("store");
        Path world = store.resolve("arena-0");
        for (String d : new String[] {"epochs", "journal", "snapshots"}) { // DirectoryWorldStore's layout
            Files.createDirectories(world.resolve(d));
        }
        Files.writeString(world.resolve("epochs").resolve("1"), "");
        Files.writeString(world.resolve("journal").resolve("1-0.journal"), "");
        Files.writeString(world.resolve("snapshots").resolve("0-1.snapshot"), "");
        for (Path given : new Path[] {store, world, world.resolve("epochs"), world.resolve("journal"),
                world.resolve("snapshots")}) {
            NoSuchFileException e = assertThrows(NoSuchFileException.class, () -> RunReplayer.startSnapshot(given));
            String m = e.getMessage();
            assertTrue(m.startsWith(given + ": a cluster store's folder"), m);
            assertTrue(m.contains("WorldVerifier.verify") && m.contains("--cluster-verify --cluster-store DIR"), m);
            assertFalse(m.contains("\n") || m.contains("no starting snapshot"), m);
            try (Simulation fresh = Simulation.builder(new World()).seed(3).build()) {
                NoSuchFileException r = assertThrows(NoSuchFileException.class, () -> RunReplayer.replay(given, fresh));
                assertTrue(r.getMessage().startsWith(given + ": a cluster store's folder"), r.getMessage());
            }
        }
    }

    @Test
    void shouldNameTheClusterToolForAWorldOnlyClaimedOrNeverSnapshotted() throws Exception {
        // a world whose open failed after its claim holds epochs/ alone; one that crashed before its first
        // snapshot, epochs/ and journal/: both used to get the plain "no starting snapshot" refusal
        Path store = tmp.resolve("store");
        Path claimed = store.resolve("claimed-0");
        Files.createDirectories(claimed.resolve(ClusterStoreLayout.EPOCHS_FOLDER));
        Files.writeString(claimed.resolve(ClusterStoreLayout.EPOCHS_FOLDER).resolve("1"), "");
        Path unsnapshotted = tmp.resolve("other-store").resolve("crashed-0");
        Files.createDirectories(unsnapshotted.resolve(ClusterStoreLayout.EPOCHS_FOLDER));
        Files.createDirectories(unsnapshotted.resolve(ClusterStoreLayout.JOURNAL_FOLDER));
        Files.writeString(unsnapshotted.resolve(ClusterStoreLayout.EPOCHS_FOLDER).resolve("3"), "");
        Files.writeString(unsnapshotted.resolve(ClusterStoreLayout.JOURNAL_FOLDER).resolve("3-0.journal"), "");
        for (Path given : new Path[] {store, claimed, claimed.resolve(ClusterStoreLayout.EPOCHS_FOLDER),
                unsnapshotted.getParent(), unsnapshotted, unsnapshotted.resolve(ClusterStoreLayout.JOURNAL_FOLDER)}) {
            assertTrue(ClusterStoreLayout.isClusterStore(given), given.toString());
            NoSuchFileException e = assertThrows(NoSuchFileException.class, () -> RunReplayer.startSnapshot(given));
            assertTrue(e.getMessage().startsWith(given + ": a cluster store's folder"), e.getMessage());
            // a world only claimed keeps epochs/ alone: the message no longer says every world keeps all three
            assertTrue(e.getMessage().contains("each world keeps epochs/, a file per epoch claimed, and journal/ "
                    + "and snapshots/ once it has journaled a tick and stored a snapshot"), e.getMessage());
        }
    }

    @Test
    void shouldNotTakeAnEpochsFolderWithoutEpochFilesForAStore() throws Exception {
        Path dir = tmp.resolve("notes");
        Files.createDirectories(dir.resolve(ClusterStoreLayout.EPOCHS_FOLDER).resolve("7")); // a folder, not a file
        Files.writeString(dir.resolve(ClusterStoreLayout.EPOCHS_FOLDER).resolve("bronze-age.txt"), "");
        Files.createDirectories(dir.resolve(ClusterStoreLayout.JOURNAL_FOLDER));
        assertFalse(ClusterStoreLayout.isClusterStore(dir));
        NoSuchFileException e = assertThrows(NoSuchFileException.class, () -> RunReplayer.startSnapshot(dir));
        assertTrue(e.getMessage().contains("no starting snapshot"), e.getMessage());
        assertFalse(e.getMessage().contains("cluster"), e.getMessage());
    }

    @Test
    void shouldKeepThePlainRefusalForAFolderWithoutARecording() throws Exception {
        Path empty = Files.createDirectories(tmp.resolve("empty"));
        Files.createDirectories(empty.resolve("journal")); // one of a world's three folders is not a store
        NoSuchFileException e = assertThrows(NoSuchFileException.class, () -> RunReplayer.startSnapshot(empty));
        assertTrue(e.getMessage().startsWith(empty.resolve(RunRecorder.SNAPSHOT) + ": "), e.getMessage());
        assertTrue(e.getMessage().contains("no starting snapshot"), e.getMessage());
        assertFalse(e.getMessage().contains("cluster"), e.getMessage());
    }

    @Test
    void shouldNotTakeARecordingCutBeforeItsSnapshotForAStore() throws Exception {
        // a recording's folder that happens to hold folders of those names is still read as a recording
        Path rec = Files.createDirectories(tmp.resolve("rec"));
        for (String d : new String[] {"epochs", "journal", "snapshots"}) {
            Files.createDirectories(rec.resolve(d));
        }
        Files.writeString(rec.resolve(RunRecorder.JOURNAL), "");
        NoSuchFileException e = assertThrows(NoSuchFileException.class, () -> RunReplayer.startSnapshot(rec));
        assertTrue(e.getMessage().contains("no starting snapshot"), e.getMessage());
        assertFalse(e.getMessage().contains("cluster"), e.getMessage());
    }

    @Test
    void shouldNameTheWorkingFolderWhenARelativeFolderIsMissing() {
        // a golden recording kept at src/test/resources/golden/x replays under Maven, which runs tests in the
        // module's folder, and is 'not there' in an IDE that runs them from the project's root: the message
        // said only the relative path, not where it was looked for
        Path relative = Path.of("src", "test", "resources", "golden", "no-such-recording");
        NoSuchFileException e = assertThrows(NoSuchFileException.class, () -> RunReplayer.startSnapshot(relative));
        assertTrue(e.getMessage().contains("no recording folder there"), e.getMessage());
        assertTrue(e.getMessage().contains(relative.toAbsolutePath().toString()), e.getMessage());
        assertTrue(e.getMessage().contains("working folder"), e.getMessage());

        Path absolute = relative.toAbsolutePath();                   // an absolute path is named once, as it was
        NoSuchFileException a = assertThrows(NoSuchFileException.class, () -> RunReplayer.startSnapshot(absolute));
        assertFalse(a.getMessage().contains("working folder"), a.getMessage());
    }
}
