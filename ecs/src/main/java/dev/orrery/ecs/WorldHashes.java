package dev.orrery.ecs;

import dev.orrery.ecs.archetype.Archetype;
import dev.orrery.ecs.archetype.Archetypes;
import dev.orrery.ecs.archetype.Chunk;
import dev.orrery.ecs.component.Component;
import dev.orrery.ecs.component.ComponentType;
import dev.orrery.ecs.component.FieldType;
import dev.orrery.ecs.hash.StateHasher;
import dev.orrery.ecs.storage.EntityTable;
import dev.orrery.ecs.storage.IndexSort;
import dev.orrery.ecs.storage.SparseColumn;
import dev.orrery.ecs.structure.SparseColumns;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * The state hashes of a world's storage: the whole-state hash that replays compare tick by
 * tick, and one hash per column that says which component types differ when they do. Both
 * walk the archetypes in creation order and take each field value's word from
 * {@link #valueWord}, the one place that defines what a value contributes.
 *
 * <p>The whole-state format is pinned by a golden value in {@code StateHashTest}: recorded
 * journals carry these hashes, so a change to the order or the words mixed in here
 * invalidates every recording.
 *
 * <p>Sparse columns come after everything else, and only in a world that registered one, so
 * a world without sparse columns hashes exactly as before they existed. Each sparse column
 * (in column-id order) contributes its id, its size and its members in ascending entity
 * index, each with its id and field words: the canonical order of the state, not of the
 * adds and removes that led to it (a set's dense order is history).
 *
 * <p>Relations come last, and likewise only in a world that registered one: each relation's
 * traits and its pairs with their sequence numbers, in a canonical order (see
 * {@link #stateHash(Archetypes, EntityTable, SparseColumns, Relations)}).
 *
 * <p><b>Threading:</b> stateless; call while no structural change or job runs (a cold path).
 */
final class WorldHashes {
    private WorldHashes() {
    }

    /**
     * A 64-bit hash of the whole state: for every archetype in creation order, its columns,
     * then every row in chunk order with its entity id and every field's exact bits; then
     * the high-water mark, every slot's generation and the free list in reuse order.
     */
    public static long stateHash(Archetypes archetypes, EntityTable entities) {
        return stateHash(archetypes, entities, null);
    }

    /**
     * As {@link #stateHash(Archetypes, EntityTable)}, then, when {@code sparse} is not null and
     * the world registered a sparse column, every sparse column's members in canonical order.
     */
    public static long stateHash(Archetypes archetypes, EntityTable entities, SparseColumns sparse) {
        return stateHash(archetypes, entities, sparse, null);
    }

    /**
     * As {@link #stateHash(Archetypes, EntityTable, SparseColumns)}, then, when
     * {@code relations} is not null and the world registered a relation, every relation in id
     * order: its id, name hash, traits, next sequence number and pair count, then its pairs as
     * (holder, target, seq), targets by ascending entity index and each target's holders in
     * pair order ({@link Relations#forEachPair}: no sort, no allocation). The seq numbers are
     * state (they give a parent's children's order), so two worlds whose children differ only
     * in order hash differently.
     */
    public static long stateHash(Archetypes archetypes, EntityTable entities, SparseColumns sparse,
            Relations relations) {
        return stateHash(archetypes, entities, sparse, relations, new Scratch());
    }

    /**
     * As {@link #stateHash(Archetypes, EntityTable, SparseColumns, Relations)}, with the
     * hasher and pair visitor of {@code scratch} (the world keeps one, so a simulation that
     * hashes every tick allocates nothing for it). A scratch already in use by another thread
     * hashing the same world is left alone and a new one used.
     */
    static long stateHash(Archetypes archetypes, EntityTable entities, SparseColumns sparse,
            Relations relations, Scratch scratch) {
        Scratch own = scratch.claim();
        try {
            return hash(archetypes, entities, sparse, relations, own);
        } finally {
            own.release();
        }
    }

    private static long hash(Archetypes archetypes, EntityTable entities, SparseColumns sparse,
            Relations relations, Scratch scratch) {
        StateHasher h = scratch.hasher.reset();
        for (int ai = 0; ai < archetypes.count(); ai++) {
            Archetype a = archetypes.get(ai);
            h.mix(0xA5A5_0000_0000L | ai);
            h.mix(a.size());
            for (int s = 0; s < a.columnCount(); s++) {
                Component<?> c = a.component(s);
                h.mix(((long) c.type().id() << 32) | (c.nameHash() & 0xFFFF_FFFFL));
            }
            for (int ci = 0; ci < a.chunkCount(); ci++) {
                Chunk chunk = a.chunk(ci);
                int n = chunk.size();
                long[] ids = chunk.entities();
                for (int r = 0; r < n; r++) {
                    h.mix(ids[r]);
                }
                for (int s = 0; s < a.columnCount(); s++) {
                    ComponentType<?> t = a.component(s).type();
                    for (int f = 0; f < t.fieldCount(); f++) {
                        FieldType ft = t.fieldType(f);
                        Object arr = chunk.array(s, f);
                        for (int r = 0; r < n; r++) {
                            h.mix(valueWord(ft, arr, r));
                        }
                    }
                }
            }
        }
        h.mix(entities.highWater());
        for (int i = 0; i < entities.highWater(); i++) {
            h.mix(entities.generation(i));
        }
        for (int i = 0, n = entities.freeCount(); i < n; i++) { // freeListInOrder() without its copy
            h.mix(entities.freeInOrder(i));
        }
        if (sparse != null && sparse.any()) {
            for (int id = 0, n = sparse.idLimit(); id < n; id++) { // inIdOrder() without its list
                SparseColumn s = sparse.inIdOrder(id);
                if (s == null) {
                    continue;
                }
                h.mix(0x5A5A_0000_0000L | s.column().id());
                h.mix(s.size());
                mixMembers(h, s, scratch.sort);
            }
        }
        if (relations != null && relations.any()) {
            mixRelations(scratch, relations);
        }
        return h.value();
    }

    /** Each relation in id order: id, name hash, traits, next seq, pair count, then its pairs in canonical order. */
    private static void mixRelations(Scratch scratch, Relations relations) {
        StateHasher h = scratch.hasher;
        List<Relation> all = relations.all();
        for (int i = 0, n = all.size(); i < n; i++) { // by index, and the scratch as the visitor: no iterator, no lambda
            Relation r = all.get(i);
            h.mix(0x4E4E_0000_0000L | r.id());
            h.mix(r.column().nameHash());
            h.mix((r.exclusive() ? 1 : 0) | (r.acyclic() ? 2 : 0) | ((long) r.cleanup().ordinal() << 2));
            h.mix(relations.nextSeq(r));
            h.mix(relations.pairCount(r));
            relations.forEachPair(r, scratch);
        }
    }

    /** Each member of {@code s} by ascending entity index: its id, then its field words. */
    private static void mixMembers(StateHasher h, SparseColumn s, IndexSort sort) {
        ComponentType<?> t = s.column().type();
        if (s.size() == 0) {
            return; // no members to mix
        }
        Object[] arrays = s.arrays();
        int[] sorted = s.sortedIndices(sort); // the scratch's arrays: nothing allocated once they fit
        for (int k = 0, n = s.size(); k < n; k++) {
            int p = s.positionOf(sorted[k]);
            h.mix(s.entity(p));
            for (int f = 0; f < t.fieldCount(); f++) {
                h.mix(valueWord(t.fieldType(f), arrays[f], p));
            }
        }
    }

    /**
     * One hash per column (indexed by column id, {@code columnCount} of them) over the
     * column's values in canonical order (archetypes in creation order, chunks, rows, with
     * each row's entity id).
     */
    public static long[] columnHashes(Archetypes archetypes, int columnCount) {
        return columnHashes(archetypes, columnCount, null);
    }

    /**
     * As {@link #columnHashes(Archetypes, int)}; a sparse column's hash covers its members in
     * ascending entity index, each with its id and field words.
     */
    public static long[] columnHashes(Archetypes archetypes, int columnCount, SparseColumns sparse) {
        return columnHashes(archetypes, columnCount, sparse, new Scratch(), null);
    }

    /**
     * As {@link #columnHashes(Archetypes, int, SparseColumns)}, with the hashers and the sort of
     * {@code scratch} (used by this thread only, or a new one if another holds it), into
     * {@code reuse} when it has {@code columnCount} entries, else into a new array: a recording
     * asks every hashed tick, and allocates nothing for it once warm.
     */
    static long[] columnHashes(Archetypes archetypes, int columnCount, SparseColumns sparse, Scratch scratch,
            long[] reuse) {
        Scratch own = scratch.claim();
        try {
            StateHasher[] hs = own.columnHashers(columnCount);
            mixColumns(archetypes, sparse, hs, own.sort);
            long[] out = reuse != null && reuse.length == columnCount ? reuse : new long[columnCount];
            for (int i = 0; i < columnCount; i++) {
                out[i] = hs[i].value();
            }
            return out;
        } finally {
            own.release();
        }
    }

    private static void mixColumns(Archetypes archetypes, SparseColumns sparse, StateHasher[] hs, IndexSort sort) {
        for (int ai = 0; ai < archetypes.count(); ai++) {
            Archetype a = archetypes.get(ai);
            for (int s = 0; s < a.columnCount(); s++) {
                StateHasher h = hs[a.columnId(s)];
                ComponentType<?> t = a.component(s).type();
                for (int ci = 0; ci < a.chunkCount(); ci++) {
                    Chunk chunk = a.chunk(ci);
                    for (int r = 0; r < chunk.size(); r++) {
                        h.mix(chunk.entity(r));
                        for (int f = 0; f < t.fieldCount(); f++) {
                            h.mix(valueWord(t.fieldType(f), chunk.array(s, f), r));
                        }
                    }
                }
            }
        }
        if (sparse != null && sparse.any()) {
            for (int id = 0, n = sparse.idLimit(); id < n; id++) { // inIdOrder() without its list
                SparseColumn s = sparse.inIdOrder(id);
                if (s != null) {
                    mixMembers(hs[s.column().id()], s, sort);
                }
            }
        }
    }

    /**
     * What hashing the whole state needs that a world can keep between hashes: the hasher,
     * the visitor that mixes relation pairs into it, and the arrays that sort each sparse
     * column's members. One thread at a time uses it
     * ({@link #claim}): the claim is a compare-and-set of a flag and {@link #release()} a
     * volatile write of it, so one holder's use happens-before the next holder's, on any thread.
     */
    static final class Scratch implements Relations.PairVisitor {
        private final StateHasher hasher = new StateHasher();
        private final IndexSort sort = new IndexSort();
        private final AtomicBoolean busy = new AtomicBoolean();
        private StateHasher[] columns = new StateHasher[0];

        /** {@code count} hashers, each started over, for {@link #columnHashes}: kept between calls. */
        StateHasher[] columnHashers(int count) {
            if (columns.length < count) {
                StateHasher[] grown = java.util.Arrays.copyOf(columns, count);
                for (int i = columns.length; i < count; i++) {
                    grown[i] = new StateHasher();
                }
                columns = grown;
            }
            for (int i = 0; i < count; i++) {
                columns[i].reset();
            }
            return columns;
        }

        /**
         * This scratch, which the caller holds until it calls {@link #release()} on what it got;
         * or, while another thread holds this one, a new one (a hash then allocates rather than waits).
         */
        Scratch claim() {
            return busy.compareAndSet(false, true) ? this : new Scratch();
        }

        /** Gives back what {@link #claim()} returned (on a new scratch, which no one else sees, it does nothing that matters). */
        void release() {
            busy.set(false);
        }

        @Override
        public void visit(long holder, long target, long seq) {
            hasher.mix(holder);
            hasher.mix(target);
            hasher.mix(seq);
        }
    }

    /** The word a field value contributes to a hash: its exact bits, or a reference's hashCode. */
    private static long valueWord(FieldType ft, Object array, int row) {
        return ft == FieldType.OBJECT ? Objects.hashCode(((Object[]) array)[row]) : ft.bits(array, row);
    }
}
