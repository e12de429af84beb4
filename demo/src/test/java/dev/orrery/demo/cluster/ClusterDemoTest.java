package dev.orrery.demo.cluster;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.orrery.demo.Main;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The demo as a one-node cluster: worlds start, take inputs, journal them and are handed off on leaving. */
class ClusterDemoTest {
    @TempDir
    Path tmp;

    private final ByteArrayOutputStream out = new ByteArrayOutputStream();
    private final ByteArrayOutputStream err = new ByteArrayOutputStream();

    private int main(String... args) {
        return Main.execute(args, new PrintStream(out, true, StandardCharsets.UTF_8),
                new PrintStream(err, true, StandardCharsets.UTF_8), false);
    }

    @Test
    void aNodeRunsItsWorldsAcknowledgesInputsAndSnapshotsThemWhenItLeaves() throws Exception {
        Path store = tmp.resolve("worlds");
        int status = main("--cluster", "--cluster-port", "0", "--cluster-store", store.toString(), "--cluster-worlds", "2",
                "--cluster-seconds", "5", "--agents", "300", "--rate", "20");
        String text = out.toString(StandardCharsets.UTF_8);
        assertEquals(0, status, text + err.toString(StandardCharsets.UTF_8));
        assertTrue(text.contains("worlds_here=2"), text);
        assertTrue(text.matches("(?s).*inputs_acked=[1-9].*"), text);
        assertTrue(text.contains("leaving"), text);
        for (String world : new String[] {"arena-0", "arena-1"}) {
            try (var snapshots = Files.list(store.resolve(world).resolve("snapshots"))) {
                assertTrue(snapshots.findAny().isPresent(), world + " was snapshotted when the node left");
            }
            assertTrue(Files.exists(store.resolve(world).resolve("journal").resolve("1-0.journal")), world);
        }
    }

    @Test
    void clusterWithoutAStoreIsABadOption() {
        int status = main("--cluster", "--cluster-port", "0");
        assertEquals(2, status);
        assertTrue(err.toString(StandardCharsets.UTF_8).contains("--cluster-store"), err.toString(StandardCharsets.UTF_8));
    }
}
