package dev.orrery.examples.newcomer;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import dev.orrery.ecs.ChunkView;
import dev.orrery.ecs.World;
import dev.orrery.ecs.component.Component;
import dev.orrery.ecs.component.Field;
import dev.orrery.engine.InputBatch;
import dev.orrery.engine.InputPipeline;
import dev.orrery.engine.ResourceCodec;
import dev.orrery.engine.RunRecorder;
import dev.orrery.engine.RunReplayer;
import dev.orrery.engine.Simulation;
import dev.orrery.engine.host.HostedWorld;
import dev.orrery.engine.host.WorldHost;
import dev.orrery.explorer.Explorer;
import dev.orrery.explorer.ExplorerOptions;
import dev.orrery.scheduler.ResourceKey;
import java.io.DataInput;
import java.io.DataOutput;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.BooleanSupplier;
import java.util.function.Supplier;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A headless game server written as a newcomer would, from the README, the book and the
 * examples only: three matches on one {@link WorldHost} at 60 ticks a second, a client thread
 * feeding each match moves through its input pipeline (the recorded match through its
 * recorder's), the explorer opened on one hosted match and read over HTTP, everything shut
 * down with no thread or port left behind, and the recorded match replayed to its hash.
 */
class ServerNewcomerTest {
    record Position(float x, float y) {}
    record Player(int client) {}

    static final int MOVE = 1;
    static final int PLAYERS = 4;
    static final int MOVES_PER_MATCH = 240;
    static final Duration PATIENCE = Duration.ofSeconds(60);   // a loaded machine is slow, never this slow

    static final ResourceKey<Score> SCORE = ResourceKey.of("score", Score.class);

    /** Moves applied so far and the sum of their steps: state kept across ticks, so it has a codec. */
    static final class Score {
        long moves;
        long steps;
    }

    static final ResourceCodec<Score> SCORE_CODEC = new ResourceCodec<>() {
        @Override
        public void write(Score s, DataOutput out) throws IOException {
            out.writeLong(s.moves);
            out.writeLong(s.steps);
        }

        @Override
        public Score read(DataInput in) throws IOException {
            Score s = new Score();
            s.moves = in.readLong();
            s.steps = in.readLong();
            return s;
        }
    };

    /** One match, built the same way for the host and for the replay ({@code populate} false). */
    static Simulation match(String id, boolean populate) {
        World world = new World();
        Component<Position> pos = world.component(Position.class);
        Component<Player> player = world.component(Player.class);
        Field x = pos.field("x"), y = pos.field("y"), client = player.field("client");
        if (populate) {
            for (int c = 1; c <= PLAYERS; c++) world.spawn(new Position(0, 0), new Player(c));
        }
        return Simulation.builder(world).seed(id.hashCode())
                .resource(SCORE, new Score(), SCORE_CODEC)
                .systems(s -> s.system("steer").query(world.query().with(pos, player).build())
                        .reads(player).writes(pos).readsResource(Simulation.INPUTS).writesResource(SCORE)
                        .forEachChunk(job -> {
                            InputBatch in = job.resource(Simulation.INPUTS);
                            ChunkView c = job.chunk();
                            int[] owner = c.readInts(client);
                            float[] px = c.writeFloats(x), py = c.writeFloats(y);
                            for (int k = 0; k < in.size(); k++) {
                                if (in.type(k) != MOVE) continue;
                                int dx = in.payloadInt(k, 0), dy = in.payloadInt(k, 4);
                                for (int i = 0; i < c.size(); i++) {
                                    if (owner[i] != in.client(k)) continue;
                                    px[i] += dx;
                                    py[i] += dy;
                                }
                                if (job.chunkOrdinal() == 0) {
                                    Score score = job.resourceForWrite(SCORE);
                                    score.moves++;
                                    score.steps += dx + dy;
                                }
                            }
                        }))
                .build();                                            // workers(1): the host's thread runs it
    }

    @Test
    void shouldHostFeedRecordExploreStopCleanlyAndReplay(@TempDir Path dir) throws Exception {
        Set<Thread> before = Set.copyOf(Thread.getAllStackTraces().keySet());
        Path recording = dir.resolve("match-0");
        long recordedHash;
        long recordedTicks;
        int explorerPort;
        String summary;
        Map<String, Long> expectedSteps = new ConcurrentHashMap<>();
        List<String> running;

        try (WorldHost host = WorldHost.builder().threads(2).build()) {
            // match-0 is recorded: the recorder is started before add, and its pipeline is the one to feed
            Simulation recorded = match("match-0", true);
            RunRecorder recorder = RunRecorder.start(recorded, recording, InputPipeline.builder());
            List<HostedWorld> matches = new ArrayList<>();
            List<InputPipeline> pipelines = new ArrayList<>();
            matches.add(host.add("match-0", recorded, 60.0));
            pipelines.add(recorder.inputs());
            for (int m = 1; m < 3; m++) {
                InputPipeline inputs = InputPipeline.builder().build();
                Simulation sim = match("match-" + m, true);
                sim.inputs(inputs);
                matches.add(host.add("match-" + m, sim, 60.0));
                pipelines.add(inputs);
            }

            // a client thread: moves for every match, spread over a few ticks' worth of time
            AtomicReference<Throwable> clientFailure = new AtomicReference<>();
            Thread clientThread = new Thread(() -> {
                try {
                    for (int k = 0; k < MOVES_PER_MATCH; k++) {
                        for (int m = 0; m < matches.size(); m++) {
                            int dx = k % 3, dy = (k + m) % 2;
                            byte[] payload = ByteBuffer.allocate(8).putInt(dx).putInt(dy).array();
                            long deadline = System.nanoTime() + PATIENCE.toNanos();
                            while (!pipelines.get(m).tryPublish(1 + k % PLAYERS, MOVE, payload, 0, payload.length)) {
                                if (System.nanoTime() > deadline) throw new IllegalStateException("ring stayed full");
                                Thread.sleep(1);                     // the ring is full: wait for a tick to take some
                            }
                            expectedSteps.merge(matches.get(m).name(), (long) (dx + dy), Long::sum);
                        }
                        if (k % 40 == 0) Thread.sleep(5);
                    }
                } catch (Throwable t) {
                    clientFailure.set(t);
                }
            }, "newcomer-client");
            clientThread.start();

            // the explorer on match-1, attached on its tick thread through call
            HostedWorld explored = matches.get(1);
            Explorer explorer = explored.call(sim -> {
                try {
                    return Explorer.attach(sim, ExplorerOptions.loopback(0).withRequestTimeout(Duration.ofSeconds(30)));
                } catch (IOException e) {
                    throw new UncheckedIOException(e);
                }
            }).get(PATIENCE.toSeconds(), TimeUnit.SECONDS);
            explorerPort = explorer.port();
            HttpResponse<String> reply = HttpClient.newHttpClient().send(
                    HttpRequest.newBuilder(URI.create(explorer.url() + "api/summary")).timeout(PATIENCE).build(),
                    HttpResponse.BodyHandlers.ofString());
            assertEquals(200, reply.statusCode(), reply.body());
            summary = reply.body();

            clientThread.join(PATIENCE.toMillis());
            assertTrue(!clientThread.isAlive(), "the client thread did not finish");
            if (clientFailure.get() != null) throw new AssertionError("client failed", clientFailure.get());

            // every match takes every move (on some coming tick): wait for that, read on its tick thread
            for (HostedWorld w : matches) {
                waitFor(() -> w.call(sim -> sim.resources().get(SCORE).moves).join() == MOVES_PER_MATCH,
                        () -> w.name() + " to take all " + MOVES_PER_MATCH + " moves");
                long steps = w.call(sim -> sim.resources().get(SCORE).steps).join();   // read there, not the object
                assertEquals(expectedSteps.get(w.name()), steps, w.name() + " steps");
                assertTrue(w.failure().isEmpty(), w.name() + " failed: " + w.failure());
            }
            running = leftovers(before);

            explored.call(sim -> {
                explorer.close();                                 // on the tick thread, as the book says
                return null;
            }).get(PATIENCE.toSeconds(), TimeUnit.SECONDS);

            // the recorded match leaves the host; its recorder closes on the thread that took it back
            try (Simulation back = matches.get(0).remove().get(PATIENCE.toSeconds(), TimeUnit.SECONDS)) {
                back.bindTickThread();
                recordedTicks = back.currentTick();
                recordedHash = back.world().stateHash();
                recorder.close();
            }
            assertEquals(HostedWorld.State.REMOVED, matches.get(0).state());
            assertTrue(matches.get(1).stats().ticks() > 0, "match-1 ticked");
            host.close();                                         // closes match-1 and match-2
            for (int m = 1; m < pipelines.size(); m++) pipelines.get(m).close();
            assertEquals(HostedWorld.State.CLOSED, matches.get(2).state());
        }

        assertTrue(summary.contains("\"entities\":" + PLAYERS), summary);
        assertTrue(summary.contains("steer"), summary);

        // nothing left running: the port binds again and no thread we started is alive
        assertTrue(running.size() >= 3, "the host's pool, the journal and the explorer ran threads: " + running);
        try (ServerSocket again = new ServerSocket()) {
            again.bind(new InetSocketAddress(InetAddress.getLoopbackAddress(), explorerPort));
            assertEquals(explorerPort, again.getLocalPort());
        }
        waitFor(() -> leftovers(before).isEmpty(), () -> "threads to end: " + leftovers(before));

        // the recording replays to the hash the hosted run reached
        try (Simulation fresh = match("match-0", false)) {
            RunReplayer.Result result = RunReplayer.replay(recording, fresh);
            assertTrue(result.closedCleanly(), result.cut());
            assertEquals(recordedTicks, result.ticks());
            assertEquals(recordedHash, result.finalHash());
            assertTrue(result.hashesChecked() >= recordedTicks, "hashes checked " + result.hashesChecked());
            assertEquals(MOVES_PER_MATCH, fresh.resources().get(SCORE).moves);
            assertEquals(expectedSteps.get("match-0"), fresh.resources().get(SCORE).steps);
        }
    }

    /** Threads alive now that were not before the test, less the JDK's HTTP client and common pool. */
    private static List<String> leftovers(Set<Thread> before) {
        return Thread.getAllStackTraces().keySet().stream()
                .filter(t -> !before.contains(t) && t.isAlive())
                .map(Thread::getName)
                .filter(n -> !n.startsWith("HttpClient-") && !n.startsWith("ForkJoinPool.commonPool"))
                .sorted().collect(Collectors.toList());
    }

    private static void waitFor(BooleanSupplier condition, Supplier<String> what) throws InterruptedException {
        long deadline = System.nanoTime() + PATIENCE.toNanos();
        while (!condition.getAsBoolean()) {
            if (System.nanoTime() > deadline) fail("waited " + PATIENCE.toSeconds() + " s for " + what.get());
            Thread.sleep(20);
        }
    }
}
