package dev.orrery.testkit;

import dev.orrery.ecs.World;
import dev.orrery.engine.Simulation;
import dev.orrery.engine.internal.EngineInternals;
import dev.orrery.scheduler.executor.SystemHook;
import dev.orrery.scheduler.executor.TieOrderOverride;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * Names the two systems behind a failure of the run with the graph's ties flipped (one worker,
 * each phase's unordered systems the other way round, see {@link TieOrderOverride}): the one
 * whose result differs, and the unordered neighbour whose order against it flipped. Two systems
 * the graph leaves unordered touch no common declared data, so each system's declared output
 * (the columns it writes, the resources with a codec it writes or reduces into), hashed right
 * after it ran, is the same in both orders for a correct game; the first system, in the flipped
 * run's order, whose output differs is the one whose result differs. Its neighbour is found by
 * running one pair at a time the other way round (that system's pairs first), up to
 * {@value #MAX_PAIR_RUNS} runs, each up to the failing tick; first, though, one run in the usual
 * order, built anew, must agree with the reference, or the game keeps state that outlives a
 * simulation and no pair is named (see {@link OutlivingState}).
 *
 * <p><b>Threading:</b> builds and ticks its simulations on the calling thread and closes them.
 */
final class TieOrderOrigin {
    /** The most single-pair runs a diagnosis makes. */
    static final int MAX_PAIR_RUNS = 64;

    private TieOrderOrigin() {
    }

    /**
     * The diagnosis of the flipped run differing from the reference at tick {@code tick}, with the
     * simulations of {@code factory}: the check's checked factory ({@link FactoryCall#checked}), so
     * a factory that misbehaves only here is refused as the check's own runs refuse it.
     */
    static Diagnosis find(SimulationFactory factory, InputScript script, long tick) {
        long[] reference = new long[(int) tick + 1];
        String differs = null;
        long differsAt = -1;
        List<List<String>> pairs;
        try (Simulation ref = build(factory, null); Simulation flipped = build(factory, List.of())) {
            pairs = TieOrderOverride.flippedPairs(ref.schedule());
            Outputs a = Outputs.of(ref);
            Outputs b = Outputs.of(flipped);
            ref.inputs(new ScriptInputs(script));
            flipped.inputs(new ScriptInputs(script));
            for (int k = 0; k <= tick; k++) {
                a.ran.clear();
                b.ran.clear();
                ref.tick();
                flipped.tick();
                reference[k] = ResourceState.hash(ref);
                if (differs == null) {
                    differs = b.firstDifferentFrom(a);
                    differsAt = differs == null ? -1 : k;
                }
            }
        }
        long left = OutlivingState.firstDifference(factory, script, reference);
        if (left >= 0) { // every pair run would differ too, and the first tried would take the blame
            return OutlivingState.diagnosis(differs, null, "pair of unordered systems", left, differs == null ? null
                    : "it first shows in system '" + differs + "', the first whose declared output (the columns and "
                    + "resources it writes) differs in the flipped run, at tick " + differsAt);
        }
        List<List<String>> order = new ArrayList<>();
        for (List<String> p : pairs) {
            if (p.contains(differs)) {
                order.add(p);
            }
        }
        for (List<String> p : pairs) {
            if (!p.contains(differs)) {
                order.add(p);
            }
        }
        int runs = 0;
        for (List<String> pair : order) {
            if (runs++ == MAX_PAIR_RUNS) {
                break;
            }
            long at = firstDifference(factory, script, pair, reference);
            if (at >= 0) {
                return found(pair, differs, differsAt, at);
            }
        }
        String text = "no single pair of the " + pairs.size() + " unordered pairs the flipped run reverses makes the "
                + "difference on its own" + (runs > MAX_PAIR_RUNS ? " (the first " + MAX_PAIR_RUNS + " tried)" : "")
                + (differs != null ? "; system '" + differs + "' is the first whose declared output (columns and "
                + "resources it writes) differs, at tick " + differsAt : "")
                + " (one worker, each phase's unordered systems the other way round)";
        return new Diagnosis(differs, text);
    }

    private static Diagnosis found(List<String> pair, String differs, long differsAt, long at) {
        String earlier = pair.get(0);
        String later = pair.get(1);
        String pairText = "systems '" + earlier + "' and '" + later + "', which the graph leaves unordered (same "
                + "phase, no conflicting declaration, no before/after), give another result the other way round: run "
                + "alone with '" + later + "' first (one worker, every other system in its usual order) they differ "
                + "from the reference at tick " + at;
        if (pair.contains(differs)) {
            String other = differs.equals(earlier) ? later : earlier;
            return new Diagnosis(differs, "system '" + differs + "' gives another result when its unordered neighbour '"
                    + other + "' runs " + (differs.equals(earlier) ? "before" : "after") + " it instead of "
                    + (differs.equals(earlier) ? "after" : "before") + " (its declared output, the columns and "
                    + "resources it writes, differs right after it ran at tick " + differsAt + "); " + pairText);
        }
        return new Diagnosis(later, pairText);
    }

    /** The first tick a run with only {@code pair} flipped differs from {@code reference}, or -1. */
    private static long firstDifference(SimulationFactory factory, InputScript script, List<String> pair,
            long[] reference) {
        return ResourceState.firstDifference(build(factory, pair), script, reference);
    }

    /** The factory's simulation on one worker: usual order ({@code null}), every tie flipped (empty), or one pair. */
    private static Simulation build(SimulationFactory factory, List<String> pair) {
        if (pair != null) {
            if (pair.isEmpty()) {
                TieOrderOverride.flip();
            } else {
                TieOrderOverride.flipOnly(pair.get(0), pair.get(1));
            }
        }
        try {
            return factory.create(1, true);
        } finally {
            TieOrderOverride.clear();
        }
    }

    /** Hashes each system's declared output right after it ran, in the order the systems ran. */
    private static final class Outputs implements SystemHook {
        private final Simulation sim;
        private final int[][] columns;
        private final List<List<String>> resources = new ArrayList<>();
        /** This tick: position, then output hash, per system run. */
        final List<long[]> ran = new ArrayList<>();
        private final List<String> names;

        private Outputs(Simulation sim) {
            this.sim = sim;
            this.names = sim.schedule().systemNames();
            this.columns = new int[names.size()][];
            for (int i = 0; i < names.size(); i++) {
                columns[i] = TieOrderOverride.writtenColumns(sim.schedule(), names.get(i));
                resources.add(TieOrderOverride.writtenResources(sim.schedule(), names.get(i)));
            }
        }

        static Outputs of(Simulation sim) {
            Outputs o = new Outputs(sim);
            EngineInternals.afterEachSystem(sim, o);
            return o;
        }

        @Override
        public void after(int position, String name, boolean ran, World world) {
            long h = 17;
            long[] all = world.columnHashes();
            for (int c : columns[position]) {
                h = ResourceState.mix(h, c < all.length ? all[c] : 0);
            }
            if (!resources.get(position).isEmpty()) {
                Map<String, byte[]> bytes = ResourceState.bytes(sim);
                for (String r : resources.get(position)) {
                    byte[] b = bytes.get(r);
                    h = ResourceState.mix(h, b == null ? 0 : ResourceState.fnv(b));
                }
            }
            this.ran.add(new long[] {position, h});
        }

        /**
         * The first system, in this run's order, whose output differs from its output in
         * {@code reference} (the n-th run of a system against its n-th there: a fixed-step phase
         * runs it several times a tick); or null.
         */
        String firstDifferentFrom(Outputs reference) {
            java.util.Map<Long, List<Long>> theirs = new java.util.HashMap<>();
            for (long[] r : reference.ran) {
                theirs.computeIfAbsent(r[0], k -> new ArrayList<>()).add(r[1]);
            }
            int[] nth = new int[names.size()];
            for (long[] r : ran) {
                List<Long> t = theirs.getOrDefault(r[0], List.of());
                int i = nth[(int) r[0]]++;
                if (i < t.size() && t.get(i) != r[1]) {
                    return names.get((int) r[0]);
                }
            }
            return null;
        }
    }
}
