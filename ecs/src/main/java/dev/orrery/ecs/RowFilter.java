package dev.orrery.ecs;

import dev.orrery.ecs.archetype.Archetype;
import dev.orrery.ecs.component.Component;
import dev.orrery.ecs.component.Entity;
import dev.orrery.ecs.storage.SparseColumn;
import java.util.ArrayList;
import java.util.List;

/**
 * The terms of a {@link Query} that archetypes cannot decide, tested row by row: sparse
 * {@code with}/{@code without}/{@code any} terms (membership of the sparse sets) and pair
 * terms (the relation store). Empty for most queries; then {@link #any} is false and the
 * query never asks it about a row.
 *
 * <p><b>Threading:</b> immutable after construction; {@link #matches} reads the sparse sets
 * and the relation store, so call it while neither changes (inside an iteration).
 */
final class RowFilter {
    private final SparseColumn[] sparseAll;
    private final SparseColumn[] sparseNone;
    private final SparseColumn[] sparseAny;
    // The query's table "any" column ids: a row passes an any term through a table column too.
    private final int[] tableAny;
    private final Relations relations;
    private final Relation[] pairRelations;
    private final long[] pairTargets;

    RowFilter(SparseColumn[][] sparseTerms, int[] tableAny, Relations relations, Relation[] pairRelations,
            long[] pairTargets) {
        this.sparseAll = sparseTerms[0];
        this.sparseNone = sparseTerms[1];
        this.sparseAny = sparseTerms[2];
        this.tableAny = tableAny;
        this.relations = relations;
        this.pairRelations = pairRelations;
        this.pairTargets = pairTargets;
    }

    boolean hasSparse() {
        return sparseAll.length + sparseNone.length + sparseAny.length > 0;
    }

    boolean hasSparseAny() {
        return sparseAny.length > 0;
    }

    boolean hasPairs() {
        return pairRelations.length > 0;
    }

    /** True when some rows of a matching archetype may fail. */
    boolean any() {
        return hasSparse() || hasPairs();
    }

    Relation firstPairRelation() {
        return pairRelations.length == 0 ? null : pairRelations[0];
    }

    Component<?> firstSparseColumn() {
        for (SparseColumn[] term : new SparseColumn[][] {sparseAll, sparseNone, sparseAny}) {
            if (term.length > 0) {
                return term[0].column();
            }
        }
        return null;
    }

    /** The rows of {@code archetypes} (a query's match) that pass, counted chunk by chunk. */
    int count(List<Archetype> archetypes) {
        int n = 0;
        for (int a = 0, na = archetypes.size(); a < na; a++) { // by index: an iterator allocated on every count
            Archetype arch = archetypes.get(a);
            for (int c = 0, nc = arch.chunkCount(); c < nc; c++) {
                long[] ids = arch.chunk(c).entities();
                for (int i = 0, size = arch.chunk(c).size(); i < size; i++) {
                    if (matches(arch, ids[i])) {
                        n++;
                    }
                }
            }
        }
        return n;
    }

    /**
     * Refuses a chunk loop over query {@code query} (its description) when rows may fail: a chunk
     * loop cannot skip them.
     *
     * @throws IllegalStateException naming what filters rows and the loop to use instead
     */
    void refuseChunkLoop(String query) {
        if (hasPairs()) {
            throw new IllegalStateException(query + " filters by " + description() + ", which a chunk loop "
                    + "cannot do (pairs do not split archetypes); iterate it with forEach(...), or query with("
                    + firstPairRelation().name() + ") and compare view.readLongs(relation.target())[row] in the loop");
        }
        if (hasSparse()) {
            throw new IllegalStateException(query + " filters by sparse column " + firstSparseColumn() + ", which a "
                    + "chunk loop cannot do (sparse columns are not part of archetypes); iterate it with forEach(...), "
                    + "or register " + firstSparseColumn() + " with Storage.TABLE to filter whole chunks");
        }
    }

    /** What makes rows fail, for messages ({@code null} when nothing does). */
    String description() {
        if (hasSparse()) {
            return "sparse column " + firstSparseColumn();
        }
        if (hasPairs()) {
            return "pair (" + pairRelations[0] + ", " + Entity.toString(pairTargets[0]) + ")";
        }
        return null;
    }

    /** The ids of the sparse columns of every term. */
    int[] sparseColumnIds() {
        int[] ids = new int[sparseAll.length + sparseNone.length + sparseAny.length];
        int n = 0;
        for (SparseColumn[] term : new SparseColumn[][] {sparseAll, sparseNone, sparseAny}) {
            for (SparseColumn s : term) {
                ids[n++] = s.column().id();
            }
        }
        return ids;
    }

    /** True when {@code entity}, found in archetype {@code a} (which the query matches), passes every row term. */
    boolean matches(Archetype a, long entity) {
        for (int i = 0; i < pairRelations.length; i++) {
            if (!relations.has(entity, pairRelations[i], pairTargets[i])) {
                return false;
            }
        }
        int idx = Entity.index(entity);
        for (SparseColumn s : sparseAll) {
            if (!s.contains(idx)) {
                return false;
            }
        }
        for (SparseColumn s : sparseNone) {
            if (s.contains(idx)) {
                return false;
            }
        }
        if (sparseAny.length == 0) {
            return true;
        }
        for (SparseColumn s : sparseAny) {
            if (s.contains(idx)) {
                return true;
            }
        }
        for (int c : tableAny) {
            if (a.has(c)) {
                return true;
            }
        }
        return false;
    }

    /** The row terms for {@link Query#toString}. */
    String describeTerms() {
        String out = "";
        if (hasSparse()) {
            out += ", sparse all=" + names(sparseAll) + ", sparse none=" + names(sparseNone) + ", sparse any="
                    + names(sparseAny);
        }
        for (int i = 0; i < pairRelations.length; i++) {
            out += ", pair (" + pairRelations[i] + ", " + Entity.toString(pairTargets[i]) + ")";
        }
        return out;
    }

    private static String names(SparseColumn[] term) {
        List<Component<?>> out = new ArrayList<>();
        for (SparseColumn s : term) {
            out.add(s.column());
        }
        return out.toString();
    }
}
