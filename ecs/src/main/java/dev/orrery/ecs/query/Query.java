package dev.orrery.ecs.query;

import dev.orrery.ecs.archetype.Archetype;
import dev.orrery.ecs.archetype.Archetypes;
import dev.orrery.ecs.archetype.StructureLock;
import dev.orrery.ecs.component.Component;
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
 * <p>Queries match archetypes, not entities. The match list is kept current lazily: each
 * iteration first checks the archetypes created since the last one, in creation order, so
 * the order of chunks is the same on every run.
 *
 * <p><b>Threading:</b> iterate from the thread that owns the world (or from the scheduler,
 * which refreshes the match before it hands chunks to workers). While an iteration runs,
 * structural changes on the world are refused.
 */
public final class Query {
    // Only the archetypes and the structure lock of the world, not the world: a narrow
    // dependency that keeps the query package free of a cycle with dev.orrery.ecs.World.
    private final Archetypes archetypes;
    private final StructureLock structure;
    private final int[] all;
    private final int[] none;
    private final int[] any;
    private final Component<?>[] optional;
    private final ArrayList<Archetype> matched = new ArrayList<>();
    private final List<Archetype> matchedView = Collections.unmodifiableList(matched);
    private final ChunkView view = new ChunkView();
    private int seen;
    private boolean viewInUse;

    Query(Archetypes archetypes, StructureLock structure, int[] all, int[] none, int[] any, Component<?>[] optional) {
        this.archetypes = archetypes;
        this.structure = structure;
        this.all = all;
        this.none = none;
        this.any = any;
        this.optional = optional;
    }

    /** True when this query reads {@code archetypes} (its world's; see {@code World.owns}). */
    public boolean readsFrom(Archetypes archetypes) {
        return this.archetypes == archetypes;
    }

    /** The matching archetypes, in creation order, after picking up any new ones. */
    public List<Archetype> archetypes() {
        refresh();
        return matchedView;
    }

    /** True when archetype {@code a} satisfies the terms. */
    public boolean matches(Archetype a) {
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
        if (any.length == 0) {
            return true;
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
     * @throws IllegalStateException from a structural change attempted inside {@code body}
     */
    public void forEachChunk(ChunkConsumer body) {
        refresh();
        ChunkView v = viewInUse ? new ChunkView() : view;
        boolean owner = !viewInUse;
        viewInUse = true;
        structure.lock("a query iteration");
        try {
            for (int a = 0, na = matched.size(); a < na; a++) {
                Archetype arch = matched.get(a);
                for (int c = 0, nc = arch.chunkCount(); c < nc; c++) {
                    body.accept(v.bind(arch.chunk(c)));
                }
            }
        } finally {
            structure.unlock();
            if (owner) {
                viewInUse = false;
            }
        }
    }

    /** Calls {@code body} once per matching entity (cold code; hot loops use {@link #forEachChunk}). */
    public void forEach(EntityConsumer body) {
        forEachChunk(chunk -> {
            for (int i = 0, n = chunk.size(); i < n; i++) {
                body.accept(chunk, i);
            }
        });
    }

    /** Number of entities that match. */
    public int count() {
        refresh();
        int n = 0;
        for (int a = 0, na = matched.size(); a < na; a++) {
            n += matched.get(a).size();
        }
        return n;
    }

    /** The optional columns named at build time. */
    public List<Component<?>> optional() {
        return List.of(optional);
    }

    @Override
    public String toString() {
        return "Query[all=" + Arrays.toString(all) + ", none=" + Arrays.toString(none) + ", any="
                + Arrays.toString(any) + "]";
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

        /** A builder for a query over a world's archetypes, iterating under its structure lock. */
        public Builder(Archetypes archetypes, StructureLock structure) {
            this.archetypes = archetypes;
            this.structure = structure;
        }

        /** Every matching entity holds all of these. */
        public Builder with(Component<?>... columns) {
            all.addAll(List.of(columns));
            return this;
        }

        /** No matching entity holds any of these. */
        public Builder without(Component<?>... columns) {
            none.addAll(List.of(columns));
            return this;
        }

        /** Every matching entity holds at least one of these. */
        public Builder any(Component<?>... columns) {
            any.addAll(List.of(columns));
            return this;
        }

        /** Matching entities may hold these; the loop tests {@link ChunkView#has}. */
        public Builder optional(Component<?>... columns) {
            optional.addAll(List.of(columns));
            return this;
        }

        /**
         * The query.
         *
         * @throws IllegalArgumentException if one column is both required and excluded
         */
        public Query build() {
            for (Component<?> c : all) {
                if (none.contains(c)) {
                    throw new IllegalArgumentException("query lists " + c + " in both with(...) and without(...); it "
                            + "could never match");
                }
            }
            return new Query(archetypes, structure, ids(all), ids(none), ids(any), optional.toArray(new Component<?>[0]));
        }

        private static int[] ids(List<Component<?>> cs) {
            return cs.stream().mapToInt(Component::id).distinct().sorted().toArray();
        }
    }
}
