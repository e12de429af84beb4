package dev.orrery.examples.book;

import dev.orrery.ecs.ReferenceCodec;
import dev.orrery.ecs.SnapshotException;
import dev.orrery.ecs.World;
import dev.orrery.ecs.WorldSnapshot;
import dev.orrery.ecs.component.Component;
import dev.orrery.ecs.component.Field;
import dev.orrery.engine.Durability;
import dev.orrery.engine.InputPipeline;
import dev.orrery.engine.JournalInputSource;
import dev.orrery.engine.ReplayDivergenceException;
import dev.orrery.engine.ResourceCodec;
import dev.orrery.engine.RunRecorder;
import dev.orrery.engine.RunReplayer;
import dev.orrery.engine.Simulation;
import dev.orrery.examples.ProgramArgs;
import dev.orrery.scheduler.EventKey;
import dev.orrery.scheduler.ResourceKey;
import java.io.DataInput;
import java.io.DataOutput;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;

/** The code of docs/snapshots-recording-replay.md. */
public final class SnapshotsChapter {
    private SnapshotsChapter() {}

    record Position(float x, float y) {}
    record Velocity(float x, float y) {}
    record Spawned(int wave) {}

    // snippet:codecs
    static final class Score { long points; }                   // state: it must survive a restore
    static final ResourceKey<Score> SCORE = ResourceKey.of("score", Score.class);

    static final ResourceCodec<Score> SCORE_CODEC = new ResourceCodec<>() {
        @Override
        public void write(Score s, DataOutput out) throws IOException {
            out.writeLong(s.points);
        }

        @Override
        public Score read(DataInput in) throws IOException {
            Score s = new Score();
            s.points = in.readLong();
            return s;
        }
    };
    // end:codecs

    record Hit(long target, int damage) {}
    static final EventKey<Hit> HITS = EventKey.of("hits", Hit.class);
    static final ResourceCodec<Hit> HIT_CODEC = new ResourceCodec<>() {
        @Override
        public void write(Hit h, DataOutput out) throws IOException {
            out.writeLong(h.target());
            out.writeInt(h.damage());
        }

        @Override
        public Hit read(DataInput in) throws IOException {
            return new Hit(in.readLong(), in.readInt());
        }
    };

    static final class Name {
        final String value;
        Name(String value) { this.value = value; }
        @Override public int hashCode() { return value.hashCode(); }       // value-based: it is hashed
        @Override public boolean equals(Object o) { return o instanceof Name n && n.value.equals(value); }
    }
    static final ReferenceCodec<Name> NAME_CODEC = new ReferenceCodec<>() {
        @Override
        public void write(Name n, DataOutput out) throws IOException {
            out.writeUTF(n.value);
        }

        @Override
        public Name read(DataInput in) throws IOException {
            return new Name(in.readUTF());
        }
    };

    // snippet:blueprint
    /** The same simulation, built the same way, every time: for a fresh run or a restore target. */
    static Simulation build(int workers, boolean populate) {
        World world = new World();
        Component<Position> pos = world.component(Position.class);    // same components, same order
        Component<Velocity> vel = world.component(Velocity.class);
        world.referenceComponent(Name.class);
        Field px = pos.field("x"), vx = vel.field("x");
        if (populate) {
            for (int i = 0; i < 1000; i++) world.spawn(new Position(i, 0), new Velocity(1, 0));
        }
        return Simulation.builder(world).seed(7).workers(workers)
                .resource(SCORE, new Score(), SCORE_CODEC)             // carried by snapshots
                .referenceCodec(Name.class, NAME_CODEC)               // for a reference component
                .events(HITS, HIT_CODEC)                              // events still unread
                .systems(s -> s.system("move").query(world.query().with(pos, vel).build())
                        .reads(vel).writes(pos).writesResource(SCORE).forEachChunk(job -> {
                            float[] x = job.chunk().writeFloats(px), v = job.chunk().readFloats(vx);
                            for (int i = 0; i < job.chunk().size(); i++) x[i] += v[i];
                            if (job.chunkOrdinal() == 0) job.resourceForWrite(SCORE).points++;
                        }))
                .build();
    }
    // end:blueprint

