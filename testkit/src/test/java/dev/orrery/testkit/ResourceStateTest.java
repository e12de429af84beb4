package dev.orrery.testkit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.orrery.ecs.World;
import dev.orrery.engine.ResourceCodec;
import dev.orrery.engine.Simulation;
import dev.orrery.scheduler.ResourceKey;
import java.io.DataInput;
import java.io.DataOutput;
import java.io.IOException;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The line the kit writes for a resource whose codec's bytes differ between two runs: both
 * values as the codec reads them back when the type prints them, else the byte and how to make
 * the type print them. Never an identity hash or a binary class name.
 */
class ResourceStateTest {
    /** The chapter's pattern: a class holding a per-chunk array, no toString of its own. */
    static final class Tally {
        long count;
        final float[] perChunk = new float[8];
    }

    /** A tally that prints itself, scratch included; its codec writes only {@code count}. */
    static final class PrintedTally {
        long count;
        final float[] perChunk = new float[2];

        @Override
        public String toString() {
            return "tally " + count + " " + Arrays.toString(perChunk);
        }
    }

    /** Prints itself, but leaves out {@code count}, the field that differs. */
    static final class Quiet {
        long count;

        @Override
        public String toString() {
            return "quiet";
        }
    }

    /** A record, but its array prints by identity. */
    record Totals(long[] byTeam) {}

    static final ResourceKey<Tally> TALLY = ResourceKey.of("tally", Tally.class);
    static final ResourceKey<PrintedTally> PRINTED = ResourceKey.of("printed", PrintedTally.class);
    static final ResourceKey<Quiet> QUIET = ResourceKey.of("quiet", Quiet.class);
    static final ResourceKey<Totals> TOTALS = ResourceKey.of("totals", Totals.class);

    static final ResourceCodec<Tally> TALLY_CODEC = new ResourceCodec<>() {
        @Override
        public void write(Tally t, DataOutput out) throws IOException {
            out.writeLong(t.count);
        }

        @Override
        public Tally read(DataInput in) throws IOException {
            Tally t = new Tally();
            t.count = in.readLong();
            return t;
        }
    };

    static final ResourceCodec<PrintedTally> PRINTED_CODEC = new ResourceCodec<>() {
        @Override
        public void write(PrintedTally t, DataOutput out) throws IOException {
            out.writeLong(t.count);
        }

        @Override
        public PrintedTally read(DataInput in) throws IOException {
            PrintedTally t = new PrintedTally();
            t.count = in.readLong();
            return t;
        }
    };

    static final ResourceCodec<Quiet> QUIET_CODEC = new ResourceCodec<>() {
        @Override
        public void write(Quiet q, DataOutput out) throws IOException {
            out.writeLong(q.count);
        }

        @Override
        public Quiet read(DataInput in) throws IOException {
            Quiet q = new Quiet();
            q.count = in.readLong();
            return q;
        }
    };

    static final ResourceCodec<Totals> TOTALS_CODEC = new ResourceCodec<>() {
        @Override
        public void write(Totals t, DataOutput out) throws IOException {
            out.writeInt(t.byTeam().length);
            for (long v : t.byTeam()) {
                out.writeLong(v);
            }
        }

        @Override
        public Totals read(DataInput in) throws IOException {
            long[] v = new long[in.readInt()];
            for (int i = 0; i < v.length; i++) {
                v[i] = in.readLong();
            }
            return new Totals(v);
        }
    };

    private static Simulation sim(long count) {
        Tally t = new Tally();
        t.count = count;
        PrintedTally p = new PrintedTally();
        p.count = count;
        p.perChunk[1] = count * 0.5f; // scratch: the codec leaves it out, and so does the report
        Quiet q = new Quiet();
        q.count = count;
        return Simulation.builder(new World()).resource(TALLY, t, TALLY_CODEC).resource(PRINTED, p, PRINTED_CODEC)
                .resource(QUIET, q, QUIET_CODEC).resource(TOTALS, new Totals(new long[] {1, count}), TOTALS_CODEC)
                .build();
    }

    private static String line(List<String> lines, String resource) {
        return lines.stream().filter(l -> l.startsWith("resource '" + resource + "'")).findFirst()
                .orElseThrow(() -> new AssertionError("no line for " + resource + ": " + lines));
    }

    @Test
    void shouldNameTheResourceTheByteAndHowToSeeTheValuesWhenTheTypeDoesNotPrintThem() {
        try (Simulation a = sim(5); Simulation b = sim(6)) {
            String l = line(ResourceState.differences(a, b), "tally");
            assertEquals("resource 'tally': its codec writes 8 bytes here and 8 in the reference, first differing at "
                    + "byte 7; Tally does not print its values: make it a record, or give it a toString(), and this "
                    + "report shows both", l);
        }
    }

    @Test
    void shouldPrintBothValuesAsTheCodecReadsThemBack() {
        try (Simulation a = sim(5); Simulation b = sim(6)) {
            String l = line(ResourceState.differences(a, b), "printed");
            assertTrue(l.endsWith("first differing at byte 7 (tally 5 [0.0, 0.0] in the reference, tally 6 [0.0, 0.0] "
                    + "here)"), "the state the snapshot carries, not the live scratch: " + l);
        }
    }

    @Test
    void shouldSayWhenTheTypePrintsButNotWhatDiffers() {
        try (Simulation a = sim(5); Simulation b = sim(6)) {
            List<String> lines = ResourceState.differences(a, b);
            String quiet = line(lines, "quiet");
            assertTrue(quiet.endsWith("byte 7; Quiet prints the same for both (quiet): give it a toString() that "
                    + "prints every value its codec writes, and this report shows both"), quiet);
            String totals = line(lines, "totals");
            assertTrue(totals.endsWith("byte 19; Totals prints an array or object by identity: give it a toString() "
                    + "that prints every value its codec writes, and this report shows both"), totals);
            assertFalse(totals.contains("@"), totals);
        }
    }

    @Test
    void shouldCompareSnapshotBytesByNameWhateverTheOrderAndNameAResourceOneSideOnlyHas() {
        java.util.Map<String, byte[]> reference = new java.util.LinkedHashMap<>();
        reference.put("tally", new byte[] {0, 5});
        reference.put("bank", new byte[] {1});
        reference.put("old", new byte[] {2});
        java.util.Map<String, byte[]> actual = new java.util.LinkedHashMap<>();
        actual.put("new", new byte[] {3});
        actual.put("bank", new byte[] {1});
        actual.put("tally", new byte[] {0, 6, 0});
        assertEquals(List.of("resource 'new': here only (the games put other resources with a codec)",
                "resource 'old': in the reference only (the games put other resources with a codec)",
                "resource 'tally': its codec writes 3 bytes here and 2 in the reference, first differing at byte 1"),
                ResourceState.differences(reference, actual));
    }
}
