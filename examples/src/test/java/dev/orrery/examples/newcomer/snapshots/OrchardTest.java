package dev.orrery.examples.newcomer.snapshots;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.orrery.ecs.ReferenceCodec;
import dev.orrery.ecs.SnapshotException;
import dev.orrery.ecs.World;
import dev.orrery.ecs.component.Component;
import dev.orrery.ecs.component.Field;
import dev.orrery.engine.CorruptJournalException;
import dev.orrery.engine.InputBatch;
import dev.orrery.engine.InputPipeline;
import dev.orrery.engine.ResourceCodec;
import dev.orrery.engine.RunRecorder;
import dev.orrery.engine.RunReplayer;
import dev.orrery.engine.Simulation;
import dev.orrery.scheduler.EventKey;
import dev.orrery.scheduler.Phase;
import dev.orrery.scheduler.ResourceKey;
import java.io.DataInput;
import java.io.DataOutput;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.Arrays;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * An orchard written from docs/snapshots-recording-replay.md only: a gardener plants named
 * trees through inputs (a reference component with a codec), trees grow fruit, ripe fruit is
 * picked by a deferred set and announced as an event, and a harvest resource with a codec
 * tallies the events in a later phase. One {@link #build} makes a fresh run and a restore
 * target alike. Snapshots are taken mid-run and restored into fresh simulations on 1, 2 and 4
 * workers; a run is recorded and replayed from its start and from a snapshot it took.
 */
class OrchardTest {
    record Position(float x, float y) {}
    record Tree(int fruit) {}
    record Picked(long tree, int fruit) {}

    static final class Name {
        final String value;
        Name(String value) { this.value = value; }
        @Override public int hashCode() { return value.hashCode(); }
        @Override public boolean equals(Object o) { return o instanceof Name n && n.value.equals(value); }
    }

    static final ReferenceCodec<Name> NAME_CODEC = new ReferenceCodec<>() {
        @Override public void write(Name n, DataOutput out) throws IOException { out.writeUTF(n.value); }
        @Override public Name read(DataInput in) throws IOException { return new Name(in.readUTF()); }
    };

    static final class Harvest { long fruit; long picks; }
    static final ResourceKey<Harvest> HARVEST = ResourceKey.of("harvest", Harvest.class);
    static final ResourceCodec<Harvest> HARVEST_CODEC = new ResourceCodec<>() {
        @Override public void write(Harvest h, DataOutput out) throws IOException {
            out.writeLong(h.fruit);
            out.writeLong(h.picks);
        }
        @Override public Harvest read(DataInput in) throws IOException {
            Harvest h = new Harvest();
            h.fruit = in.readLong();
            h.picks = in.readLong();
            return h;
        }
    };
    static final EventKey<Picked> PICKED = EventKey.of("picked", Picked.class);

    static final int GARDENER = 1, PLANT = 1, TICKS = 90;

    /** The same orchard, built the same way every time: for a fresh run or a restore target. */
    static Simulation build(int workers, boolean populate) {
        return build(workers, populate, 11, "pick", true);
    }

    /** The orchard with a seed, a name for its picking system, and whether it keeps a harvest: its variants. */
    static Simulation build(int workers, boolean populate, long seed, String pick, boolean harvest) {
        World world = new World();
        Component<Position> pos = world.component(Position.class);
        Component<Tree> tree = world.component(Tree.class);
        Component<Name> name = world.referenceComponent(Name.class);
        Field fruit = tree.field("fruit");
        if (populate) {
            for (int i = 0; i < 300; i++) world.spawn(new Position(i, 0), new Tree(i % 5));
        }
        var builder = Simulation.builder(world).seed(seed).workers(workers);
        if (harvest) builder.resource(HARVEST, new Harvest(), HARVEST_CODEC);
        else builder.resource(HARVEST, new Harvest());
        return builder
                .referenceCodec(Name.class, NAME_CODEC)
                .systems(s -> {
                    s.system("plant").inPhase(Phase.PRE_UPDATE).readsResource(Simulation.INPUTS)
                            .spawns(pos, tree, name).forEachRange(() -> 1, (job, from, to) -> {
                                InputBatch in = job.resource(Simulation.INPUTS);
                                for (int k = 0; k < in.size(); k++) {
                                    if (in.client(k) != GARDENER || in.type(k) != PLANT) continue;
                                    byte[] text = new byte[in.payloadLength(k)];
                                    in.copyPayload(k, text, 0);
                                    long t = job.commands().spawn();
                                    job.commands().add(t, pos, new Position(-k, in.tick()));
                                    job.commands().add(t, tree, new Tree(0));
                                    job.commands().add(t, name, new Name(new String(text, StandardCharsets.UTF_8)));
                                }
                            });
                    s.system("grow").query(world.query().with(tree).build()).writes(tree).forEachChunk(job -> {
                        int[] f = job.chunk().writeInts(fruit);
                        for (int i = 0; i < job.chunk().size(); i++) f[i]++;
                    });
                    s.system(pick).after("grow").query(world.query().with(tree).build()).reads(tree)
                            .setsLater(tree).writesEvents(PICKED).forEachChunk(job -> {
                                int[] f = job.chunk().readInts(fruit);
                                for (int i = 0; i < job.chunk().size(); i++) {
                                    if (f[i] < 7) continue;
                                    long e = job.chunk().entity(i);
                                    job.send(PICKED, new Picked(e, f[i]));
                                    job.commands().set(e, tree, new Tree(0));
                                }
                            });
                    s.system("tally").inPhase(Phase.POST_UPDATE).readsEvents(PICKED).writesResource(HARVEST)
                            .exclusive((w, ctx) -> {
                                Harvest h = ctx.resourceForWrite(HARVEST);
                                ctx.events(PICKED).forEach(p -> {
                                    h.fruit += p.fruit();
                                    h.picks++;
                                });
                            });
                }).build();
    }

    /** The gardener's inputs: a named tree every seventh tick. */
    static void tickTo(Simulation sim, InputPipeline inputs, long until) {
        while (sim.currentTick() < until) {
            long tick = sim.currentTick();
            if (tick % 7 == 3) {
                byte[] text = ("tree-" + tick).getBytes(StandardCharsets.UTF_8);
                assertTrue(inputs.tryPublish(GARDENER, PLANT, text, 0, text.length), "the input ring is full");
            }
            sim.tick();
        }
    }

    record End(long hash, long fruit, long picks, long named) {}

    static End end(Simulation sim) {
        Harvest h = sim.resources().get(HARVEST);
        World w = sim.world();
        long[] named = {0};
        Component<Name> name = w.referenceComponent(Name.class);
        w.query().with(name).build().forEachReadOnly((view, row) -> {
            assertTrue(w.get(view.entity(row), name).value.startsWith("tree-"));
            named[0]++;
        });
        return new End(w.stateHash(), h.fruit, h.picks, named[0]);
    }

    static End straightRun(int workers) {
        try (Simulation sim = build(workers, true); InputPipeline inputs = InputPipeline.builder().build()) {
            sim.inputs(inputs);
            tickTo(sim, inputs, TICKS);
            return end(sim);
        }
    }

    @Test
    void aStraightRunIsTheSameOnOneTwoAndFourWorkers() {
        End one = straightRun(1);
        assertEquals(one, straightRun(2));
        assertEquals(one, straightRun(4));
        assertEquals(13, one.named(), "a tree planted at ticks 3, 10, ..., 87");
        assertTrue(one.picks() > 300, "every tree was picked at least once: " + one.picks());
    }

    @Test
    void aSnapshotTakenMidRunRestoresIntoAFreshOrchardOnAnyWorkerCount() {
        End straight = straightRun(1);
        byte[] snapshot;
        try (Simulation sim = build(2, true); InputPipeline inputs = InputPipeline.builder().build()) {
            sim.inputs(inputs);
            tickTo(sim, inputs, 40);
            snapshot = sim.snapshot();
            assertEquals(11, Simulation.snapshotSeed(snapshot));
            tickTo(sim, inputs, TICKS);
            assertEquals(straight, end(sim), "taking a snapshot changes nothing");
        }
        for (int workers : new int[] {1, 2, 4}) {
            try (Simulation again = build(workers, false); InputPipeline inputs = InputPipeline.builder().build()) {
                again.restore(snapshot);
                assertEquals(40, again.currentTick());
                again.inputs(inputs);                               // a new pipeline for the restored run
                tickTo(again, inputs, TICKS);
                assertEquals(straight, end(again), workers + " workers");
            }
        }
    }

    @Test
    void aRecordingReplaysOnOtherWorkerCountsFromItsStartAndFromASnapshotItTook(@TempDir Path tmp) throws IOException {
        Path dir = tmp.resolve("run");
        byte[] atTick50;
        End recorded;
        try (Simulation sim = build(2, true); RunRecorder recorder = RunRecorder.start(sim, dir, InputPipeline.builder())) {
            tickTo(sim, recorder.inputs(), 50);
            atTick50 = sim.snapshot();
            tickTo(sim, recorder.inputs(), TICKS);
            recorded = end(sim);
        }
        assertEquals(straightRun(4), recorded, "recording changes nothing");
        for (int workers : new int[] {1, 4}) {
            try (Simulation fresh = build(workers, false)) {
                RunReplayer.Result r = RunReplayer.replay(dir, fresh);
                assertEquals(TICKS, r.ticks());
                assertEquals(recorded.hash(), r.finalHash());
                assertTrue(r.closedCleanly());
                assertTrue(r.hashesChecked() > 0, "hashes were checked");
                assertEquals(recorded, end(fresh));
            }
            try (Simulation fresh = build(workers, false)) {
                RunReplayer.Result r = RunReplayer.replay(dir, atTick50, fresh);
                assertEquals(TICKS - 50, r.ticks());
                assertEquals(recorded, end(fresh));
            }
        }
    }

    @Test
    void aRestoreIsRefusedWhenTheSimulationIsNotNewAndTheSimulationStaysAsItWas() {
        byte[] snapshot;
        try (Simulation sim = build(1, true)) {
            sim.tick();
            snapshot = sim.snapshot();
        }
        try (Simulation populated = build(1, true)) {
            long before = populated.world().stateHash();
            SnapshotException e = assertThrows(SnapshotException.class, () -> populated.restore(snapshot));
            assertTrue(e.getMessage().contains("Restore into a new World"), e.getMessage());
            assertEquals(before, populated.world().stateHash());
        }
    }

    /** Records {@link #TICKS} ticks of the orchard into {@code dir}; returns the final hash. */
    static long record(Path dir) throws IOException {
        try (Simulation sim = build(2, true); RunRecorder recorder = RunRecorder.start(sim, dir, InputPipeline.builder())) {
            tickTo(sim, recorder.inputs(), TICKS);
            return sim.world().stateHash();
        }
    }

    /** A copy of the recording in {@code from}, one file replaced by {@code damage} (or removed, for null). */
    static Path damaged(Path from, Path to, String file, byte[] damage) throws IOException {
        Files.createDirectories(to);
        try (var files = Files.list(from)) {
            for (Path f : files.toList()) Files.copy(f, to.resolve(f.getFileName()));
        }
        if (damage == null) Files.delete(to.resolve(file));
        else Files.write(to.resolve(file), damage);
        return to;
    }

    /**
     * What a user does to a recording by accident: a file cut short, a byte flipped, a file lost,
     * another game's snapshot put in its place. Each is refused with a message naming the file and
     * what is wrong, the fresh simulation is left new (not half restored), and the same simulation
     * then replays the good recording.
     */
    @Test
    void aDamagedRecordingIsRefusedNamingTheFileAndLeavesTheFreshSimulationNew(@TempDir Path tmp) throws IOException {
        Path good = tmp.resolve("good");
        long recorded = record(good);
        byte[] snapshot = Files.readAllBytes(good.resolve(RunRecorder.SNAPSHOT));
        byte[] journal = Files.readAllBytes(good.resolve(RunRecorder.JOURNAL));
        byte[] cutSnapshot = Arrays.copyOf(snapshot, snapshot.length - 100);
        byte[] flippedSnapshot = snapshot.clone();
        flippedSnapshot[snapshot.length / 2] ^= 0x10;
        byte[] otherGame;
        World w = new World();
        w.component(Tree.class);
        w.spawn(new Tree(3));
        try (Simulation other = Simulation.builder(w).seed(11).build()) {
            other.tick();
            otherGame = other.snapshot();
        }
        byte[] badHeader = journal.clone();
        badHeader[3] ^= 0x04;
        Object[][] cases = {
            {RunRecorder.SNAPSHOT, cutSnapshot, SnapshotException.class, "truncated", "an undamaged copy"},
            {RunRecorder.SNAPSHOT, flippedSnapshot, SnapshotException.class, "checksum", "an undamaged copy"},
            {RunRecorder.SNAPSHOT, otherGame, SnapshotException.class, "other systems", "built with the same systems"},
            {RunRecorder.SNAPSHOT, journal, SnapshotException.class, "not an Orrery snapshot", "check that the bytes"},
            {RunRecorder.JOURNAL, null, NoSuchFileException.class, "no input journal", "record the run again"},
            {RunRecorder.JOURNAL, badHeader, CorruptJournalException.class, "journal magic", "Check that the path"},
        };
        int n = 0;
        for (Object[] c : cases) {
            String file = (String) c[0];
            Path dir = damaged(good, tmp.resolve("case" + n++), file, (byte[]) c[1]);
            try (Simulation fresh = build(1, false)) {
                @SuppressWarnings("unchecked")
                Class<? extends Exception> type = (Class<? extends Exception>) c[2];
                Exception e = assertThrows(type, () -> RunReplayer.replay(dir, fresh), file + " " + c[3]);
                String m = String.valueOf(e.getMessage());
                assertTrue(m.contains(dir.resolve(file).toString()), "names the file: " + m);
                assertTrue(m.contains((String) c[3]), "says what is wrong: " + m);
                assertTrue(m.contains((String) c[4]), "says the fix: " + m);
                assertEquals(0, fresh.currentTick(), "not half restored: " + m);
                assertEquals(0, fresh.world().entityCount(), "not half restored: " + m);
                assertEquals(recorded, RunReplayer.replay(good, fresh).finalHash(), "the same simulation replays a good recording");
            }
        }
    }

    @Test
    void aJournalDamagedInTheMiddleIsACorruptJournalAndOneCutShortReplaysToItsLastTick(@TempDir Path tmp)
            throws IOException {
        Path good = tmp.resolve("good");
        record(good);
        byte[] journal = Files.readAllBytes(good.resolve(RunRecorder.JOURNAL));
        byte[] flipped = journal.clone();
        flipped[journal.length / 2] ^= 0x04;
        Path dir = damaged(good, tmp.resolve("flipped"), RunRecorder.JOURNAL, flipped);
        try (Simulation fresh = build(1, false)) {
            // RunReplayer.replay says it throws IOException when the journal cannot be read: a
            // caller that catches IOException catches this too (not an UncheckedIOException).
            CorruptJournalException e = assertThrows(CorruptJournalException.class, () -> RunReplayer.replay(dir, fresh));
            assertTrue(e.getMessage().contains(dir.resolve(RunRecorder.JOURNAL).toString()), e.getMessage());
            assertTrue(e.getMessage().contains("byte offset"), e.getMessage());
        }
        Path cut = damaged(good, tmp.resolve("cut"), RunRecorder.JOURNAL, Arrays.copyOf(journal, journal.length * 2 / 3));
        try (Simulation fresh = build(4, false)) {
            RunReplayer.Result r = RunReplayer.replay(cut, fresh);
            assertFalse(r.closedCleanly());
            assertTrue(r.ticks() > 0 && r.ticks() < TICKS, r.toString());
            // Every tick hashed; a cut may fall between the last tick's end and its hash record.
            assertTrue(r.hashesChecked() >= r.ticks() - 1 && r.hashesChecked() <= r.ticks(), r.toString());
            assertTrue(r.cut().contains(cut.resolve(RunRecorder.JOURNAL).toString()), r.cut());
        }
    }
}
