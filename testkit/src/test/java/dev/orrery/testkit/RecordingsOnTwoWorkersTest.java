package dev.orrery.testkit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.orrery.ecs.World;
import dev.orrery.ecs.component.Component;
import dev.orrery.ecs.component.Field;
import dev.orrery.engine.InputPipeline;
import dev.orrery.engine.ResourceCodec;
import dev.orrery.engine.RunRecorder;
import dev.orrery.engine.Simulation;
import dev.orrery.scheduler.ResourceKey;
import java.io.ByteArrayOutputStream;
import java.io.DataInput;
import java.io.DataOutput;
import java.io.IOException;
import java.io.PrintStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@link GoldenRecording} / {@link CompareRecordings} x worker counts: a golden recording (1
 * worker) and a {@link RunRecorder} run of the same game on 2 workers compare equal; two
 * writers of one resource, or of one field, with no declared order are ordered by the graph
 * (registration order, the edge labelled with what they share), so the only way to make the
 * game order-dependent is to register them the other way, and the comparison names the first
 * tick and both systems; a factory that ignores the worker count it is asked for is refused by
 * {@code GoldenRecording.record}, naming the factory and the fix.
 */
class RecordingsOnTwoWorkersTest {
    record Acc(long v) {
    }

    static final ResourceKey<long[]> LEDGER = ResourceKey.of("ledger", long[].class);
    static final ResourceCodec<long[]> LEDGER_CODEC = new ResourceCodec<>() {
        @Override
        public void write(long[] x, DataOutput out) throws IOException {
            out.writeLong(x[0]);
        }

        @Override
        public long[] read(DataInput in) throws IOException {
            return new long[] {in.readLong()};
        }
    };

    @TempDir
    Path dir;

    /**
     * 'double' (x = x * 2 + 1) and 'add' (x = x + 3), neither ordered after the other, both
     * write the ledger (or, {@code viaField}, every Acc.v); 'stamp' folds the ledger into the world.
     */
    static Simulation build(int workers, boolean populate, boolean addFirst, boolean viaField) {
        World world = new World(1024);
        Component<Acc> acc = world.component(Acc.class);
        Field v = acc.field("v");
        for (int i = 0; populate && i < 3000; i++) {
            world.spawn(new Acc(i));
        }
        var all = world.query().with(acc).build();
        return Simulation.builder(world).workers(workers).seed(3).resource(LEDGER, new long[1], LEDGER_CODEC)
                .systems(s -> {
                    for (String name : addFirst ? new String[] {"add", "double"} : new String[] {"double", "add"}) {
                        boolean twice = name.equals("double");
                        if (viaField) {
                            s.system(name).query(all).writes(acc).forEachChunk(job -> {
                                long[] a = job.chunk().writeLongs(v);
                                for (int i = 0; i < job.chunk().size(); i++) {
                                    a[i] = twice ? a[i] * 2 + 1 : a[i] + 3;
                                }
                            });
                        } else {
                            s.system(name).writesResource(LEDGER).forEachRange(() -> 1, (job, from, to) -> {
                                long[] x = job.resourceForWrite(LEDGER);
                                x[0] = twice ? x[0] * 2 + 1 : x[0] + 3;
                            });
                        }
                    }
                    s.system("stamp").query(all).writes(acc).readsResource(LEDGER).forEachChunk(job -> {
                        long x = job.resource(LEDGER)[0];
                        long[] a = job.chunk().writeLongs(v);
                        for (int i = 0; i < job.chunk().size(); i++) {
                            a[i] = a[i] % 1_000_003 + x % 7;
                        }
                    });
                }).build();
    }

    private Path golden(String name, boolean addFirst, boolean viaField) {
        Path d = dir.resolve(name);
        GoldenRecording.record((w, p) -> build(w, p, addFirst, viaField), InputScript.NONE, 10, d);
        return d;
    }

    private Path onTwoWorkers(String name, boolean viaField) {
        Path d = dir.resolve(name);
        try (Simulation sim = build(2, true, false, viaField);
                RunRecorder rec = RunRecorder.start(sim, d, InputPipeline.builder())) {
            for (int t = 0; t < 10; t++) {
                sim.tick();
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return d;
    }

    private static String compare(int expectedStatus, Path a, Path b) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        int status = CompareRecordings.run(new String[] {a.toString(), b.toString()},
                new PrintStream(out, true, StandardCharsets.UTF_8), new PrintStream(out, true, StandardCharsets.UTF_8));
        String text = out.toString(StandardCharsets.UTF_8);
        assertEquals(expectedStatus, status, text);
        return text;
    }

    @Test
    void shouldFindAGoldenRecordingAndATwoWorkerRunOfTheSameGameEqual() {
        for (boolean viaField : new boolean[] {false, true}) {
            String out = compare(0, golden("one-" + viaField, false, viaField), onTwoWorkers("two-" + viaField, viaField));
            assertTrue(out.contains("state: the same hash on every tick both hold (10 hashed ticks)"), out);
        }
    }

    @Test
    void shouldOrderTwoUnorderedWritersAndNameBothWhenTheirOrderChanges() {
        try (Simulation sim = build(2, false, false, false)) {
            String graph = sim.schedule().toString();
            assertTrue(graph.contains("1. add: reads [] writes [] resources r[] w[ledger]\n       after double (ledger)"),
                    "two writers of one resource are ordered, not refused, the edge naming the resource:\n" + graph);
        }
        String out = compare(1, golden("double-first", false, true), golden("add-first", true, true));
        assertTrue(out.contains("state: first differs at tick 0"), out);
        assertTrue(out.contains("system: first difference after system 'double' at tick 0 (the other's system there "
                + "is 'add')"), out);
        String viaResource = compare(1, golden("ledger-double-first", false, false), golden("ledger-add-first", true, false));
        assertTrue(viaResource.contains("state: first differs at tick 0"), viaResource);
    }

    @Test
    void shouldRefuseAFactoryThatIgnoresTheWorkerCountItIsAskedFor() {
        Path d = dir.resolve("ignores-workers");
        // the factory misbehaved: refused as DeterminismCheck refuses it (an IllegalArgumentException before)
        IllegalStateException e = assertThrows(IllegalStateException.class,
                () -> GoldenRecording.record((w, p) -> build(2, p, false, false), InputScript.NONE, 10, d));
        assertTrue(e.getMessage().startsWith("SimulationFactory.create(1, true) returned a simulation on 2 workers to "
                + "GoldenRecording.record"), e.getMessage());
        assertTrue(e.getMessage().contains("Simulation.builder(world).workers(workers)"), "names the fix: " + e.getMessage());
        assertTrue(e.getMessage().contains("RunRecorder"), "names the way to record on more workers: " + e.getMessage());
        assertFalse(Files.exists(d.resolve(RunRecorder.JOURNAL)), "nothing recorded");
        Path one = golden("honest", false, false);
        IllegalStateException replay = assertThrows(IllegalStateException.class,
                () -> GoldenRecording.assertReplays(one, (w, p) -> build(2, p, false, false)));
        assertTrue(replay.getMessage().startsWith("SimulationFactory.create(1, false) returned a simulation on 2 workers "
                + "to GoldenRecording.assertReplays"), replay.getMessage());
    }
}
