package dev.orrery.cluster;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.orrery.cluster.protocol.InputReply;
import dev.orrery.cluster.protocol.WorldStatus;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * What a newcomer meets when a node is used wrongly, each answered at once with one message
 * that names the thing and the fix: settings no node could run with.
 */
class NodeMisuseTest {
    @Test
    void settingsNoNodeCouldRunWithAreRefusedNamingTheValue() {
        for (String seed : List.of("127.0.0.1:0", "127.0.0.1:99999")) {
            IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                    () -> NodeSettings.local(0, List.of(seed)));
            assertTrue(e.getMessage().contains("'" + seed + "'") && e.getMessage().contains("1 to 65535"),
                    e.getMessage());
        }
        IllegalArgumentException host = assertThrows(IllegalArgumentException.class,
                () -> new NodeSettings(" ", 0, List.of(), 30, 100, NodeSettings.Failover.fast(),
                        ClusterHarness.WORLDS, ""));
        assertTrue(host.getMessage().contains("cluster host is empty"), host.getMessage());
        IllegalArgumentException hocon = assertThrows(IllegalArgumentException.class,
                () -> NodeSettings.local(0, List.of()).withConfig("pekko.cluster {"));
        assertTrue(hocon.getMessage().contains("NodeSettings.extraConfig") && hocon.getMessage().contains("not HOCON"),
                hocon.getMessage());
        assertFalse(NodeSettings.local(0, List.of("127.0.0.1:25520")).seeds().isEmpty());
    }
}
