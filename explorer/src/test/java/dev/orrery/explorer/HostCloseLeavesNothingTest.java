package dev.orrery.explorer;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.orrery.ecs.World;
import dev.orrery.ecs.component.Component;
import dev.orrery.engine.InputPipeline;
import dev.orrery.engine.RunRecorder;
import dev.orrery.engine.RunReplayer;
import dev.orrery.engine.Simulation;
import dev.orrery.engine.host.HostedWorld;
import dev.orrery.engine.host.WorldHost;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.nio.file.Path;
import java.util.Set;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * WorldHost x RunRecorder x Explorer: one hosted world recorded, another explored; closing the
 * host, then the recorder and the explorer on the thread that closed it, leaves no thread, no
 * listening port, and a recording that replays.
 */
@Timeout(value = 120, unit = TimeUnit.SECONDS)
class HostCloseLeavesNothingTest {
    record Pos(float x) {
    }

    private static Simulation world(boolean populate) {
        World world = new World();
        Component<Pos> pos = world.component(Pos.class);
        for (int i = 0; populate && i < 50; i++) {
            world.spawn(new Pos(i));
        }
        return Simulation.builder(world).seed(1).systems(s -> s.system("drift").query(world.query().with(pos).build())
                .writes(pos).forEachChunk(job -> { })).build();
    }

    /**
     * A recorded and explored world that fails: once it left its host as FAILED, nobody took it
     * back, and the host's close left its simulation open, bound to a pool thread that had
     * ended, so the recorder's close on the closing thread was refused (another thread than the
     * tick thread of an open simulation) and the journal thread ran on. The host's close now
     * closes the failed world's simulation too, so the same shutdown as for the worlds still
     * hosted (host, then recorder and explorer on that thread) leaves nothing behind.
     */
    @Test
    void closingTheHostAfterARecordedAndExploredWorldFailedLeavesNothingBehind(@TempDir Path dir) throws Exception {
        Set<String> before = HostedWorlds.threadNames();
        AtomicBoolean fail = new AtomicBoolean();
        World world = new World();
        Component<Pos> pos = world.component(Pos.class);
        for (int i = 0; i < 50; i++) {
            world.spawn(new Pos(i));
        }
        Simulation failing = Simulation.builder(world).seed(1).systems(s -> s.system("fragile")
                .query(world.query().with(pos).build()).writes(pos).forEachChunk(job -> {
                    if (fail.get()) {
                        throw new IllegalStateException("fragile fails");
                    }
                })).build();
        RunRecorder rec = RunRecorder.start(failing, dir, InputPipeline.builder());
        Explorer explorer;
        int port;
        WorldHost host = WorldHost.builder().threads(2).build();
        try {
            HostedWorld w = host.add("failing", failing, 200);
            explorer = attachOnItsTurn(w);
            port = explorer.port();
            assertEquals(200, new Client(explorer).getTicking("/api/query?q=Pos").statusCode());
            fail.set(true); // its next tick throws: the world leaves the host as FAILED
            assertThrows(ExecutionException.class, () -> w.done().get(30, TimeUnit.SECONDS));
            assertEquals(HostedWorld.State.FAILED, w.state());
        } finally {
            host.close(); // the failed world was never taken back
        }
        rec.close(); // as for a world closed with the host: on the thread that closed it
        explorer.close();

        assertEquals(Set.of(), HostedWorlds.awaitLeftOver(before), "threads left behind");
        try (ServerSocket again = new ServerSocket()) {
            again.bind(new InetSocketAddress(InetAddress.getLoopbackAddress(), port)); // free again
        }
    }

    @Test
    void closingTheHostWithARecordedAndAnExploredWorldLeavesNothingBehind(@TempDir Path dir) throws Exception {
        Set<String> before = HostedWorlds.threadNames();
        Simulation recorded = world(true);
        Simulation explored = world(true);
        RunRecorder rec = RunRecorder.start(recorded, dir, InputPipeline.builder());
        Explorer explorer;
        int port;
        WorldHost host = WorldHost.builder().threads(2).build();
        try {
            HostedWorld r = host.add("recorded", recorded, 200);
            HostedWorld e = host.add("explored", explored, 200);
            explorer = attachOnItsTurn(e);
            port = explorer.port();
            assertEquals(200, new Client(explorer).getTicking("/api/query?q=Pos").statusCode());
            long until = System.nanoTime() + 30_000_000_000L;
            while (recorded.currentTick() < 5 && System.nanoTime() < until) {
                Thread.sleep(10);
            }
            assertTrue(recorded.currentTick() >= 5, "the recorded world ticked");
        } finally {
            host.close(); // both still attached
        }
        rec.close(); // the closing thread is the worlds' tick thread now
        explorer.close();

        assertEquals(Set.of(), HostedWorlds.awaitLeftOver(before), "threads left behind");
        try (ServerSocket again = new ServerSocket()) {
            again.bind(new InetSocketAddress(InetAddress.getLoopbackAddress(), port)); // free again
        }
        try (Simulation fresh = world(false)) {
            RunReplayer.Result result = RunReplayer.replay(dir, fresh);
            assertTrue(result.closedCleanly(), "the recorder wrote its end record");
            assertEquals(recorded.lastHash(), result.finalHash());
        }
    }

    /** An explorer attached to hosted world {@code w} on its turn, on a free loopback port. */
    private static Explorer attachOnItsTurn(HostedWorld w) throws Exception {
        return w.call(s -> {
            try {
                return Explorer.attach(s, ExplorerOptions.loopback(0));
            } catch (IOException x) {
                throw new UncheckedIOException(x);
            }
        }).get(30, TimeUnit.SECONDS);
    }
}
