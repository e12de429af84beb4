package dev.orrery.examples;

// snippet:program
import dev.orrery.ecs.*;
import dev.orrery.ecs.component.*;
import dev.orrery.engine.*;
import dev.orrery.scheduler.*;
import java.nio.file.*;

public final class HelloWorld {
    record Position(float x, float y) {}
    record Velocity(float dx, float dy) {}
    record Health(int hp) {}
    static final class Census { int alive; }
    static final ResourceKey<Census> CENSUS = ResourceKey.of("census", Census.class);

    /** The same simulation on any number of workers; {@code populate} is false for a restore target. */
    static Simulation build(int workers, boolean populate) {
        World world = new World();
        Component<Position> pos = world.component(Position.class);
        Component<Velocity> vel = world.component(Velocity.class);
        Component<Health> health = world.component(Health.class);
        Field x = pos.field("x"), y = pos.field("y"), dx = vel.field("dx"), dy = vel.field("dy"), hp = health.field("hp");
        Shape unit = world.shape(pos, vel, health);              // prepared once, spawned often
        for (int i = 0; populate && i < 20_000; i++) {
            unit.spawn(new Position(i, 0), new Velocity(1, i % 7 - 3), new Health(10 + i % 90));
        }
        Query moving = world.query().with(pos, vel).build();
        Query living = world.query().with(health).build();
        return Simulation.builder(world).workers(workers).seed(42).resource(CENSUS, new Census())
                .systems(s -> s
                        .system("move").query(moving).reads(vel).writes(pos).forEachChunk(job -> {
                            ChunkView c = job.chunk();                   // one chunk's arrays, checked against reads/writes
                            float[] px = c.writeFloats(x), py = c.writeFloats(y), vx = c.readFloats(dx), vy = c.readFloats(dy);
                            for (int i = 0; i < c.size(); i++) { px[i] += vx[i]; py[i] += vy[i]; }
                        })
                        .system("age").query(living).writes(health).readsResource(Simulation.CLOCK)
                        .despawns().spawns(pos, vel, health).forEachChunk(job -> {
                            ChunkView c = job.chunk();
                            int[] h = c.writeInts(hp);
                            long tick = job.resource(Simulation.CLOCK).tick();
                            CommandBuffer commands = job.commands();     // structural changes wait for the sync point
                            for (int i = 0; i < c.size(); i++) {
                                if (--h[i] > 0) continue;
                                commands.despawn(c.entity(i));
                                long child = commands.spawn(unit);
                                commands.set(child, vel, new Velocity(tick % 5 - 2, 1));
                                commands.set(child, health, new Health(100));
                            }
                        })
                        .system("census").after("age").exclusive((w, job) -> job.resourceForWrite(CENSUS).alive = w.entityCount()))
                .build();
    }

    public static void main(String[] args) throws Exception {
        if (args.length > 0) {                                           // it takes none: say so rather than ignore them
            System.err.println("HelloWorld: takes no arguments; got " + args.length + ": '" + String.join("' '", args) + "'");
            System.exit(2);
        }
        try (Simulation one = build(1, true)) {                          // the same world on 1 and 2 workers
            one.run(100, 0);                                               // 100 ticks, as fast as possible
            System.out.printf("1 worker:  alive=%d hash=%016x%n", one.resources().get(CENSUS).alive, one.world().stateHash());
        }
        Path recording = Files.createTempDirectory("hello-orrery");
        byte[] snapshot;
        try (Simulation two = build(2, true)) {
            RunRecorder recorder = RunRecorder.start(two, recording, InputPipeline.builder());   // inputs and hashes
            two.run(50, 0);
            snapshot = two.snapshot();                                     // the whole state at tick 50
            two.run(50, 0);
            recorder.close();
            System.out.printf("2 workers: alive=%d hash=%016x%n", two.resources().get(CENSUS).alive, two.world().stateHash());
        }
        try (Simulation restored = build(1, false)) {
            restored.restore(snapshot);
            restored.run(50, 0);
            System.out.printf("restored at tick 50, run to 100: hash=%016x%n", restored.world().stateHash());
        }
        try (Simulation replayed = build(1, false)) {                    // every recorded tick's hash is checked
            System.out.printf("replayed the recording: hash=%016x%n", RunReplayer.replay(recording, replayed).finalHash());
        }
        try (var files = Files.list(recording)) {                        // tidy up: a snapshot, a journal, hashes
            for (Path f : files.toList()) Files.delete(f);
        }
        Files.delete(recording);
    }
}
// end:program
