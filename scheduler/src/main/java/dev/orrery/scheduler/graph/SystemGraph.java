package dev.orrery.scheduler.graph;

import dev.orrery.ecs.access.StructuralEffects;
import dev.orrery.ecs.component.Component;
import dev.orrery.scheduler.OrderCycleException;
import dev.orrery.scheduler.Phase;
import dev.orrery.scheduler.access.SystemAccess;
import dev.orrery.scheduler.flow.PhaseRule;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;

/**
 * The dependency graph of a schedule. Systems are numbered by their position in one linear
 * order: phases in the order given; inside a phase, registration order, except that a
 * system's explicit predecessors (before/after) are moved up to just before it, so a
 * constraint reorders only what it must. An edge runs from an earlier system to a later
 * one of the same phase when their accesses conflict (one writes what the other reads or
 * writes) or when an explicit constraint links them. A run that starts each system only
 * after its predecessors finished, and each phase only after the previous one, gives the
 * same result as running the systems one by one in the linear order.
 *
 * <p><b>Sync points.</b> The command buffers are applied at the end of each phase, before
 * each exclusive system, before a system declared {@code afterStructuralChanges()}, and
 * before a system the graph finds needs one: walking a phase in the linear order, it keeps the
 * structural effects declared since the last sync point ({@code spawns}, {@code adds},
 * {@code removes}, {@code setsLater}, {@code despawns}); a system whose query names, or whose
 * declared reads or writes include, one of their components, or that has a query or
 * component access while a pending system declared despawns, gets an automatic sync point
 * before it, so it sees those changes exactly as the one-by-one run in the linear order
 * would; a system declared {@code beforeStructuralChanges()} gets none (and the effects stay
 * pending for the systems after it). A system with a sync point before it runs after every earlier system of its phase
 * and before every later one. {@link #syncReason} says why each automatic one is there;
 * {@link #toText()} and {@link #toDot()} show them apart from explicit ones.
 *
 * <p><b>Phase rules and run conditions.</b> Each phase has a {@link PhaseRule} (once per run,
 * only if a condition holds, once per whole step of a fixed-timestep accumulator, or only on a
 * state transition) and each system may have a run condition; both are printed by
 * {@link #toText()} and {@link #toDot()}. Edges between an event channel's writer and a later
 * reader are labelled {@code "events <channel>"}.
 *
 * <p>Edges are kept whole (no transitive reduction) so each one can be labelled with the
 * component or resource that caused it; for the tens of systems of a simulation this costs
 * nothing that matters.
 *
 * <p><b>Threading:</b> immutable once built.
 */
public final class SystemGraph {
    /**
     * One edge: {@code from} must finish before {@code to} starts.
     *
     * @param from position of the earlier system
     * @param to position of the later system
     * @param label what caused it: a component or resource name, {@code "exclusive"},
     *     {@code "order"} for an explicit constraint, or both joined by {@code ", "}
     */
    public record Edge(int from, int to, String label) {
    }

    private final List<Phase> phases;
    private final List<PhaseRule> phaseRules;
    private final SystemDeclaration[] systems;
    private final int[] registrationIndex;
    private final int[] phaseStart;
    private final List<Edge> edges;
    private final int[][] successors;
    private final int[] predecessorCount;
    /** Per position: why an automatic sync point precedes it, or null (none, or an explicit one). */
    private final String[] autoSync;

    private SystemGraph(List<Phase> phases, List<PhaseRule> phaseRules, SystemDeclaration[] systems,
            int[] registrationIndex, int[] phaseStart, List<Edge> edges, String[] autoSync) {
        this.autoSync = autoSync;
        this.phases = List.copyOf(phases);
        this.phaseRules = List.copyOf(phaseRules);
        this.systems = systems;
        this.registrationIndex = registrationIndex;
        this.phaseStart = phaseStart;
        this.edges = List.copyOf(edges);
        int n = systems.length;
        int[] outDegree = new int[n];
        this.predecessorCount = new int[n];
        for (Edge e : edges) {
            outDegree[e.from()]++;
            predecessorCount[e.to()]++;
        }
        this.successors = new int[n][];
        for (int i = 0; i < n; i++) {
            successors[i] = new int[outDegree[i]];
            outDegree[i] = 0;
        }
        for (Edge e : edges) {
            successors[e.from()][outDegree[e.from()]++] = e.to();
        }
    }

