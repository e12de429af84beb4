package dev.orrery.examples.book;

import dev.orrery.ecs.World;
import dev.orrery.ecs.component.Component;
import dev.orrery.ecs.component.Field;
import dev.orrery.engine.FailurePolicy;
import dev.orrery.engine.InputPipeline;
import dev.orrery.engine.RunRecorder;
import dev.orrery.engine.RunReplayer;
import dev.orrery.engine.Simulation;
import dev.orrery.engine.host.HostedWorld;
import dev.orrery.engine.host.TickStats;
import dev.orrery.engine.host.WorldHost;
import dev.orrery.examples.ProgramArgs;
import dev.orrery.explorer.Explorer;
import dev.orrery.explorer.ExplorerOptions;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;

/** The code of docs/many-worlds-and-the-cluster.md. */
public final class ManyWorldsChapter {
    private ManyWorldsChapter() {}

    record Position(float x, float y) {}
    record Velocity(float x, float y) {}

    // snippet:blueprint
    /** One world's simulation, built the same way alone, on a host or on any node. */
    static Simulation match(String worldId, boolean populate) {
        World world = new World();
        Component<Position> pos = world.component(Position.class);
        Component<Velocity> vel = world.component(Velocity.class);
        Field px = pos.field("x"), vx = vel.field("x");
        if (populate) {
            for (int i = 0; i < 2000; i++) world.spawn(new Position(i, 0), new Velocity(1, 0));
        }
        return Simulation.builder(world)
                .seed(worldId.hashCode())                    // String.hashCode is fixed by the language
                .onSystemFailure(FailurePolicy.SKIP_TICK)    // a bad tick costs this world one tick
                .systems(s -> s.system("move").query(world.query().with(pos, vel).build())
                        .reads(vel).writes(pos).forEachChunk(job -> {
                            float[] x = job.chunk().writeFloats(px), v = job.chunk().readFloats(vx);
                            for (int i = 0; i < job.chunk().size(); i++) x[i] += v[i];
                        }))
                .build();                                     // workers(1): no threads of its own
    }
    // end:blueprint

    /** The threads named orrery-... started since {@code before} still alive once {@code patience} passed, or none. */
    static List<String> orreryThreadsSince(Set<Thread> before, Duration patience) throws InterruptedException {
        long until = System.nanoTime() + patience.toNanos();
        while (true) {
            List<String> alive = Thread.getAllStackTraces().keySet().stream()
                    .filter(t -> !before.contains(t) && t.isAlive() && t.getName().startsWith("orrery-"))
                    .map(Thread::getName).sorted().toList();
            if (alive.isEmpty() || System.nanoTime() > until) {
                return alive;
            }
            Thread.sleep(20);
        }
    }

    public static void main(String[] args) throws Exception {
        ProgramArgs.atMost("ManyWorldsChapter", args);
        Map<String, byte[]> store = new ConcurrentHashMap<>();
        // snippet:host
        try (WorldHost host = WorldHost.builder().threads(2).build()) {   // one pool for every world
            List<HostedWorld> worlds = new ArrayList<>();
            for (int m = 0; m < 12; m++) {
                String id = "match-" + m;
                worlds.add(host.add(id, match(id, true), 30.0));        // 30 ticks/s each
            }
            HostedWorld first = worlds.get(0);
            CompletableFuture<Void> saved = first.call(Simulation::snapshot)   // on its tick thread
                    .thenAccept(bytes -> store.put(first.name(), bytes));
            Thread.sleep(500);
            TickStats stats = first.stats();                             // ticks, overruns, lag p50/p99
            System.out.printf("%s: %d ticks, lag p99 %.2f ms%n", first.name(), stats.ticks(),
                    stats.lagP99Nanos() / 1e6);
            saved.join();                                                // before it leaves, or the call fails
            Simulation back = first.remove().join();                     // after its tick in progress
            back.bindTickThread();                                       // ours again, on this thread
            back.close();
        }                                                                // closes the worlds still hosted
        // end:host

        Path recording = Files.createTempDirectory("hosted-arena").resolve("run");
        long recordedHash;
        Set<Thread> threadsBefore = Set.copyOf(Thread.getAllStackTraces().keySet());
        // snippet:hosted-tools
        try (WorldHost host = WorldHost.builder().threads(2).build()) {
            Simulation arena = match("arena-1", true);
            RunRecorder recorder = RunRecorder.start(arena, recording, InputPipeline.builder());   // before add
            HostedWorld w = host.add("arena-1", arena, 30.0);
            Explorer explorer = w.call(sim -> {                          // attached on its tick thread
                try {
                    return Explorer.attach(sim, ExplorerOptions.loopback(0));
                } catch (IOException e) {
                    throw new UncheckedIOException(e);                   // attach's checked exception
                }
            }).join();
            System.out.println("explorer at " + explorer.url());
            recorder.inputs().tryPublish(1, 1, new byte[0], 0, 0);      // clients publish here, any thread
            Thread.sleep(300);
            Simulation back = w.remove().join();                         // shutting down: off the host first,
            back.bindTickThread();
            explorer.close();                                            // then its tools on this thread,
            recorder.close();                                            // the journal's end record written,
            recordedHash = back.world().stateHash();
            back.close();                                                // and the simulation last
        }
        // end:hosted-tools
        List<String> leftOver = orreryThreadsSince(threadsBefore, Duration.ofSeconds(30));
        if (!leftOver.isEmpty()) {
            throw new AssertionError("threads left running after the hosted world's shutdown: " + leftOver);
        }
        try (Simulation fresh = match("arena-1", false)) {
            RunReplayer.Result replayed = RunReplayer.replay(recording, fresh);
            if (!replayed.closedCleanly() || replayed.finalHash() != recordedHash || replayed.ticks() < 1) {
                throw new AssertionError("the hosted recording did not replay: " + replayed);
            }
            System.out.printf("hosted arena-1 replayed: %d ticks, hash %016x%n", replayed.ticks(), replayed.finalHash());
        }
        try (var files = Files.list(recording)) {                        // tidy up the recording
            for (Path f : files.toList()) Files.delete(f);
        }
        Files.delete(recording);
        Files.delete(recording.getParent());

        // snippet:staggered
        try (WorldHost host = WorldHost.builder().threads(2).earlyStart(Duration.ofMillis(1)).build()) {
            InputPipeline inputs = InputPipeline.builder().build();      // each world keeps its own inputs
            Simulation zone = match("zone-3", true);
            zone.inputs(inputs);
            HostedWorld w = host.add("zone-3", zone, 20.0,
                    100, Duration.ofMillis(25));                         // 100 ticks, the first in 25 ms
            Simulation done = w.done().join();                          // FINISHED after tick 100
            done.bindTickThread();
            System.out.println(w.state() + " at tick " + done.currentTick());
            done.close();
            inputs.close();
        }
        // end:staggered
        if (store.isEmpty()) {
            throw new AssertionError("the snapshot call on match-0 saved nothing before the world left");
        }
        System.out.println("many worlds chapter: ok");
    }
}
