package dev.orrery.ecs.archetype;

import it.unimi.dsi.fastutil.ints.Int2ObjectOpenHashMap;
import java.util.Arrays;

/**
 * One archetype's outgoing edges in the archetype graph: the add and remove edges by column
 * id (each with its {@link MovePlan}), and the plans to any other target, kept by target id.
 * {@link Archetypes} fills the edges as structural changes find them, so a repeated change
 * finds its target archetype and its plan in O(1). Archetypes never change their columns,
 * so an edge or a plan never goes stale.
 *
 * <p><b>Threading:</b> mutated only by the thread that applies structural changes.
 */
final class ArchetypeEdges {
    private final Archetype source;
    // Add and remove edges by column id (null: not known yet).
    private MovePlan[] addEdges = new MovePlan[0];
    private MovePlan[] removeEdges = new MovePlan[0];
    private final Int2ObjectOpenHashMap<MovePlan> plans = new Int2ObjectOpenHashMap<>();
    private MovePlan lastPlan;

    ArchetypeEdges(Archetype source) {
        this.source = source;
    }

    /** The plan for moving rows from the source to {@code target}, built on first use and kept. */
    MovePlan planTo(Archetype target) {
        MovePlan p = lastPlan;
        if (p != null && p.target() == target) {
            return p;
        }
        p = plans.get(target.id());
        if (p == null || p.target() != target) {
            p = new MovePlan(source, target);
            plans.put(target.id(), p);
        }
        lastPlan = p;
        return p;
    }

    /** The cached add edge for column {@code columnId}, or null when it is not known yet. */
    MovePlan addEdge(int columnId) {
        MovePlan[] e = addEdges;
        return columnId < e.length ? e[columnId] : null;
    }

    /** The cached remove edge for column {@code columnId}, or null when it is not known yet. */
    MovePlan removeEdge(int columnId) {
        MovePlan[] e = removeEdges;
        return columnId < e.length ? e[columnId] : null;
    }

    /** The id of the archetype the add edge for {@code columnId} leads to, or -1 (tests). */
    int addEdgeTarget(int columnId) {
        MovePlan p = addEdge(columnId);
        return p == null ? -1 : p.target().id();
    }

    /** The id of the archetype the remove edge for {@code columnId} leads to, or -1 (tests). */
    int removeEdgeTarget(int columnId) {
        MovePlan p = removeEdge(columnId);
        return p == null ? -1 : p.target().id();
    }

    void putAddEdge(int columnId, Archetype target) {
        addEdges = put(addEdges, columnId, planTo(target));
    }

    void putRemoveEdge(int columnId, Archetype target) {
        removeEdges = put(removeEdges, columnId, planTo(target));
    }

    private static MovePlan[] put(MovePlan[] edges, int columnId, MovePlan plan) {
        MovePlan[] e = columnId < edges.length ? edges : Arrays.copyOf(edges, Math.max(columnId + 1, edges.length * 2));
        e[columnId] = plan;
        return e;
    }
}
