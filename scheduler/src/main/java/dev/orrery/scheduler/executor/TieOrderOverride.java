package dev.orrery.scheduler.executor;

import dev.orrery.scheduler.Schedule;
import dev.orrery.scheduler.access.SystemAccess;
import dev.orrery.scheduler.graph.SystemGraph;
import dev.orrery.scheduler.internal.SchedulerInternals;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

/**
 * Makes the single-threaded executors made on this thread break the graph's ties the other
 * way: inside each phase they run the systems that the graph leaves unordered (no conflict, no
 * before/after, no sync point between them) in the reverse of their usual order, while every
 * edge of the graph (a declared order, a conflicting access, a sync point, an exclusive
 * system) is kept. How the determinism kit catches two unordered systems that share state
 * outside their declarations (a plain field, an object both lambdas captured, a resource one
 * of them did not declare): on one worker they run in the graph's order every time, on
 * several either may run first. Not for production use.
 *
 * <p>Only the order in which the systems run changes: each system keeps its graph position, so
 * its change tick ({@code PhaseLoop.changeTick}: the phase's base plus its position), the order
 * its commands and events merge in and the failure reported first in finish mode are those of
 * the usual order, as on several workers. A game that keeps to the rules gives the same state
 * bit for bit.
 *
 * <p>Where the graph allows no order that reverses every unordered pair (a and b unordered, b
 * and c unordered, but a before c), the flipped order is, of two topological orders (the one
 * that always runs the ready system of highest position first, and the one that always puts
 * the finished system of lowest position last), the one that reverses more pairs. A phase
 * whose systems are all unordered runs exactly reversed.
 *
 * <p><b>Threading:</b> per thread: {@link #flip} or {@link #flipOnly} before building a
 * simulation or an executor on this thread, {@link #clear} after; the single-threaded executor
 * reads it once, at construction. A parallel executor ignores it: its order is the workers'
 * timing. The other methods are pure functions of a built schedule.
 */
public final class TieOrderOverride {
    // Boolean.TRUE: every tie flipped; a String[2]: only that pair (earlier, later in the usual order).
    private static final ThreadLocal<Object> FLIP = new ThreadLocal<>();

    private TieOrderOverride() {
    }

    /** Single-threaded executors made on this thread from now on run each phase's unordered systems the other way round. */
    public static void flip() {
        FLIP.set(Boolean.TRUE);
    }

    /**
     * Single-threaded executors made on this thread from now on run system {@code later} before
     * system {@code earlier} (two systems of one phase that the graph leaves unordered, named in
     * their usual order), and everything else as usual, as far as the graph allows: how the kit
     * finds which pair of a flipped run's systems makes it differ. The executor refuses the pair,
     * naming both, when the graph orders them or puts them in different phases.
     */
    public static void flipOnly(String earlier, String later) {
        FLIP.set(new String[] {Objects.requireNonNull(earlier, "earlier"), Objects.requireNonNull(later, "later")});
    }

    /** Executors made on this thread from now on run the systems in the graph's order again. */
    public static void clear() {
        FLIP.remove();
    }

    /**
     * The order in which a single-threaded executor made now on this thread runs {@code graph}'s
     * positions (each phase's positions stay inside the phase), or {@code null} for the graph's
     * own order.
     *
     * @throws IllegalArgumentException for a {@link #flipOnly} pair the graph cannot flip
     */
    static int[] runOrder(SystemGraph graph) {
        Object f = FLIP.get();
        if (f == null) {
            return null;
        }
        if (f == Boolean.TRUE) {
            return flipped(graph);
        }
        String[] pair = (String[]) f;
        return pairFlipped(graph, pair[0], pair[1]);
    }

    /** Every tie flipped, phase by phase (see the class Javadoc). */
    static int[] flipped(SystemGraph graph) {
        int[] order = new int[graph.size()];
        for (int p = 0; p < graph.phases().size(); p++) {
            int from = graph.phaseStart(p);
            int to = graph.phaseEnd(p);
            int[] highFirst = highestReadyFirst(graph, from, to);
            int[] lowLast = lowestDoneLast(graph, from, to);
            int[] best = flips(highFirst) >= flips(lowLast) ? highFirst : lowLast;
            System.arraycopy(best, 0, order, from, best.length);
        }
        return order;
    }

    /** The usual order with {@code later} run before {@code earlier}: a topological order with that edge added, lowest ready first. */
    static int[] pairFlipped(SystemGraph graph, String earlier, String later) {
        int a = graph.positionOf(earlier);
        int b = graph.positionOf(later);
        if (a < 0 || b < 0 || a >= b || phaseOf(graph, a) != phaseOf(graph, b) || reaches(graph, a, b)) {
            throw new IllegalArgumentException("systems '" + earlier + "' and '" + later + "' cannot be run the other way "
                    + "round: name two systems of one phase, in their usual order, that the graph leaves unordered "
                    + "(see Schedule.toString())");
        }
        int[] order = new int[graph.size()];
        for (int i = 0; i < order.length; i++) {
            order[i] = i;
        }
        int p = phaseOf(graph, a);
        int from = graph.phaseStart(p);
        int to = graph.phaseEnd(p);
        int[] waits = new int[to - from];
        for (int s = from; s < to; s++) {
            waits[s - from] = graph.predecessorCount(s);
        }
        waits[a - from]++; // a waits for b too
        boolean[] done = new boolean[to - from];
        for (int k = from; k < to; k++) {
            int next = -1;
            for (int s = from; s < to && next < 0; s++) {
                if (!done[s - from] && waits[s - from] == 0) {
                    next = s;
                }
            }
            done[next - from] = true; // no cycle: a path from a to b would be the only one, and there is none
            order[k] = next;
            for (int succ : graph.successors(next)) {
                waits[succ - from]--;
            }
            if (next == b) {
                waits[a - from]--;
            }
        }
        return order;
    }

