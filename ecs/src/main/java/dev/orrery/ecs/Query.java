package dev.orrery.ecs;

import dev.orrery.ecs.archetype.Archetype;
import dev.orrery.ecs.archetype.Archetypes;
import dev.orrery.ecs.archetype.ChangeClock;
import dev.orrery.ecs.archetype.StructureLock;
import dev.orrery.ecs.component.Component;
import dev.orrery.ecs.component.Entity;
import dev.orrery.ecs.storage.JobsRunning;
import dev.orrery.ecs.storage.SparseColumn;
import dev.orrery.ecs.structure.SparseColumns;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.List;

/**
 * A cached match of archetypes against terms: every {@code all} column present, no
 * {@code none} column present, and, when {@code any} columns are given, at least one of them.
 * {@code optional} columns do not affect the match; they document what the loop may read
 * via {@link ChunkView#has}.
 *
 * <p><b>Sparse columns</b> ({@code Storage.SPARSE}) may appear in every term. They are not
 * part of any archetype, so a query with a sparse {@code with}, {@code without} or
 * {@code any} term (a <em>sparse filter</em>) matches archetypes by its table terms and
 * then tests each row's membership: {@link #forEach} visits the rows in the same order as
 * without the sparse terms (archetype creation order, chunk order, row order), skipping
 * those that fail them, and {@link #count} is exact. {@link #forEachChunk} cannot skip rows
 * of a chunk, so it refuses such a query. A sparse {@code optional} term filters nothing;
 * the loop reads it per row with {@link ChunkView#has(Component, int)} and
 * {@link ChunkView#get}.
 *
 * <p>Queries match archetypes, not entities. The match list is kept current lazily: each
 * iteration first checks the archetypes created since the last one, in creation order, so
 * the order of chunks is the same on every run.
 *
 * <p><b>Looking without changing:</b> every {@link #forEachChunk} and {@link #forEach} takes a
 * change tick (the world's change clock, which snapshots keep, moves on). Code that only
 * reads between ticks (a HUD, a map, a report, a network send) iterates with
 * {@link #forEachChunkReadOnly} or {@link #forEachReadOnly} instead: no tick is taken, so
 * looking leaves later snapshots byte for byte as they would have been, and the view
 * refuses writes.
 *
 * <p><b>Threading:</b> iterate from the thread that owns the world (or from the scheduler,
 * which refreshes the match before it hands chunks to workers). While an iteration runs,
 * structural changes on the world are refused.
 *
 * <p>(Over 500 lines on purpose: the builder is nested so that user code names it
 * {@code Query.Builder}, and each iteration form documents its change semantics.)
 */
public final class Query {
    // Only the archetypes and the structure lock of the world, not the world: a narrow
    // dependency that keeps the query package free of a cycle with dev.orrery.ecs.World.
    private final Archetypes archetypes;
    private final StructureLock structure;
    // The world's jobs-running marker (null for a query made outside a world): no direct iteration inside a job.
    private final JobsRunning jobs;
    private final int[] all;
    private final int[] none;
    private final int[] any;
    private final Component<?>[] optional;
    private final SparseColumns sparse;
    private final RowFilter rows;
    private final ArrayList<Archetype> matched = new ArrayList<>();
    private final List<Archetype> matchedView = Collections.unmodifiableList(matched);
    private final ChunkView view;
    private ChunkView lookView; // made on the first read-only iteration
    private int seen;
    private boolean viewInUse;
    private boolean lookInUse;
    // Change filters (table column ids, ascending) and the tick of the last direct iteration.
    private final int[] addedTerms;
    private final int[] changedTerms;
    private long lastRun;
    // The clock's tick before now at the last read-only iteration: what its change filter compares against.
    private long lookedAt;
    // The terms by name, for messages (Builder.build sets it; toString keeps column ids, which tools parse).
    String description = "query";

    Query(Archetypes archetypes, StructureLock structure, JobsRunning jobs, int[] all, int[] none, int[] any,
            Component<?>[] optional, SparseColumns sparse, SparseColumn[][] sparseTerms, int[][] changeTerms,
            Relations relations, Relation[] pairRelations, long[] pairTargets) {
        this.jobs = jobs;
        this.addedTerms = changeTerms[0];
        this.changedTerms = changeTerms[1];
        this.archetypes = archetypes;
        this.structure = structure;
        this.all = all;
        this.none = none;
        this.any = any;
        this.optional = optional;
        this.sparse = sparse;
        this.rows = new RowFilter(sparseTerms, any, relations, pairRelations, pairTargets);
        this.view = new ChunkView(null, sparse);
    }

