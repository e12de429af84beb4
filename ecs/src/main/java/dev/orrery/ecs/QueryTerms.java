package dev.orrery.ecs;

import dev.orrery.ecs.component.Component;
import dev.orrery.ecs.component.ComponentRegistry;
import dev.orrery.ecs.component.Entity;
import dev.orrery.ecs.storage.SparseColumn;
import dev.orrery.ecs.structure.SparseColumns;
import java.util.List;
import java.util.Objects;

/**
 * The checks of a query builder's terms and the query's description for messages (column
 * names, where {@code Query.toString()} keeps column ids, which tools parse).
 */
final class QueryTerms {
    private QueryTerms() {
    }

    /**
     * {@code columns} as a list, each checked: not null, and registered by {@code registry}
     * (the builder's world; {@code null} for a builder made without one checks nulls only).
     */
    static List<Component<?>> checked(ComponentRegistry registry, Component<?>[] columns, String term) {
        Objects.requireNonNull(columns, () -> "query " + term + "(...) of a null array; give component handles");
        for (Component<?> c : columns) {
            Owned.check(registry, c, "query " + term + "(...)");
        }
        return List.of(columns);
    }

    /**
     * Refuses terms that could never match: a column both required and excluded, or every
     * {@code any} column excluded (no entity could then hold one of them).
     *
     * @throws IllegalArgumentException naming the columns and the terms
     */
    static void refuseImpossible(List<Component<?>> all, List<Component<?>> none, List<Component<?>> any) {
        for (Component<?> c : all) {
            if (none.contains(c)) {
                throw new IllegalArgumentException("query lists " + c + " in both with(...) and without(...); it "
                        + "could never match");
            }
        }
        if (!any.isEmpty() && none.containsAll(any)) {
            throw new IllegalArgumentException("query lists every any(...) column " + any + " in without(...) too; an "
                    + "entity would need one of them and none of them, so it could never match. Drop them from "
                    + "without(...), or the any(...) term");
        }
    }

    /** What {@link #describe} made for {@code query} when it was built (its terms by name), for messages. */
    static String describe(Query query) {
        return query.description;
    }

    /**
     * {@code "query with [Position, Velocity] without [Frozen]"}, with the any, optional, change
     * filter and pair terms given; each column once (a change filter's implied {@code with} is
     * not listed twice).
     */
    static String describe(List<Component<?>> all, List<Component<?>> none, List<Component<?>> any,
            List<Component<?>> optional, List<Component<?>> added, List<Component<?>> changed,
            List<Relation> pairRelations, List<Long> pairTargets) {
        StringBuilder sb = new StringBuilder("query with ").append(all.stream().distinct().toList());
        sb.append(none.isEmpty() ? "" : " without " + none).append(any.isEmpty() ? "" : " any " + any);
        sb.append(optional.isEmpty() ? "" : " optional " + optional);
        sb.append(added.isEmpty() ? "" : " added " + added.stream().distinct().toList());
        sb.append(changed.isEmpty() ? "" : " changed " + changed.stream().distinct().toList());
        for (int i = 0; i < pairRelations.size(); i++) {
            sb.append(" pair (").append(pairRelations.get(i)).append(", ").append(Entity.toString(pairTargets.get(i)))
                    .append(')');
        }
        return sb.toString();
    }

    /** The ids of the table columns in {@code cs}, ascending and distinct. */
    static int[] ids(List<Component<?>> cs) {
        return cs.stream().filter(c -> !c.isSparse()).mapToInt(Component::id).distinct().sorted().toArray();
    }

    /** The sparse sets of the sparse columns in {@code cs}, by ascending column id. */
    static SparseColumn[] sparseOf(SparseColumns sparse, List<Component<?>> cs) {
        return cs.stream().filter(Component::isSparse).distinct().sorted((a, b) -> Integer.compare(a.id(), b.id()))
                .map(c -> sparseSet(sparse, c)).toArray(SparseColumn[]::new);
    }

    private static SparseColumn sparseSet(SparseColumns sparse, Component<?> c) {
        if (sparse == null) {
            throw new IllegalArgumentException("query term " + c + " is a sparse column, but this query builder was "
                    + "made without the world's sparse storage; build queries with world.query()");
        }
        return sparse.of(c);
    }
}
