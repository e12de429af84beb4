package dev.orrery.examples.book;

import dev.orrery.ecs.ChunkView;
import dev.orrery.ecs.Query;
import dev.orrery.ecs.World;
import dev.orrery.ecs.component.Component;
import dev.orrery.ecs.component.Field;
import dev.orrery.engine.ChromeTrace;
import dev.orrery.engine.CounterRandom;
import dev.orrery.engine.FailurePolicy;
import dev.orrery.engine.InputBatch;
import dev.orrery.engine.InputPipeline;
import dev.orrery.engine.RandomCursor;
import dev.orrery.engine.Simulation;
import dev.orrery.examples.ProgramArgs;
import dev.orrery.scheduler.BatchDecision;
import dev.orrery.scheduler.JobObserver;
import dev.orrery.scheduler.ResourceKey;
import dev.orrery.scheduler.Schedule;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.atomic.AtomicLongArray;

/** The code of docs/the-simulation.md. */
public final class SimulationChapter {
    private SimulationChapter() {}

    record Position(float x, float y) {}
    record Velocity(float x, float y) {}
    record Player(int client) {}

    // snippet:input-types
    static final int MOVE = 1;                                    // a command type of your own
    static final int WANDER = CounterRandom.stream("wander");     // a random stream per purpose
    // end:input-types

    static final class Settings { float speed = 2; }
    static final ResourceKey<Settings> SETTINGS = ResourceKey.of("settings", Settings.class);

    static Simulation build(World world, InputPipeline inputs, int workers) {
        // snippet:build
        Simulation sim = Simulation.builder(world)
                .seed(42)                                  // keys the random source
                .workers(workers)                          // threads in all, the tick thread included
                .stepSeconds(1 / 60.0)                     // the fixed step
                .inputs(inputs)                            // where each tick's inputs come from
                .resource(SETTINGS, new Settings())        // your own resources
                .systems(s -> declare(s, world))           // the schedule
                .build();
        // end:build
        return sim;
    }

    static void declare(Schedule.Builder s, World world) {
        Component<Position> pos = world.component(Position.class);
        Component<Velocity> vel = world.component(Velocity.class);
        Component<Player> player = world.component(Player.class);
        Field px = pos.field("x"), py = pos.field("y"), vx = vel.field("x"), vy = vel.field("y");
        Field client = player.field("client");
        Query moving = world.query().with(pos, vel).build();
        Query players = world.query().with(player, vel).build();
        Query wanderers = world.query().with(pos, vel).without(player).build();
        // snippet:clock
        s.system("move").query(moving).reads(vel).writes(pos).readsResource(Simulation.CLOCK)
                .forEachChunk(job -> {
                    float dt = job.resource(Simulation.CLOCK).dt();      // the fixed step
                    ChunkView c = job.chunk();
                    float[] x = c.writeFloats(px), y = c.writeFloats(py);
                    float[] dx = c.readFloats(vx), dy = c.readFloats(vy);
                    for (int i = 0, n = c.size(); i < n; i++) {
                        x[i] += dx[i] * dt;
                        y[i] += dy[i] * dt;
                    }
                });
        // end:clock
        // snippet:read-inputs
        s.system("steer").query(players).reads(player).writes(vel).readsResource(Simulation.INPUTS)
                .forEachChunk(job -> {
                    InputBatch in = job.resource(Simulation.INPUTS);       // this tick's inputs
                    ChunkView c = job.chunk();
                    int[] owner = c.readInts(client);
                    float[] dx = c.writeFloats(vx), dy = c.writeFloats(vy);
                    for (int k = 0; k < in.size(); k++) {
                        if (in.type(k) != MOVE) continue;
                        for (int i = 0, n = c.size(); i < n; i++) {
                            if (owner[i] != in.client(k)) continue;
                            dx[i] = in.payloadFloat(k, 0);                 // big-endian, at byte 0
                            dy[i] = in.payloadFloat(k, 4);
                        }
                    }
                });
        // end:read-inputs
        // snippet:random
        s.system("wander").query(wanderers).writes(vel).readsResource(Simulation.RANDOM, Simulation.CLOCK)
                .forEachChunk(job -> {
                    CounterRandom random = job.resource(Simulation.RANDOM);
                    long tick = job.resource(Simulation.CLOCK).tick();
                    RandomCursor rng = random.cursor();                     // one per job
                    ChunkView c = job.chunk();
                    long[] ids = c.entities();
                    float[] dx = c.writeFloats(vx), dy = c.writeFloats(vy);
                    for (int i = 0, n = c.size(); i < n; i++) {
                        rng.reset(tick, ids[i], WANDER);                     // per entity
                        dx[i] += rng.nextFloat() - 0.5f;
                        dy[i] += rng.nextFloat() - 0.5f;
                    }
                });
        // end:random
    }