    /**
     * The pairs of systems, each as (earlier, later) in the usual order, that {@link #flip} runs
     * the other way round in {@code schedule}: same phase, unordered by the graph, the later one
     * run first. Nearest neighbours first: by phase, then by the later one's position, then by
     * the earlier one's, highest first.
     */
    public static List<List<String>> flippedPairs(Schedule schedule) {
        SystemGraph graph = SchedulerInternals.graph(schedule);
        int[] order = flipped(graph);
        int[] runs = new int[order.length];
        for (int k = 0; k < order.length; k++) {
            runs[order[k]] = k;
        }
        List<List<String>> pairs = new ArrayList<>();
        for (int b = 0; b < order.length; b++) {
            for (int a = b - 1; a >= graph.phaseStart(phaseOf(graph, b)); a--) {
                if (runs[a] > runs[b]) {
                    pairs.add(List.of(graph.system(a).name(), graph.system(b).name()));
                }
            }
        }
        return pairs;
    }

    /** The ids of the columns system {@code system} of {@code schedule} declares it writes (none when exclusive). */
    public static int[] writtenColumns(Schedule schedule, String system) {
        SystemAccess access = declared(schedule, system);
        return access.writes().stream().mapToInt(c -> c.id()).toArray();
    }

    /** The names of the resources system {@code system} of {@code schedule} declares it writes or reduces into. */
    public static List<String> writtenResources(Schedule schedule, String system) {
        SystemAccess access = declared(schedule, system);
        List<String> names = new ArrayList<>();
        access.resourceWrites().forEach(r -> names.add(r.name()));
        access.resourceReductions().forEach(r -> names.add(r.name()));
        return names;
    }

    private static SystemAccess declared(Schedule schedule, String system) {
        SystemGraph graph = SchedulerInternals.graph(schedule);
        int p = graph.positionOf(system);
        if (p < 0) {
            throw new IllegalArgumentException("no system is named '" + system + "' in this schedule; its systems are "
                    + systemNames(graph) + ": name one of them");
        }
        return graph.system(p).access();
    }

    private static List<String> systemNames(SystemGraph graph) {
        List<String> names = new ArrayList<>(graph.size());
        for (int i = 0; i < graph.size(); i++) {
            names.add(graph.system(i).name());
        }
        return names;
    }

    /** Repeatedly runs the ready system of highest position. */
    private static int[] highestReadyFirst(SystemGraph graph, int from, int to) {
        int n = to - from;
        int[] waits = new int[n];
        for (int s = from; s < to; s++) {
            waits[s - from] = graph.predecessorCount(s);
        }
        boolean[] done = new boolean[n];
        int[] out = new int[n];
        for (int k = 0; k < n; k++) {
            int next = -1;
            for (int s = to - 1; s >= from && next < 0; s--) {
                if (!done[s - from] && waits[s - from] == 0) {
                    next = s;
                }
            }
            done[next - from] = true; // the graph is acyclic: its edges run from lower to higher positions
            out[k] = next;
            for (int succ : graph.successors(next)) {
                waits[succ - from]--;
            }
        }
        return out;
    }

    /** Repeatedly puts last the system of lowest position whose successors are all placed. */
    private static int[] lowestDoneLast(SystemGraph graph, int from, int to) {
        int n = to - from;
        int[] left = new int[n];
        for (int s = from; s < to; s++) {
            left[s - from] = graph.successors(s).length;
        }
        int[][] preds = predecessors(graph, from, to);
        boolean[] placed = new boolean[n];
        int[] out = new int[n];
        for (int k = n - 1; k >= 0; k--) {
            int next = -1;
            for (int s = from; s < to && next < 0; s++) {
                if (!placed[s - from] && left[s - from] == 0) {
                    next = s;
                }
            }
            placed[next - from] = true;
            out[k] = next;
            for (int pred : preds[next - from]) {
                left[pred - from]--;
            }
        }
        return out;
    }

    private static int[][] predecessors(SystemGraph graph, int from, int to) {
        int[][] preds = new int[to - from][];
        int[] count = new int[to - from];
        for (int s = from; s < to; s++) {
            preds[s - from] = new int[graph.predecessorCount(s)];
        }
        for (int s = from; s < to; s++) {
            for (int succ : graph.successors(s)) {
                preds[succ - from][count[succ - from]++] = s;
            }
        }
        return preds;
    }

    /** How many pairs {@code order} (positions of one phase) runs against their position order. */
    private static int flips(int[] order) {
        int n = 0;
        for (int i = 0; i < order.length; i++) {
            for (int j = i + 1; j < order.length; j++) {
                if (order[i] > order[j]) {
                    n++;
                }
            }
        }
        return n;
    }

    private static int phaseOf(SystemGraph graph, int position) {
        int p = 0;
        while (graph.phaseEnd(p) <= position) {
            p++;
        }
        return p;
    }

    /** Whether a path of edges leads from position {@code a} to position {@code b}. */
    private static boolean reaches(SystemGraph graph, int a, int b) {
        boolean[] seen = new boolean[graph.size()];
        java.util.ArrayDeque<Integer> todo = new java.util.ArrayDeque<>(List.of(a));
        while (!todo.isEmpty()) {
            int s = todo.pop();
            for (int succ : graph.successors(s)) {
                if (succ == b) {
                    return true;
                }
                if (succ < b && !seen[succ]) {
                    seen[succ] = true;
                    todo.push(succ);
                }
            }
        }
        return false;
    }
}
