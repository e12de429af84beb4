package dev.orrery.scheduler.executor;

import dev.orrery.ecs.ownership.TuningProperty;
import dev.orrery.ecs.Query;
import dev.orrery.ecs.component.Component;
import dev.orrery.ecs.internal.EcsInternals;
import dev.orrery.scheduler.access.SystemAccess;
import dev.orrery.scheduler.graph.SystemGraph;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

/**
 * Which systems of a plan the {@link ParallelExecutor} fuses into chunk pipelines: runs of
 * chunk systems of one phase over the same query that it hands out as one job per chunk
 * range, each system's work on the range in graph order, so a range is handed off (and its
 * columns loaded) once for the whole run instead of once per system.
 *
 * <p>A pipeline's result is the graph order's, bit for bit, because each member touches only
 * the chunks of its own job: a system of the pipeline sees, on every chunk, exactly what
 * every earlier member (and every system finished before the pipeline starts) left there.
 * A system {@code t} joins the pipeline of head {@code h} when:
 * <ul>
 *   <li>both are plain chunk systems (no range, level or exclusive body) with no run
 *       condition, over the same {@link Query} instance with no change filter (so their
 *       chunk lists are the same), and the same {@code minBatchRows};
 *   <li>{@code t} has no sync point before it, and each system it waits for in the graph is
 *       in the pipeline or finishes before {@code h} starts (an ancestor of {@code h});
 *   <li>no member shares a resource or an event channel with {@code t} where one side writes
 *       (or reduces) it: those need every chunk of the writer done first;
 *   <li>neither declared {@code touchesOtherEntities()}. A by-id access to another chunk's
 *       entity, of a column another member writes (or, for a write, reads), is refused at
 *       run time by {@link ByIdAccess}, naming that declaration (a read of an entity the
 *       query does not match is allowed: no member writes it during the pipeline).
 * </ul>
 * A member's successors outside the pipeline start when the whole pipeline has finished.
 *
 * <p>{@code -D}{@value #PROPERTY}{@code =false}, read when an executor is built, turns
 * pipelines off: every system is handed out on its own, as before pipelines existed (for
 * comparing the two; the results are the same). Any value but {@code true} or {@code false}
 * fails the executor's build, naming the property.
 *
 * <p><b>Threading:</b> computed once, when the executor is built; immutable after.
 */
final class ChunkPipelines {
    /** The system property that turns chunk pipelines off when {@code false}. */
    static final String PROPERTY = "orrery.chunkPipelines";

    /** The next member of the pipeline, by position, or -1. */
    final int[] next;
    /** True for a member that is not its pipeline's head: started and completed with the head. */
    final boolean[] member;

    ChunkPipelines(SystemRun[] runs, SystemGraph graph) {
        int n = runs.length;
        next = new int[n];
        member = new boolean[n];
        java.util.Arrays.fill(next, -1);
        if (!TuningProperty.booleanValue(PROPERTY, true)) {
            return;
        }
        List<int[]> preds = predecessors(graph, n);
        for (int p = 0; p < graph.phases().size(); p++) {
            int end = graph.phaseEnd(p);
            for (int h = graph.phaseStart(p); h < end; h++) {
                if (member[h] || !fusable(runs[h])) {
                    continue;
                }
                boolean[] before = ancestors(h, preds, n);
                List<Integer> group = new ArrayList<>();
                group.add(h);
                int tail = h;
                for (int t = h + 1; t < end; t++) {
                    if (member[t] || !fusable(runs[t]) || graph.syncBefore(t) || !joins(runs, group, t, preds, before)) {
                        continue;
                    }
                    group.add(t);
                    member[t] = true;
                    next[tail] = t;
                    tail = t;
                }
                if (group.size() > 1) {
                    hazards(runs, group);
                }
            }
        }
    }

    private static boolean fusable(SystemRun r) {
        ScheduledSystem s = r.system;
        return r.body != null && r.rangeBody == null && r.walk == null && !r.exclusive && r.runIf == null
                && s.query() != null && !EcsInternals.hasChangeFilter(s.query()) && !r.access.touchesOtherEntities();
    }

    private static boolean joins(SystemRun[] runs, List<Integer> group, int t, List<int[]> preds, boolean[] before) {
        SystemRun head = runs[group.get(0)];
        SystemRun r = runs[t];
        if (r.system.query() != head.system.query() || r.minBatchRows != head.minBatchRows) {
            return false;
        }
        for (int p : preds.get(t)) {
            if (!group.contains(p) && !before[p]) {
                return false;
            }
        }
        for (int m : group) {
            if (sharesFlow(runs[m].access, r.access)) {
                return false;
            }
        }
        return true;
    }

    /** True when one of the two writes or reduces a resource, or writes an event channel, the other touches. */
    private static boolean sharesFlow(SystemAccess a, SystemAccess b) {
        return writesWhatOtherTouches(a, b) || writesWhatOtherTouches(b, a);
    }

    private static boolean writesWhatOtherTouches(SystemAccess w, SystemAccess o) {
        for (var k : w.resourceWrites()) {
            if (o.canReadResource(k) || o.canReduceResource(k)) {
                return true;
            }
        }
        for (var k : w.resourceReductions()) {
            if (o.canReadResource(k) || o.canReduceResource(k)) {
                return true;
            }
        }
        for (var e : w.eventWrites()) {
            if (o.canReadEvents(e) || o.canWriteEvents(e)) {
                return true;
            }
        }
        return false;
    }

    /** Gives each member of {@code group} the columns a by-id access of another chunk may not touch, and the pipeline's name. */
    private static void hazards(SystemRun[] runs, List<Integer> group) {
        StringBuilder name = new StringBuilder();
        for (int m : group) {
            name.append(name.length() == 0 ? "" : " -> ").append('\'').append(runs[m].name).append('\'');
        }
        for (int m : group) {
            Set<Component<?>> unsafeRead = new LinkedHashSet<>();
            Set<Component<?>> unsafeWrite = new LinkedHashSet<>();
            for (int o : group) {
                if (o != m) {
                    unsafeRead.addAll(runs[o].access.writes());
                    unsafeWrite.addAll(runs[o].access.writes());
                    unsafeWrite.addAll(runs[o].access.reads());
                }
            }
            runs[m].pipeline(name.toString(), unsafeRead.toArray(new Component<?>[0]),
                    unsafeWrite.toArray(new Component<?>[0]));
        }
    }

    private static List<int[]> predecessors(SystemGraph graph, int n) {
        List<List<Integer>> in = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            in.add(new ArrayList<>());
        }
        for (int s = 0; s < n; s++) {
            for (int t : graph.successors(s)) {
                in.get(t).add(s);
            }
        }
        List<int[]> out = new ArrayList<>(n);
        for (List<Integer> l : in) {
            out.add(l.stream().mapToInt(Integer::intValue).toArray());
        }
        return out;
    }

    /** Every system {@code s} waits for, directly or not. */
    private static boolean[] ancestors(int s, List<int[]> preds, int n) {
        boolean[] seen = new boolean[n];
        int[] stack = new int[n];
        int top = 0;
        stack[top++] = s;
        while (top > 0) {
            for (int p : preds.get(stack[--top])) {
                if (!seen[p]) {
                    seen[p] = true;
                    stack[top++] = p;
                }
            }
        }
        return seen;
    }
}