    /** A test's loop: each tick's inputs published to the recorder's pipeline, then the tick. */
    static void recordTickByTick() throws IOException {
        Path loop = Files.createTempDirectory("orrery-book-loop");
        Files.delete(loop);
        long recorded;
        // snippet:record-loop
        try (Simulation sim = build(2, true);
             RunRecorder recorder = RunRecorder.start(sim, loop, InputPipeline.builder())) {
            InputPipeline inputs = recorder.inputs();         // not the simulation's own source
            for (long tick = 0; tick < 100; tick++) {
                if (tick % 10 == 0) {                         // this tick's inputs (a test's script)
                    byte[] payload = ByteBuffer.allocate(4).putInt((int) tick).array();
                    if (!inputs.tryPublish(1, 1, payload, 0, payload.length)) {
                        throw new IllegalStateException("the input ring is full");
                    }
                }
                sim.tick();                                   // takes what was published before it
                assert sim.resources().get(Simulation.INPUTS).size() == (tick % 10 == 0 ? 1 : 0);
            }
            recorded = sim.world().stateHash();
        }                                                     // the journal holds each tick's inputs
        // end:record-loop
        try (Simulation fresh = build(1, false)) {
            RunReplayer.Result result = RunReplayer.replay(loop, fresh);
            if (result.ticks() != 100 || result.finalHash() != recorded || !result.closedCleanly()) {
                throw new AssertionError("the tick-by-tick recording replayed to " + result.ticks() + " ticks, hash "
                        + result.finalHash() + " (recorded " + recorded + ")");
            }
        }
        try (var files = Files.list(loop)) {
            for (Path f : files.toList()) Files.delete(f);
        }
        Files.delete(loop);
    }

    /** A simulation restored at tick 40 of a recorded run goes on with the journal's inputs of ticks 40 to 99. */
    static void resumeFromTheJournal() throws IOException {
        Path dir = Files.createTempDirectory("orrery-book-resume");
        Files.delete(dir);
        byte[] atTick40 = null;
        long recorded;
        try (Simulation sim = build(2, true);
             RunRecorder recorder = RunRecorder.start(sim, dir, InputPipeline.builder())) {
            for (long tick = 0; tick < 100; tick++) {
                if (tick == 40) atTick40 = sim.snapshot();
                recorder.inputs().tryPublish(1, 1, new byte[0], 0, 0);
                sim.tick();
            }
            recorded = sim.world().stateHash();
        }
        // snippet:resume
        try (Simulation restored = build(1, false);
             JournalInputSource journal = JournalInputSource.open(dir.resolve(RunRecorder.JOURNAL))) {
            restored.restore(atTick40);                       // taken at tick 40 of the recorded run
            journal.resumeAt(restored.currentTick(), restored.world().stateHash()); // past ticks 0 to 39
            restored.inputs(journal);
            while (journal.hasNextTick()) restored.tick();    // ticks 40 to 99, their recorded inputs
            journal.finish();
            assert restored.world().stateHash() == recorded;  // every recorded hash on the way checked
        }
        // end:resume
        try (Simulation restored = build(1, false);
             JournalInputSource journal = JournalInputSource.open(dir.resolve(RunRecorder.JOURNAL))) {
            restored.restore(atTick40);
            journal.resumeAt(restored.currentTick(), restored.world().stateHash());
            restored.inputs(journal);
            while (journal.hasNextTick()) restored.tick();
            if (restored.world().stateHash() != recorded || journal.hashesChecked() != 60) {
                throw new AssertionError("the run resumed at tick 40 ended with hash " + restored.world().stateHash()
                        + " after " + journal.hashesChecked() + " checked hashes (recorded " + recorded + ", 60)");
            }
        }
        byte[] otherRun;
        try (Simulation other = build(1, true)) {             // one more entity: another run's state
            other.world().spawn(new Position(-1, 0), new Velocity(1, 0));
            other.run(40, 0);
            otherRun = other.snapshot();
        }
        try (Simulation restored = build(1, false);
             JournalInputSource journal = JournalInputSource.open(dir.resolve(RunRecorder.JOURNAL))) {
            restored.restore(otherRun);
            journal.resumeAt(restored.currentTick(), restored.world().stateHash());
            throw new AssertionError("a snapshot of another run was resumed from");
        } catch (ReplayDivergenceException refused) {
            if (refused.tick() != 39 || !refused.getMessage().contains("not a snapshot of the recorded run")) {
                throw new AssertionError("another run's snapshot refused otherwise: " + refused.getMessage(), refused);
            }
        }
        try (var files = Files.list(dir)) {
            for (Path f : files.toList()) Files.delete(f);
        }
        Files.delete(dir);
    }