    /** True when the query has an {@code added(...)} or {@code changed(...)} filter. */
    boolean hasChangeFilter() {
        return addedTerms.length + changedTerms.length > 0;
    }

    /** The columns of the {@code added(...)} and {@code changed(...)} filters, ascending ids, distinct. */
    int[] changeFilterColumnIds() {
        return java.util.stream.IntStream.concat(Arrays.stream(addedTerms), Arrays.stream(changedTerms)).sorted()
                .distinct().toArray();
    }

    /**
     * True when {@code chunk} (of a matching archetype) passes the change filters for an
     * owner that last ran at tick {@code lastRun}: every {@code added} column's added version
     * and every {@code changed} column's changed version is newer. Chunk granularity (see
     * {@link ChunkView#changed}); a query without change filters passes every chunk.
     */
    boolean passes(dev.orrery.ecs.archetype.Chunk chunk, long lastRun) {
        Archetype a = chunk.archetype();
        for (int id : addedTerms) {
            if (chunk.addedVersion(a.slotOf(id)) <= lastRun) {
                return false;
            }
        }
        for (int id : changedTerms) {
            if (chunk.changedVersion(a.slotOf(id)) <= lastRun) {
                return false;
            }
        }
        return true;
    }

    /** The tick of this query's last direct iteration ({@code forEachChunk}, {@code forEach}); 0 before the first. */
    long lastRun() {
        return lastRun;
    }

    /**
     * True when a {@code with}, {@code without} or {@code any} term names a sparse column:
     * the query then filters rows one by one, and {@link #forEachChunk} refuses it.
     */
    boolean hasSparseFilter() {
        return rows.hasSparse();
    }

    /** True when the query has a pair term ({@link Builder#pair}): decided per row, in the relation store. */
    boolean hasPairFilter() {
        return rows.hasPairs();
    }

    /**
     * True when some rows of a matching archetype may fail the query: a sparse filter
     * ({@link #hasSparseFilter}) or a pair term ({@link #hasPairFilter}). Such a query is
     * iterated row by row ({@link #forEach}); a chunk loop cannot skip rows.
     */
    boolean hasRowFilter() {
        return rows.any();
    }

    /** What makes this query filter rows, for messages ({@code null} when nothing does). */
    String rowFilterDescription() {
        return rows.description();
    }

    /** The first sparse column of a {@code with}, {@code without} or {@code any} term, or {@code null} (for messages). */
    Component<?> sparseFilterColumn() {
        return rows.firstSparseColumn();
    }

    /**
     * The ids of every column a term names ({@code with}, {@code without}, {@code any},
     * {@code optional}, table or sparse), ascending and distinct: a structural change to any
     * of them can change what the query visits. The scheduler uses it to place sync points.
     */
    int[] termColumnIds() {
        int[] sparseIds = rows.sparseColumnIds();
        int[] ids = new int[all.length + none.length + any.length + optional.length + sparseIds.length
                + addedTerms.length + changedTerms.length];
        int n = 0;
        for (int[] term : new int[][] {all, none, any, addedTerms, changedTerms, sparseIds}) {
            for (int id : term) {
                ids[n++] = id;
            }
        }
        for (Component<?> c : optional) {
            ids[n++] = c.id();
        }
        return Arrays.stream(ids).sorted().distinct().toArray();
    }

    /** True when this query reads {@code archetypes} (its world's; see {@code World.owns}). */
    boolean readsFrom(Archetypes archetypes) {
        return this.archetypes == archetypes;
    }

    /** The matching archetypes, in creation order, after picking up any new ones. */
    List<Archetype> archetypes() {
        refresh();
        return matchedView;
    }

    /** True when archetype {@code a} satisfies the terms. */
    boolean matches(Archetype a) {
        for (int c : all) {
            if (!a.has(c)) {
                return false;
            }
        }
        for (int c : none) {
            if (a.has(c)) {
                return false;
            }
        }
        if (any.length == 0 || rows.hasSparseAny()) {
            return true; // a sparse any term is decided per row (RowFilter.matches)
        }
        for (int c : any) {
            if (a.has(c)) {
                return true;
            }
        }
        return false;
    }

    private void refresh() {
        int n = archetypes.count();
        for (; seen < n; seen++) {
            Archetype a = archetypes.get(seen);
            if (matches(a)) {
                matched.add(a);
            }
        }
    }

