package dev.orrery.engine;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.fail;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;

/**
 * Test support: compares an uninterrupted run of a workload with (i) a snapshot taken after
 * tick {@code k - 1}, restored into a fresh simulation and run on, and (ii) a recording
 * replayed, each on 1 and 2 workers. After every tick it compares the state hash, the bytes
 * of a snapshot taken again (which carry resources with a codec, flow state, change versions
 * and systems' last runs that the hash leaves out), and a log of what the workload's systems
 * and hooks saw (observable behaviour neither of those may show), naming the first tick and
 * what differs.
 */
final class FeaturePairRuns {
    /** What the workload's systems and hooks saw, in the order they saw it (tick thread or a sync point only). */
    static final class Log {
        private final List<String> lines = Collections.synchronizedList(new ArrayList<>());

        void add(String line) {
            lines.add(line);
        }

        int size() {
            return lines.size();
        }

        List<String> from(int index) {
            synchronized (lines) {
                return List.copyOf(lines.subList(index, lines.size()));
            }
        }
    }

    /** Builds the workload on {@code workers} workers, populated or empty (a restore or replay target). */
    @FunctionalInterface
    interface Build {
        Simulation build(int workers, boolean populate, Log log);
    }

    /** One run's observations, per tick. */
    private static final class Trace {
        final long[] hashes;
        final byte[][] snapshots;
        final List<List<String>> seen = new ArrayList<>();

        Trace(int ticks) {
            hashes = new long[ticks];
            snapshots = new byte[ticks][];
            for (int t = 0; t < ticks; t++) {
                seen.add(List.of());
            }
        }

        void observe(Simulation sim, Log log, int[] mark, int tick) {
            hashes[tick] = sim.world().stateHash();
            snapshots[tick] = sim.snapshot();
            seen.set(tick, log.from(mark[0]));
            mark[0] = log.size();
        }
    }

    private FeaturePairRuns() {
    }

    /**
     * Runs the whole comparison: a reference of {@code ticks} ticks on 1 worker, a restore
     * of the snapshot after tick {@code k - 1} ({@code k = 0}: before the first tick) for each
     * {@code k} in {@code snapAt} on 1 and 2 workers, and a recording on 2 workers replayed on
     * 1 and 2.
     */
    static void check(Build build, int ticks, Path dir, int... snapAt) throws Exception {
        Log refLog = new Log();
        Trace ref = new Trace(ticks);
        byte[][] before = new byte[ticks + 1][];
        try (Simulation sim = build.build(1, true, refLog)) {
            int[] mark = {refLog.size()};
            before[0] = sim.snapshot();
            for (int t = 0; t < ticks; t++) {
                assertEquals(t, sim.tick());
                ref.observe(sim, refLog, mark, t);
                before[t + 1] = ref.snapshots[t];
            }
        }
        for (int k : snapAt) {
            for (int workers : new int[] {1, 2}) {
                Log log = new Log();
                Trace run = new Trace(ticks);
                try (Simulation sim = build.build(workers, false, log)) {
                    sim.restore(before[k]);
                    int[] mark = {log.size()};
                    for (int t = k; t < ticks; t++) {
                        assertEquals(t, sim.tick());
                        run.observe(sim, log, mark, t);
                    }
                }
                compare("restored from the snapshot after tick " + (k - 1) + " on " + workers + " workers", ref, run, k,
                        ticks);
            }
        }
        Log recLog = new Log();
        Trace recorded = new Trace(ticks);
        try (Simulation sim = build.build(2, true, recLog);
             RunRecorder rec = RunRecorder.start(sim, dir, InputPipeline.builder().ringSize(64).maxPayloadBytes(8))) {
            int[] mark = {recLog.size()};
            for (int t = 0; t < ticks; t++) {
                sim.tick();
                recorded.observe(sim, recLog, mark, t);
            }
        }
        compare("recorded on 2 workers", ref, recorded, 0, ticks);
        for (int workers : new int[] {1, 2}) {
            Log log = new Log();
            Trace replayed = new Trace(ticks);
            try (Simulation fresh = build.build(workers, false, log)) {
                int[] mark = {log.size()};
                fresh.atEndOfTick((tick, nanos) -> replayed.observe(fresh, log, mark, (int) tick));
                RunReplayer.Result r = RunReplayer.replay(dir, fresh);
                assertEquals(ticks, r.ticks(), "replayed ticks");
            }
            compare("replayed on " + workers + " workers", ref, replayed, 0, ticks);
        }
    }

    private static void compare(String what, Trace ref, Trace run, int from, int ticks) {
        for (int t = from; t < ticks; t++) {
            if (!ref.seen.get(t).equals(run.seen.get(t))) {
                fail(what + ": at tick " + t + " the systems saw " + run.seen.get(t) + ", uninterrupted "
                        + ref.seen.get(t));
            }
            if (ref.hashes[t] != run.hashes[t]) {
                fail(what + ": the state hash differs from tick " + t);
            }
            assertArrayEquals(ref.snapshots[t], run.snapshots[t], what + ": a snapshot re-taken after tick " + t
                    + " differs");
        }
    }
}
