package dev.orrery.examples;

import dev.orrery.ecs.ChunkView;
import dev.orrery.ecs.World;
import dev.orrery.ecs.component.Component;
import dev.orrery.ecs.component.Field;
import dev.orrery.engine.Durability;
import dev.orrery.engine.InputBatch;
import dev.orrery.engine.InputPipeline;
import dev.orrery.engine.RunRecorder;
import dev.orrery.engine.RunReplayer;
import dev.orrery.engine.Simulation;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.stream.Stream;

/**
 * Snapshots and replays: a run of ships steered by players' inputs is recorded (a starting
 * snapshot, the inputs each tick took and a state hash every tick), snapshotted half-way and
 * restored into a new simulation, then replayed from the start and from the half-way snapshot
 * on another number of workers. Every replayed tick's hash is checked against the recording,
 * so the replays end on the recorded hash. Run it with a tick count ({@code 200} by default).
 */
public final class SnapshotsAndReplay {
    record Ship(int player) {}
    record Position(float x, float y) {}
    record Velocity(float dx, float dy) {}

    static final int PLAYERS = 8;
    /** The one input type: a player's thrust, two big-endian floats. */
    static final int THRUST = 1;

    private SnapshotsAndReplay() {
    }

    /** The same simulation every time; {@code populate} is false for a restore or replay target. */
    static Simulation build(int workers, boolean populate) {
        World world = new World();
        Component<Ship> ship = world.component(Ship.class);
        Component<Position> pos = world.component(Position.class);
        Component<Velocity> vel = world.component(Velocity.class);
        Field player = ship.field("player"), x = pos.field("x"), y = pos.field("y");
        Field dx = vel.field("dx"), dy = vel.field("dy");
        for (int p = 0; populate && p < PLAYERS; p++) {
            world.spawn(new Ship(p), new Position(p * 10, 0), new Velocity(0, 0));
        }
        // snippet:systems
        return Simulation.builder(world).workers(workers).seed(11)
                .systems(s -> s
                        // this tick's inputs are a resource, stamped with the tick that took them
                        .system("thrust").query(world.query().with(ship, vel).build()).reads(ship).writes(vel)
                        .readsResource(Simulation.INPUTS)
                        .forEachChunk(job -> {
                            InputBatch inputs = job.resource(Simulation.INPUTS);
                            ChunkView c = job.chunk();
                            int[] owner = c.readInts(player);
                            float[] vx = c.writeFloats(dx), vy = c.writeFloats(dy);
                            for (int k = 0; k < inputs.size(); k++) {
                                for (int i = 0; i < c.size(); i++) {
                                    if (inputs.type(k) == THRUST && inputs.client(k) == owner[i]) {
                                        vx[i] += inputs.payloadFloat(k, 0);   // bytes 0..3 of the payload
                                        vy[i] += inputs.payloadFloat(k, 4);
                                    }
                                }
                            }
                        })
                        .system("move").query(world.query().with(pos, vel).build()).reads(vel).writes(pos)
                        .forEachChunk(job -> {
                            ChunkView c = job.chunk();
                            float[] px = c.writeFloats(x), py = c.writeFloats(y);
                            float[] vx = c.readFloats(dx), vy = c.readFloats(dy);
                            for (int i = 0; i < c.size(); i++) {
                                px[i] += vx[i];
                                py[i] += vy[i];
                            }
                        }))
                .build();
        // end:systems
    }

    // snippet:publish
    /** What the players do before tick {@code tick}: each steers now and then. */
    static void play(InputPipeline inputs, long tick) {
        for (int p = 0; p < PLAYERS; p++) {
            if ((tick + p) % 5 == 0) {
                byte[] thrust = ByteBuffer.allocate(8).putFloat(p % 3 - 1).putFloat(0.5f).array();
                if (!inputs.tryPublish(p, THRUST, thrust, 0, thrust.length)) {   // any thread may publish
                    throw new IllegalStateException("the input ring is full");
                }
            }
        }
    }
    // end:publish

    public static void main(String[] args) throws IOException {
        ProgramArgs.atMost("SnapshotsAndReplay", args, "ticks");
        int ticks = ProgramArgs.number("SnapshotsAndReplay", args, 0, "ticks", 200, 2, 1_000_000);
        Path recording = Files.createTempDirectory("orrery-recording");
        try {
            run(ticks, recording);
        } finally {
            try (Stream<Path> files = Files.list(recording)) {   // a snapshot, a journal and column hashes
                for (Path f : files.toList()) {
                    Files.delete(f);
                }
            }
            Files.delete(recording);
        }
    }

    private static void run(int ticks, Path recording) throws IOException {
        byte[] halfWay = null;
        // snippet:record
        try (Simulation live = build(2, true);
             RunRecorder recorder = RunRecorder.start(live, recording, InputPipeline.builder(), Durability.NONE)) {
            for (int t = 0; t < ticks; t++) {
                play(recorder.inputs(), t);                   // published before the tick that takes them
                live.tick();
                if (t == ticks / 2 - 1) {
                    halfWay = live.snapshot();                // the whole state after this tick
                    System.out.printf("snapshot after tick %d: hash=%016x%n", t, live.world().stateHash());
                }
            }
            System.out.printf("recorded %d ticks on 2 workers, %d inputs: hash=%016x%n", ticks,
                    recorder.inputs().acceptedCount(), live.world().stateHash());
        }
        // end:record
        // snippet:restore
        try (Simulation restored = build(1, false)) {         // same code, no entities: a restore target
            restored.restore(halfWay);
            System.out.printf("restored into a new simulation at tick %d: hash=%016x%n", restored.currentTick(),
                    restored.world().stateHash());
        }
        // end:restore
        // snippet:replay
        try (Simulation fromStart = build(1, false); Simulation fromHalfWay = build(1, false)) {
            RunReplayer.Result all = RunReplayer.replay(recording, fromStart);          // throws at a divergence
            RunReplayer.Result half = RunReplayer.replay(recording, halfWay, fromHalfWay);
            System.out.printf("replayed %d ticks from the start on 1 worker: hash=%016x%n", all.ticks(),
                    all.finalHash());
            System.out.printf("replayed %d ticks from the snapshot on 1 worker: hash=%016x%n", half.ticks(),
                    half.finalHash());
        }
        // end:replay
    }
}