    /**
     * Calls {@code body} once per non-empty matching chunk, in archetype creation order and
     * chunk order. Allocates nothing (a nested iteration of the same query uses a second view).
     *
     * @param body the chunk loop, not null; called on this thread with a view valid only during the call
     *     (do not keep it)
     * @throws IllegalStateException from a structural change attempted inside {@code body},
     *     or when the query has a sparse filter (see {@link #hasSparseFilter}): a chunk loop
     *     cannot skip the rows that fail it; or for a change filter iterated during a scheduled
     *     phase outside an exclusive system (an observer hook at its sync point)
     */
    public void forEachChunk(ChunkConsumer body) {
        java.util.Objects.requireNonNull(body, "body (the chunk loop)");
        rows.refuseChunkLoop(description);
        chunks(body, null, false);
    }

    /**
     * Calls {@code body} once per non-empty matching chunk, as {@link #forEachChunk} does, but
     * only to read: the iteration takes no change tick, so the world's change clock (which
     * snapshots keep) and this query's last iteration stay as they are, and the view refuses
     * every write. Use it for code that looks at the world between ticks and must not change
     * what a later snapshot holds. A change filter ({@code added}, {@code changed}) passes the
     * chunks stamped since this query's last read-only iteration (conservatively: a chunk
     * stamped at the tick just before that iteration passes again). Allocates nothing after
     * its first call.
     *
     * @param body the chunk loop, not null; its view refuses writes and is valid only during the call
     * @throws IllegalStateException as {@link #forEachChunk}; from a write through the view
     *     (naming the component); or for a change filter iterated during a scheduled phase
     *     (the schedule's ticks are not yet settled there: read changes in a system)
     */
    public void forEachChunkReadOnly(ChunkConsumer body) {
        java.util.Objects.requireNonNull(body, "body (the chunk loop)");
        rows.refuseChunkLoop(description);
        chunks(body, null, true);
    }

    /**
     * Calls {@code body} once per matching entity, as {@link #forEach} does (sparse filters
     * included), but only to read, as {@link #forEachChunkReadOnly} says.
     *
     * @param body the row loop, not null; called with the chunk view and the row, for reading only
     * @throws IllegalStateException as {@link #forEachChunkReadOnly}, a sparse filter excepted
     */
    public void forEachReadOnly(EntityConsumer body) {
        each(body, true);
    }

    /**
     * The iteration behind every {@code forEach...} form: {@code body} per chunk, or, when
     * {@code perRow} is not null, {@code perRow} per row that passes the row filter (no
     * wrapping lambda, so a row loop allocates nothing either).
     */
    private void chunks(ChunkConsumer body, EntityConsumer perRow, boolean look) {
        if (jobs != null) {
            jobs.checkIteration(description);
        }
        boolean filtered = hasChangeFilter();
        if (filtered && !look) {
            archetypes.clock().checkOwnIteration(description); // refused inside a phase, outside an exclusive system
        } else if (filtered) {
            archetypes.clock().checkLook(description);
        }
        refresh();
        boolean rowFilter = perRow != null && hasRowFilter();
        // A nested iteration of the same query gets a view of its own.
        boolean owner = look ? !lookInUse : !viewInUse;
        ChunkView v = !owner ? new ChunkView(null, sparse, look) : !look ? view
                : lookView != null ? lookView : (lookView = new ChunkView(null, sparse, true));
        if (look) {
            lookInUse = true;
        } else {
            viewInUse = true;
        }
        // In an exclusive system the iteration is the system's (its last run, kept by snapshots, and
        // its tick); else it reads what changed since the query's last iteration and stamps its
        // writes with a tick of its own, which it remembers (so it does not see them next time). A
        // look takes none: it marks the tick before now as seen (later stamps, a system's too, are newer).
        ChangeClock clock = archetypes.clock();
        boolean own = !look && !clock.inSystem();
        long since = look ? lookedAt : own ? lastRun : clock.systemSince();
        long tick = look ? 0 : own ? clock.advance() : clock.systemTick();
        if (own) {
            lastRun = tick;
        } else if (look) {
            lookedAt = clock.now() - 1;
        }
        v.changeTicks(tick, since);
        structure.lock("a query iteration");
        try {
            for (int a = 0, na = matched.size(); a < na; a++) {
                Archetype arch = matched.get(a);
                for (int c = 0, nc = arch.chunkCount(); c < nc; c++) {
                    if (filtered && !passes(arch.chunk(c), since)) {
                        continue;
                    }
                    ChunkView bound = v.bind(arch.chunk(c));
                    if (perRow == null) {
                        body.accept(bound);
                    } else {
                        eachRow(arch, bound, perRow, rowFilter);
                    }
                }
            }
        } finally {
            structure.unlock();
            if (owner && look) {
                lookInUse = false;
            } else if (owner) {
                viewInUse = false;
            }
        }
    }

