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

/**
 * The demo as a one-node cluster: worlds start, take inputs (answered accepted, refused or
 * unknown), journal them and are handed off on leaving; {@code --cluster-verify} then checks
 * the store against the journals; options a node would ignore are refused.
 */
class ClusterDemoTest {
    @TempDir
    Path tmp;

    private final ByteArrayOutputStream out = new ByteArrayOutputStream();
    private final ByteArrayOutputStream err = new ByteArrayOutputStream();

    private int main(String... args) {
        out.reset();
        err.reset();
        return Main.execute(args, new PrintStream(out, true, StandardCharsets.UTF_8),
                new PrintStream(err, true, StandardCharsets.UTF_8), false);
    }

    private String out() {
        return out.toString(StandardCharsets.UTF_8);
    }

    private String err() {
        return err.toString(StandardCharsets.UTF_8);
    }

    @Test
    void aNodeRunsItsWorldsAcceptsInputsSnapshotsThemWhenItLeavesAndTheStoreVerifies() throws Exception {
        Path store = tmp.resolve("worlds");
        int status = main("--cluster", "--cluster-port", "0", "--cluster-store", store.toString(), "--cluster-worlds", "2",
                "--cluster-seconds", "5", "--agents", "300", "--rate", "20");
        String text = out();
        assertEquals(0, status, text + err());
        assertTrue(text.contains("worlds_here=2"), text);
        assertTrue(text.matches("(?s).*inputs accepted=[1-9][0-9]* refused=0 unknown=[0-9]+.*"), text);
        assertTrue(text.contains("cluster: world arena-0 started fresh here (epoch 1)"), text);
        assertTrue(text.contains("moving = worlds that did not answer within 1 s"), "the line is explained: " + text);
        assertTrue(text.contains("it is the last node: its worlds stop with a snapshot"), text);
        for (String world : new String[] {"arena-0", "arena-1"}) {
            try (var snapshots = Files.list(store.resolve(world).resolve("snapshots"))) {
                assertTrue(snapshots.findAny().isPresent(), world + " was snapshotted when the node left");
            }
            assertTrue(Files.exists(store.resolve(world).resolve("journal").resolve("1-0.journal")), world);
        }
        assertTrue(Files.exists(store.resolve(ClusterDemo.BLUEPRINT_FILE)));

        assertEquals(0, main("--cluster-verify", "--cluster-store", store.toString()), out() + err());
        assertTrue(out().contains("verify: OK arena-0: replayed ticks from tick 0"), out());
        assertTrue(out().contains("verify: 2 of 2 worlds match their journals"), out());

        assertEquals(1, main("--cluster", "--cluster-port", "0", "--cluster-store", store.toString(), "--agents", "200",
                "--rate", "20"));
        assertTrue(err().contains("holds worlds built with --agents 300 --teams 2 --seed 42 --rate 20.0, not --agents 200"),
                err());
    }

    @Test
    void clusterWithoutAStoreIsABadOption() {
        int status = main("--cluster", "--cluster-port", "0");
        assertEquals(2, status);
        assertTrue(err().contains("--cluster-store"), err());
    }

    @Test
    void optionsANodeWouldIgnoreAreRefused() {
        assertEquals(2, main("--cluster", "--cluster-store", tmp.toString(), "--ticks", "100", "--port", "0"));
        assertTrue(err().contains("--cluster does not use --ticks (a node runs until Ctrl-C or --cluster-seconds); "
                + "--port (a node serves no TCP clients; its cluster port is --cluster-port); leave them out"), err());
        assertEquals(2, main("--cluster", "--cluster-store", tmp.toString(), "--explore", "0"));
        assertTrue(err().contains("--explore (the explorer shows one simulation"), err());
        assertEquals(2, main("--ticks", "10", "--cluster-store", tmp.toString()));
        assertTrue(err().contains("--cluster-store applies to --cluster (or --cluster-verify) only"), err());
        assertEquals(2, main("--cluster-verify", "--cluster-store", tmp.toString(), "--record", tmp.toString()));
        assertTrue(err().contains("--cluster-verify does not use --record"), err());
    }

    @Test
    void aStoreThatIsAFileOrATakenPortIsOneLineAndRecordsNothing() throws Exception {
        Path file = Files.writeString(tmp.resolve("afile"), "x");
        assertEquals(1, main("--cluster", "--cluster-port", "0", "--cluster-store", file.toString()));
        assertTrue(err().contains("--cluster-store " + file + " is a file, not a directory; give a directory"), err());
        try (java.net.ServerSocket taken = new java.net.ServerSocket(0, 1, java.net.InetAddress.getByName("127.0.0.1"))) {
            Path store = tmp.resolve("fresh");
            int port = taken.getLocalPort();
            assertEquals(1, main("--cluster", "--cluster-port", Integer.toString(port), "--cluster-store",
                    store.toString(), "--agents", "300"));
            assertTrue(err().contains("cluster port 127.0.0.1:" + port + " is in use (another node?); choose another "
                    + "--cluster-port"), err());
            assertEquals(1, err().strip().lines().count(), err());
            assertTrue(!Files.exists(store.resolve(ClusterDemo.BLUEPRINT_FILE)),
                    "a node that did not start records no arena options in the store");
        }
    }
}