    public static void main(String[] args) throws Exception {
        ProgramArgs.atMost("SnapshotsChapter", args);
        // snippet:snapshot
        byte[] snapshot;
        long expected;
        try (Simulation sim = build(2, true)) {
            sim.run(50, 0);
            snapshot = sim.snapshot();              // world, next tick, seed, resources with codecs
            sim.run(50, 0);
            expected = sim.world().stateHash();
        }
        try (Simulation again = build(1, false)) { // a fresh, empty world: any worker count
            again.restore(snapshot);
            again.run(50, 0);
            assert again.world().stateHash() == expected;
        }
        // end:snapshot

        // snippet:world-snapshot
        World world = new World();
        Component<Position> pos = world.component(Position.class);
        world.spawn(new Position(1, 2));
        WorldSnapshot format = new WorldSnapshot();           // .codec(type, codec) for references
        byte[] bytes = format.write(world);
        World copy = new World();
        copy.component(Position.class);                       // register the same columns first
        format.read(bytes, copy);                             // checked whole before it touches copy
        // end:world-snapshot
        try {
            bytes[bytes.length - 1] ^= 1;
            format.read(bytes, new World());
            throw new AssertionError("a damaged snapshot was read");
        } catch (SnapshotException expectedFailure) {
            // the checksum caught it
        }

        Path dir = Files.createTempDirectory("orrery-book-run");
        Files.delete(dir);
        // snippet:record
        try (Simulation sim = build(2, true);
             RunRecorder recording = RunRecorder.start(sim, dir, InputPipeline.builder().ringSize(4096),
                     Durability.interval(Duration.ofSeconds(1)))) {
            InputPipeline inputs = recording.inputs();        // publish here, from any thread
            if (!inputs.tryPublish(1, 1, new byte[0], 0, 0)) {
                throw new IllegalStateException("the input ring is full");
            }
            sim.run(200, 0);                                  // on this thread: the tick thread
        }                                                     // closing here writes the end record
        // end:record

        // snippet:replay
        try (Simulation fresh = build(4, false)) {            // another worker count is fine
            RunReplayer.Result result = RunReplayer.replay(dir, fresh);
            System.out.printf("%d ticks, %d hashes matched, final %016x%n",
                    result.ticks(), result.hashesChecked(), result.finalHash());
            if (!result.closedCleanly()) System.out.println("the recording was cut: " + result.cut());
        } catch (ReplayDivergenceException diverged) {
            System.out.println("tick " + diverged.tick() + ": " + diverged.detail());
        }
        // end:replay
        recordTickByTick();
        resumeFromTheJournal();
        try (Simulation fresh = build(1, false)) {
            RunReplayer.replay(dir, snapshot, fresh);         // from the tick-50 snapshot of another run
        } catch (ReplayDivergenceException expectedDivergence) {
            // the snapshot came from another run: fine either way
        }
        try (var files = Files.list(dir)) {
            for (Path f : files.toList()) Files.delete(f);
        }
        Files.delete(dir);
        System.out.println("snapshots chapter: ok");
    }
}