    /**
     * Calls {@code body} once per matching entity (cold code; hot loops use {@link
     * #forEachChunk}), in archetype creation order, chunk order and row order; with a sparse
     * filter, the rows that fail it are skipped, the order of the others is unchanged.
     * Allocates nothing, as {@link #forEachChunk}.
     *
     * @param body the row loop, not null; called with the chunk view and the row of each match
     * @throws IllegalStateException as {@link #forEachChunk} (a sparse filter excepted)
     */
    public void forEach(EntityConsumer body) {
        each(body, false);
    }

    private void each(EntityConsumer body, boolean look) {
        java.util.Objects.requireNonNull(body, "body (the entity loop)");
        chunks(null, body, look);
    }

    /** Calls {@code body} for each row of {@code chunk} (of archetype {@code a}) that passes the row filter. */
    private void eachRow(Archetype a, ChunkView chunk, EntityConsumer body, boolean filter) {
        long[] ids = chunk.entities();
        for (int i = 0, n = chunk.size(); i < n; i++) {
            if (!filter || rows.matches(a, ids[i])) {
                body.accept(chunk, i);
            }
        }
    }

    /**
     * Number of entities that match (exact, sparse filters included); change filters are not
     * applied (they depend on when the counting owner last ran).
     *
     * @return the matching live entities now, 0 or more; it walks the matched archetypes, and every row
     *     with a sparse or pair filter
     */
    public int count() {
        if (jobs != null) {
            jobs.checkCount(description);
        }
        refresh();
        if (!hasRowFilter()) {
            int n = 0;
            for (int a = 0, na = matched.size(); a < na; a++) {
                n += matched.get(a).size();
            }
            return n;
        }
        return rows.count(matched);
    }

    /**
     * The optional columns named at build time.
     *
     * @return an unmodifiable list, in the order given to the builder; empty when none were named
     */
    public List<Component<?>> optional() {
        return List.of(optional);
    }

    @Override
    public String toString() {
        String out = "Query[all=" + Arrays.toString(all) + ", none=" + Arrays.toString(none) + ", any="
                + Arrays.toString(any);
        out += rows.describeTerms();
        return out + "]";
    }

    /**
     * Builds a {@link Query}: {@code with} (all), {@code without} (none), {@code any} and
     * {@code optional} terms. Obtain one from {@code World.query()}.
     */
    public static final class Builder {
        private final Archetypes archetypes;
        private final StructureLock structure;
        private final List<Component<?>> all = new ArrayList<>();
        private final List<Component<?>> none = new ArrayList<>();
        private final List<Component<?>> any = new ArrayList<>();
        private final List<Component<?>> optional = new ArrayList<>();
        private final List<Component<?>> added = new ArrayList<>();
        private final List<Component<?>> changed = new ArrayList<>();
        private final SparseColumns sparse;
        private final Relations relations;
        private final JobsRunning jobs;
        private final List<Relation> pairRelations = new ArrayList<>();
        private final List<Long> pairTargets = new ArrayList<>();
        // The world's registry ({@code World.query()} sets it): terms of another world are refused.
        dev.orrery.ecs.component.ComponentRegistry registry;

        /** A builder for a query over a world's archetypes, iterating under its structure lock (no sparse columns). */
        Builder(Archetypes archetypes, StructureLock structure) {
            this(archetypes, structure, null, null, null);
        }

        /** A builder for a query over a world's archetypes and sparse columns, iterating under its structure lock. */
        Builder(Archetypes archetypes, StructureLock structure, SparseColumns sparse) {
            this(archetypes, structure, sparse, null, null);
        }

        /**
         * A builder for a query over a world's archetypes, sparse columns and relation pairs,
         * iterating under its structure lock and refusing to iterate inside a job ({@code World.query()}
         * makes it).
         */
        Builder(Archetypes archetypes, StructureLock structure, SparseColumns sparse, Relations relations,
                JobsRunning jobs) {
            this.jobs = jobs;
            this.archetypes = archetypes;
            this.structure = structure;
            this.sparse = sparse;
            this.relations = relations;
        }

