package dev.orrery.explorer;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.orrery.ecs.World;
import dev.orrery.engine.RunRecorder;
import dev.orrery.engine.Simulation;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * What {@link Timeline#ofRecording} says of a folder that holds no recording: a cluster
 * store's folder (the cluster module's {@code DirectoryWorldStore} layout) is named as one,
 * with the tool that checks it, in one line; any other folder gets the plain refusal.
 */
class TimelineFolderTest {
    @TempDir
    Path tmp;

    private static Simulation unused() {
        return Simulation.builder(new World()).seed(3).build();
    }

    @Test
    void shouldNameTheClusterToolForAClusterStoresFolder() throws Exception {
        // once: "no recording in ...: it has no snapshot.bin; start the RunRecorder before attaching ..."
        Path store = tmp.resolve("store");
        Path world = store.resolve("arena-0");
        for (String d : new String[] {"epochs", "journal", "snapshots"}) { // DirectoryWorldStore's layout
            Files.createDirectories(world.resolve(d));
        }
        Files.writeString(world.resolve("journal").resolve("1-0.journal"), "");
        Files.writeString(world.resolve("snapshots").resolve("0-1.snapshot"), "");
        for (Path given : new Path[] {store, world, world.resolve("journal"), world.resolve("snapshots")}) {
            IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                    () -> Timeline.ofRecording(given, TimelineFolderTest::unused));
            String m = e.getMessage();
            assertTrue(m.startsWith("no recording in " + given + ": this is a cluster store's folder"), m);
            assertTrue(m.contains("WorldVerifier") && m.contains("--cluster-verify --cluster-store DIR"), m);
            assertTrue(m.contains("each world keeps epochs/, a file per epoch claimed, and journal/ and snapshots/ "
                    + "once it has journaled a tick and stored a snapshot"), m); // the engine's one text
            assertFalse(m.contains("\n") || m.contains("start the RunRecorder"), m);
        }
    }

    @Test
    void shouldKeepThePlainRefusalForAFolderWithoutARecording() throws Exception {
        Path empty = Files.createDirectories(tmp.resolve("empty"));
        Files.createDirectories(empty.resolve("journal")); // one of the three folders is not a store
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> Timeline.ofRecording(empty, TimelineFolderTest::unused));
        assertTrue(e.getMessage().contains("it has no " + RunRecorder.SNAPSHOT), e.getMessage());
        assertFalse(e.getMessage().contains("cluster"), e.getMessage());
    }
}