    public static void main(String[] args) throws Exception {
        ProgramArgs.atMost("SimulationChapter", args);
        World world = new World();
        for (int i = 0; i < 10_000; i++) {
            world.spawn(new Position(i, 0), new Velocity(0, 0));
        }
        world.spawn(new Position(0, 0), new Velocity(0, 0), new Player(7));
        int clientId = 7;
        float vx = 3, vy = -1;
        // snippet:inputs
        InputPipeline inputs = InputPipeline.builder()
                .ringSize(4096)                            // inputs waiting, a power of two
                .maxPayloadBytes(16)
                .build();
        Simulation sim = build(world, inputs, 2);          // .inputs(inputs) on the builder

        byte[] payload = ByteBuffer.allocate(8).putFloat(vx).putFloat(vy).array();
        boolean taken = inputs.tryPublish(clientId, MOVE, payload, 0, payload.length);   // any thread
        if (!taken) {
            // the ring is full: tell the client "busy"; nothing was queued
        }
        // end:inputs

        // snippet:run
        sim.run(600, 60.0);                                // ten seconds of a 60 Hz game
        long ran = sim.tick();                             // or one tick at a time: tick 600
        long upNext = sim.currentTick();                   // 601
        // end:run

        // snippet:observe
        System.out.print(BatchDecision.toText(sim.batching()));   // how each system is split
        List<String> names = sim.schedule().systemNames();
        AtomicLongArray busy = new AtomicLongArray(names.size());
        sim.observeJobs(new JobObserver() {                // on the workers: keep it short
            @Override
            public void jobRan(int worker, int system, int from, int to, long start, long end) {
                busy.addAndGet(system, end - start);
            }
        });
        sim.atEndOfTick((tick, nanos) -> {                 // the tick thread, no job running
            if (tick % 60 == 0) System.out.println(names.get(0) + ": " + busy.get(0) / 1000 + " us");
        });
        // end:observe
        sim.run(120, 0);
        sim.observeJobs(null);
        sim.atEndOfTick(null);

        // snippet:trace
        ChromeTrace trace = sim.newTrace(4096);            // up to 4096 jobs a worker
        sim.trace(trace);
        sim.run(10, 0);
        sim.trace(null);
        trace.write(Path.of("ticks.json"));                // open in Perfetto
        // end:trace
        Files.deleteIfExists(Path.of("ticks.json"));
        sim.close();
        inputs.close();

        // snippet:failure
        Simulation server = Simulation.builder(new World())
                .onSystemFailure(FailurePolicy.SKIP_TICK)  // a throwing system costs a tick
                .watchdog(10, (tick, nanos, system, job) ->  // a tick still running after 10 steps
                        System.err.printf("tick %d: %d ms in %s (%s)%n", tick, nanos / 1_000_000,
                                system, job))
                .systems(s -> s.system("flaky").exclusive(w -> {
                    if (w.entityCount() == 0) throw new IllegalStateException("empty");
                }))
                .build();
        server.failureListener((tick, failure, first) -> {
            if (first) System.err.println("skipped tick " + tick + ": " + failure.getMessage());
        });
        server.run(3, 0);
        long skipped = server.skippedTicks();              // 3
        // end:failure
        server.close();
        if (!taken || ran != 600 || upNext != 601 || skipped != 3) {
            throw new AssertionError(ran + " " + upNext + " " + skipped);
        }
        System.out.println("simulation chapter: ok");
    }
}
