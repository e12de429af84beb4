package dev.orrery.examples.javadoc;

import dev.orrery.ecs.ChunkView;
import dev.orrery.ecs.Query;
import dev.orrery.ecs.World;
import dev.orrery.ecs.component.Component;
import dev.orrery.ecs.component.Field;
import dev.orrery.engine.CounterRandom;
import dev.orrery.engine.InputBatch;
import dev.orrery.engine.InputPipeline;
import dev.orrery.engine.InputRecorder;
import dev.orrery.engine.JournalInputSource;
import dev.orrery.engine.RandomCursor;
import dev.orrery.engine.RunRecorder;
import dev.orrery.engine.Simulation;
import dev.orrery.scheduler.ResourceKey;
import dev.orrery.scheduler.Resources;
import dev.orrery.scheduler.ScheduleExecutor;
import java.io.IOException;
import java.nio.file.Path;
import java.util.function.Consumer;

/**
 * The Javadoc examples of package {@code dev.orrery.engine}, as compiled code: each method holds
 * one type's example verbatim, with the variables it takes for granted as parameters. See
 * {@code JavadocExamplesTest}.
 */
final class EngineExamples {
    record Position(float x, float y, float z) {}
    record Velocity(float x, float y, float z) {}

    /** A command from a client, as a game server's network code hands it over. */
    record Command(int client, int type, byte[] payload) {}

    /** A game server's network side: calls its handlers from its own threads. */
    interface Server {
        void onCommand(Consumer<Command> handler);
    }

    /** An input type: a move, 12 bytes of payload. */
    static final int MOVE = 1;
    static final int WANDER_STREAM = CounterRandom.stream("wander");

    private EngineExamples() {
    }

    /** {@link InputPipeline}, driven by hand (a {@link Simulation} does the tick thread's part itself). */
    static void inputPipeline(InputRecorder journal, int clientId, byte[] bytes, long tick, World world) {
        InputPipeline inputs = InputPipeline.builder()
                .ringSize(4096).maxPayloadBytes(64)
                .recorder(journal)                   // an InputRecorder; RunRecorder.start gives it a journal file
                .build();
        // network threads:
        boolean taken = inputs.tryPublish(clientId, MOVE, bytes, 0, 12);   // false: the ring is full, reply "busy"
        // tick thread, each tick:
        InputBatch batch = inputs.beginTick(tick);   // systems read batch during the tick
        inputs.recordHash(tick, world.stateHash());  // every N ticks
        // at shutdown, on the tick thread:
        inputs.close();
        System.out.println(taken + ": " + batch);
    }

    /** {@link JournalInputSource}, driving a schedule's executor by hand. */
    static void journalInputSource(Path path, Resources resources, ResourceKey<InputBatch> INPUTS,
            ScheduleExecutor executor, World world) throws IOException {
        try (JournalInputSource replay = JournalInputSource.open(path)) {
            while (replay.hasNextTick()) {
                long tick = replay.nextTick();
                resources.put(INPUTS, replay.beginTick(tick));   // the tick's recorded inputs, for the systems
                executor.run();
                replay.recordHash(tick, world.stateHash()); // throws ReplayDivergenceException on a mismatch
            }
        }
    }

    /** {@link JournalInputSource#resumeAt}, for a simulation restored from a snapshot of the recorded run. */
    static void journalInputSourceResumed(Simulation restored, byte[] snapshot, JournalInputSource journal) {
        restored.restore(snapshot);                               // taken at tick T of the recorded run
        journal.resumeAt(restored.currentTick(), restored.world().stateHash());
        restored.inputs(journal);                                 // ticks T, T+1... with their recorded inputs
    }

    /** {@link RandomCursor}, in a job's body. */
    static void randomCursor(CounterRandom random, ChunkView chunk, long tick, Field velX, Field velY) {
        long[] ids = chunk.entities();
        float[] vx = chunk.writeFloats(velX), vy = chunk.writeFloats(velY);
        RandomCursor rng = random.cursor();            // once per job
        for (int i = 0; i < chunk.size(); i++) {
            rng.reset(tick, ids[i], WANDER_STREAM);     // per entity
            vx[i] += rng.nextFloat() - 0.5f;
            vy[i] += rng.nextFloat() - 0.5f;
        }
    }

    /** {@link RunRecorder}. */
    static void runRecorder(Simulation sim, Path dir, Server server) throws IOException {
        try (RunRecorder rec = RunRecorder.start(sim, dir, InputPipeline.builder().ringSize(4096))) {
            server.onCommand(c -> rec.inputs().tryPublish(c.client(), c.type(), c.payload(), 0, c.payload().length));
            sim.run(1000, 60.0);   // inputs published meanwhile, from any thread, are journaled with their tick
        }
    }

    /** {@link Simulation}. */
    static void simulation(World world, Query moving, Component<Position> pos, Component<Velocity> vel, Field px,
            Field vx) {
        Simulation sim = Simulation.builder(world).seed(42).workers(4)
            .systems(s -> s.system("move").query(moving).reads(vel).writes(pos)
                .readsResource(Simulation.CLOCK).forEachChunk(job -> {
                    float dt = job.resource(Simulation.CLOCK).dt();
                    float[] x = job.chunk().writeFloats(px), v = job.chunk().readFloats(vx);
                    for (int i = 0; i < job.chunk().size(); i++) x[i] += v[i] * dt;
                }))
            .build();
        sim.run(600, 60.0);   // 600 ticks at 60 Hz
        sim.close();
    }
}