    /**
     * Builds the graph of {@code declarations} (in registration order) over {@code phases}
     * (in run order).
     *
     * @throws IllegalArgumentException when two systems share a name, a system names an
     *     unknown system or a phase not listed, or an explicit constraint contradicts the
     *     phase order
     * @throws OrderCycleException when explicit constraints inside a phase form a cycle
     */
    public static SystemGraph build(List<SystemDeclaration> declarations, List<Phase> phases) {
        return build(declarations, phases, java.util.Collections.nCopies(phases.size(), PhaseRule.ALWAYS));
    }

    /**
     * Builds the graph of {@code declarations} (in registration order) over {@code phases}
     * (in run order), phase {@code i} running by {@code rules.get(i)}.
     *
     * @throws IllegalArgumentException as {@link #build(List, List)} does, or when the rules
     *     do not match the phases one for one
     * @throws OrderCycleException when explicit constraints inside a phase form a cycle
     */
    public static SystemGraph build(List<SystemDeclaration> declarations, List<Phase> phases, List<PhaseRule> rules) {
        if (rules.size() != phases.size()) {
            throw new IllegalArgumentException(rules.size() + " phase rules given for " + phases.size() + " phases "
                    + phases + "; give one per phase");
        }
        if (new LinkedHashSet<>(phases).size() != phases.size()) {
            throw new IllegalArgumentException("phase list " + phases + " names a phase twice; list each once");
        }
        int n = declarations.size();
        Map<String, Integer> byName = new HashMap<>();
        int[] phaseOf = new int[n];
        for (int i = 0; i < n; i++) {
            SystemDeclaration d = declarations.get(i);
            if (byName.putIfAbsent(d.name(), i) != null) {
                throw new IllegalArgumentException("two systems are named '" + d.name() + "'; system names must be "
                        + "unique in a schedule, rename one");
            }
            phaseOf[i] = phases.indexOf(d.phase());
            if (phaseOf[i] < 0) {
                throw new IllegalArgumentException("system '" + d.name() + "' runs in phase " + d.phase()
                        + ", which the schedule does not list (" + phases + "); add the phase to the schedule");
            }
        }
        // explicit constraints, as registration-index pairs inside one phase
        List<List<Integer>> orderSucc = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            orderSucc.add(new ArrayList<>());
        }
        for (int i = 0; i < n; i++) {
            SystemDeclaration d = declarations.get(i);
            for (String b : d.before()) {
                addOrder(declarations, byName, phaseOf, phases, orderSucc, i, resolve(byName, d, b, "before"));
            }
            for (String a : d.after()) {
                addOrder(declarations, byName, phaseOf, phases, orderSucc, resolve(byName, d, a, "after"), i);
            }
        }
        // linear order: per phase, each system in registration order, its unplaced explicit
        // predecessors first (depth first); a constraint moves only what it must move
        List<List<Integer>> orderPred = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            orderPred.add(new ArrayList<>());
        }
        for (int i = 0; i < n; i++) {
            for (int s : orderSucc.get(i)) {
                orderPred.get(s).add(i);
            }
        }
        for (List<Integer> preds : orderPred) {
            preds.sort(Integer::compare);
        }
        int[] order = new int[n];
        int[] phaseStart = new int[phases.size() + 1];
        byte[] state = new byte[n]; // 0 new, 1 on the path, 2 placed
        int[] pos = {0};
        for (int p = 0; p < phases.size(); p++) {
            phaseStart[p] = pos[0];
            for (int i = 0; i < n; i++) {
                if (phaseOf[i] == p) {
                    place(i, declarations, orderPred, state, order, pos, new ArrayList<>(), phases.get(p));
                }
            }
        }
        phaseStart[phases.size()] = pos[0];
        int[] positionOf = new int[n];
        SystemDeclaration[] systems = new SystemDeclaration[n];
        for (int k = 0; k < n; k++) {
            positionOf[order[k]] = k;
            systems[k] = declarations.get(order[k]);
        }
        String[] autoSync = new String[n];
        for (int p = 0; p < phases.size(); p++) {
            placeSyncPoints(systems, phaseStart[p], phaseStart[p + 1], autoSync);
        }
        List<Edge> edges = new ArrayList<>();
        for (int p = 0; p < phases.size(); p++) {
            for (int a = phaseStart[p]; a < phaseStart[p + 1]; a++) {
                for (int b = a + 1; b < phaseStart[p + 1]; b++) {
                    String conflict = syncLabel(systems, autoSync, a, b);
                    if (conflict == null) {
                        conflict = systems[a].access().dataConflictWith(systems[b].access());
                    }
                    boolean ordered = orderSucc.get(order[a]).contains(order[b]);
                    if (conflict != null || ordered) {
                        String label = conflict == null ? "order" : ordered ? conflict + ", order" : conflict;
                        edges.add(new Edge(a, b, label));
                    }
                }
            }
        }
        return new SystemGraph(phases, rules, systems, order, phaseStart, edges, autoSync);
    }

    /**
     * The label of the edge a sync point forces between positions {@code a < b} of one phase,
     * or null: {@code "exclusive"} when either is exclusive and either has a sync point,
     * {@code "sync"} for an explicit one, {@code "auto sync"} for an automatic one (checked in
     * that order, so explicit declarations keep the labels they always had).
     */
    private static String syncLabel(SystemDeclaration[] systems, String[] autoSync, int a, int b) {
        boolean explicit = systems[a].syncBefore() || systems[b].syncBefore();
        if (!explicit && autoSync[a] == null && autoSync[b] == null) {
            return null;
        }
        if (systems[a].exclusive() || systems[b].exclusive()) {
            return "exclusive";
        }
        return explicit ? "sync" : "auto sync";
    }

    /**
     * Walks positions {@code [from, to)} (one phase) in order, keeping the systems whose
     * declared effects are pending since the last sync point, and records in {@code autoSync}
     * why a system needs one before it.
     */
    private static void placeSyncPoints(SystemDeclaration[] systems, int from, int to, String[] autoSync) {
        List<SystemDeclaration> pending = new ArrayList<>();
        for (int s = from; s < to; s++) {
            SystemDeclaration d = systems[s];
            if (d.exclusive() || d.syncBefore()) {
                pending.clear(); // the buffers are applied before it anyway
            } else if (!d.access().noAutoSync()) { // beforeStructuralChanges(): sees the last sync point's world
                String reason = visibleChange(pending, d.access());
                if (reason != null) {
                    autoSync[s] = reason;
                    pending.clear();
                }
            }
            if (!d.exclusive() && !d.access().effects().isEmpty()) {
                pending.add(d);
            }
        }
    }

    /** Why {@code reader} could see a change one of {@code pending} declared, or null. */
    private static String visibleChange(List<SystemDeclaration> pending, SystemAccess reader) {
        for (SystemDeclaration p : pending) {
            StructuralEffects e = p.access().effects();
            if (e.despawns() && reader.seesEntities()) {
                return "'" + p.name() + "' despawns entities that '" + reader.owner() + "' could visit";
            }
            for (Component<?> c : e.touchedComponents()) {
                if (reader.sees(c)) {
                    return "'" + p.name() + "' " + changeOf(e, c) + " " + c + ", which '" + reader.owner()
                            + "' queries or accesses";
                }
            }
        }
        return null;
    }

    private static String changeOf(StructuralEffects e, Component<?> c) {
        if (e.spawnComponents().contains(c)) {
            return "spawns with";
        }
        if (e.addComponents().contains(c)) {
            return "adds";
        }
        return e.removeComponents().contains(c) ? "removes" : "sets later";
    }

    private static int resolve(Map<String, Integer> byName, SystemDeclaration d, String other, String relation) {
        Integer idx = byName.get(other);
        if (idx == null) {
            throw new IllegalArgumentException("system '" + d.name() + "' is ordered " + relation + " '" + other
                    + "', but no system has that name; registered systems: " + byName.keySet());
        }
        if (other.equals(d.name())) {
            throw new OrderCycleException(d.phase(), List.of(other, other));
        }
        return idx;
    }

    private static void addOrder(List<SystemDeclaration> ds, Map<String, Integer> byName, int[] phaseOf,
            List<Phase> phases, List<List<Integer>> orderSucc, int first, int second) {
        if (phaseOf[first] > phaseOf[second]) {
            throw new IllegalArgumentException("system '" + ds.get(first).name() + "' (phase " + ds.get(first).phase()
                    + ") must run before '" + ds.get(second).name() + "' (phase " + ds.get(second).phase()
                    + "), but phases run in the order " + phases + "; move one of them to another phase or drop the "
                    + "constraint");
        }
        if (phaseOf[first] == phaseOf[second] && !orderSucc.get(first).contains(second)) {
            orderSucc.get(first).add(second);
        }
    }

    private static void place(int i, List<SystemDeclaration> ds, List<List<Integer>> orderPred, byte[] state,
            int[] order, int[] pos, List<Integer> path, Phase phase) {
        if (state[i] == 2) {
            return;
        }
        if (state[i] == 1) {
            throw new OrderCycleException(phase, cycleNames(ds, path.subList(path.indexOf(i), path.size())));
        }
        state[i] = 1;
        path.add(i);
        for (int pred : orderPred.get(i)) {
            place(pred, ds, orderPred, state, order, pos, path, phase);
        }
        path.remove(path.size() - 1);
        state[i] = 2;
        order[pos[0]++] = i;
    }

    /** The path runs from a system to its predecessors; print it in run order, from the earliest registered. */
    private static List<String> cycleNames(List<SystemDeclaration> ds, List<Integer> backwards) {
        List<Integer> forward = new ArrayList<>(backwards);
        Collections.reverse(forward);
        int first = forward.indexOf(Collections.min(forward));
        List<String> names = new ArrayList<>();
        for (int k = 0; k <= forward.size(); k++) {
            names.add(ds.get(forward.get((first + k) % forward.size())).name());
        }
        return names;
    }

    /**
     * True when the command buffers are applied just before the system at {@code position}
     * because it declared {@code afterStructuralChanges()} or the graph placed an automatic
     * sync point there (exclusive systems, which always get one, are not counted). This is
     * what the executors act on.
     */
    public boolean syncBefore(int position) {
        return systems[position].syncBefore() || autoSync[position] != null;
    }

    /** True when the graph, not a declaration, placed a sync point before the system at {@code position}. */
    public boolean autoSyncBefore(int position) {
        return autoSync[position] != null && !systems[position].syncBefore();
    }

    /**
     * Why a sync point precedes the system at {@code position}: for an automatic one, the
     * earlier system and the component (or its despawns), for example
     * {@code "'spawner' spawns with Position, which 'mover' queries or accesses"};
     * {@code "declared afterStructuralChanges()"} for an explicit one; {@code null} when none.
     */
    public String syncReason(int position) {
        if (systems[position].syncBefore()) {
            return "declared afterStructuralChanges()";
        }
        return autoSync[position];
    }

    /** Number of systems. */
    public int size() {
        return systems.length;
    }

    /** The system at {@code position} of the linear order. */
    public SystemDeclaration system(int position) {
        return systems[position];
    }

    /** The registration index of the system at {@code position}. */
    public int registrationIndex(int position) {
        return registrationIndex[position];
    }

    /** The position of the system named {@code name}, or -1. */
    public int positionOf(String name) {
        for (int i = 0; i < systems.length; i++) {
            if (systems[i].name().equals(name)) {
                return i;
            }
        }
        return -1;
    }

    /** The phases, in run order. */
    public List<Phase> phases() {
        return phases;
    }

    /** The rule of phase number {@code phase}: how often it runs. */
    public PhaseRule phaseRule(int phase) {
        return phaseRules.get(phase);
    }

    /** Position of the first system of phase number {@code phase}. */
    public int phaseStart(int phase) {
        return phaseStart[phase];
    }

    /** Position after the last system of phase number {@code phase}. */
    public int phaseEnd(int phase) {
        return phaseStart[phase + 1];
    }

    /** All edges, ordered by source then target position. */
    public List<Edge> edges() {
        return edges;
    }

    /** Positions of the systems that wait for the system at {@code position} (do not modify). */
    public int[] successors(int position) {
        return successors[position];
    }

    /** Number of systems the system at {@code position} waits for. */
    public int predecessorCount(int position) {
        return predecessorCount[position];
    }

    /**
     * The graph in Graphviz DOT: one cluster per phase (phases chained by dashed edges),
     * one node per system (exclusive ones boxed; one with a sync point before it drawn with
     * two outlines, labelled {@code "sync before"} when declared and dashed with
     * {@code "auto sync before: <reason>"} when placed by the graph; one with a run condition
     * labelled {@code "name (if <condition>)"}), one edge per dependency labelled with its
     * cause ({@code "events <channel>"} from an event writer to a reader); a phase with a rule
     * has it in its cluster's label.
     */
    public String toDot() {
        return GraphText.dot(this);
    }

    /**
     * The graph as text: per phase, each system in linear order with its access and the
     * systems it waits for, each with the cause; a sync point before a system is a line of
     * its own ({@code -- sync point: ...} when declared, {@code -- auto sync point: ... (reason) --}
     * when placed by the graph); a system's run condition on a {@code runs if ...} line under
     * it; a phase's rule (condition, fixed step, transition) in its header.
     */
    public String toText() {
        return GraphText.text(this);
    }

    @Override
    public String toString() {
        return toText();
    }
}