        /**
         * Every matching entity holds pair {@code (relation, target)}: the children of one parent
         * with {@code pair(childOf, parent)}. Implies {@code with(relation.column())} (the
         * wildcard {@code (relation, *)}, which is a plain {@code with} term). Decided per row in
         * the relation store, so the query is iterated with {@link Query#forEach} (a chunk
         * loop is refused: it cannot skip rows); in pair order instead, use
         * {@code world.relations().forEachHolder(relation, target, ...)}.
         *
         * @param relation a relation of this query's world, not null
         * @param target the target entity of the pair (a parent for {@code ChildOf})
         * @return this builder
         * @throws IllegalArgumentException if the builder was made without the world's relations
         */
        public Builder pair(Relation relation, long target) {
            if (relations == null) {
                throw new IllegalArgumentException("pair term (" + relation + ", " + Entity.toString(target) + ") in a "
                        + "query builder made without the world's relations; build queries with world.query()");
            }
            all.add(Owned.check(registry, java.util.Objects.requireNonNull(relation, "relation").column(), "query pair"));
            pairRelations.add(relation);
            pairTargets.add(target);
            return this;
        }

        /**
         * Every matching entity holds all of these.
         *
         * @param columns columns of this world's registry; none null
         * @return this builder
         * @throws IllegalArgumentException naming the column when one was registered by another world
         */
        public Builder with(Component<?>... columns) {
            all.addAll(QueryTerms.checked(registry, columns, "with"));
            return this;
        }

        /**
         * No matching entity holds any of these.
         *
         * @param columns columns of this world's registry; none null
         * @return this builder
         */
        public Builder without(Component<?>... columns) {
            none.addAll(QueryTerms.checked(registry, columns, "without"));
            return this;
        }

        /**
         * Every matching entity holds at least one of these.
         *
         * @param columns columns of this world's registry; none null
         * @return this builder
         */
        public Builder any(Component<?>... columns) {
            any.addAll(QueryTerms.checked(registry, columns, "any"));
            return this;
        }

        /**
         * A change filter: only chunks where each of these table columns may have been added
         * to a row since the iterating owner last ran (its previous direct iteration, or for
         * a scheduled system its previous run). Implies {@code with(columns)}. Chunk
         * granularity: a passing chunk is visited whole.
         *
         * @param columns table columns of this world's registry; none null
         * @return this builder
         * @throws IllegalArgumentException for a sparse column (sparse columns keep no versions)
         */
        public Builder added(Component<?>... columns) {
            addFilter(added, columns);
            return this;
        }

        /**
         * A change filter: only chunks where each of these table columns may have been
         * written (through a write accessor, a by-id write or playback) or brought in by a
         * spawn or move since the iterating owner last ran. Implies {@code with(columns)};
         * chunk granularity.
         *
         * @param columns table columns of this world's registry; none null
         * @return this builder
         * @throws IllegalArgumentException for a sparse column
         */
        public Builder changed(Component<?>... columns) {
            addFilter(changed, columns);
            return this;
        }

        private void addFilter(List<Component<?>> term, Component<?>[] columns) {
            for (Component<?> c : QueryTerms.checked(registry, columns, term == added ? "added" : "changed")) {
                if (c.isSparse()) {
                    throw new IllegalArgumentException("change filter on sparse component " + c + ": sparse columns "
                            + "keep no change versions; register it with Storage.TABLE to filter on it");
                }
            }
            term.addAll(List.of(columns));
            all.addAll(List.of(columns));
        }

        /**
         * Matching entities may hold these; the loop tests {@link ChunkView#has}.
         *
         * @param columns columns of this world's registry; none null
         * @return this builder
         */
        public Builder optional(Component<?>... columns) {
            optional.addAll(QueryTerms.checked(registry, columns, "optional"));
            return this;
        }

        /**
         * The query.
         *
         * @return a new query; keep it and iterate it every tick: its matches are kept up to date as
         *     archetypes appear
         * @throws IllegalArgumentException if one column is both required and excluded, or every
         *     {@code any} column is excluded
         */
        public Query build() {
            QueryTerms.refuseImpossible(all, none, any);
            SparseColumn[][] sparseTerms = {QueryTerms.sparseOf(sparse, all), QueryTerms.sparseOf(sparse, none),
                    QueryTerms.sparseOf(sparse, any)};
            for (Component<?> c : optional) {
                QueryTerms.sparseOf(sparse, List.of(c));
            }
            int[][] changeTerms = {QueryTerms.ids(added), QueryTerms.ids(changed)};
            Query q = new Query(archetypes, structure, jobs, QueryTerms.ids(all), QueryTerms.ids(none),
                    QueryTerms.ids(any), optional.toArray(new Component<?>[0]), sparse, sparseTerms, changeTerms,
                    relations, pairRelations.toArray(new Relation[0]),
                    pairTargets.stream().mapToLong(Long::longValue).toArray());
            q.description = QueryTerms.describe(all, none, any, optional, added, changed, pairRelations, pairTargets);
            return q;
        }
    }
}
