package dev.orrery.ecs.archetype;

import dev.orrery.ecs.component.Component;
import java.util.ArrayList;
import java.util.List;

/**
 * Adds or removes a column on every entity of a set of archetypes by moving whole
 * archetypes at once: rows are copied in blocks ({@link RowBlocks#takeAll}), not one entity
 * at a time. Behind {@code World.addToAll} and {@code World.removeFromAll}, which check the
 * structure lock and keep the entity table and the prototype index current through the
 * {@link MoveSink}. One per world: it keeps the lists of archetypes to move and its row sink
 * from call to call, so a call allocates nothing once the lists have grown.
 *
 * <p><b>Threading:</b> used only by the thread that applies the world's structural changes,
 * one call at a time. Not reentrant, and need not be: nothing a call runs calls back into
 * user code (the sink records the moves; the world fires the hooks they queue after the
 * call has returned).
 */
public final class BulkMoves {
    private final Archetypes archetypes;
    /** The archetypes the call moves, and the archetype each moves to (same index); emptied after each call. */
    private final List<Archetype> from = new ArrayList<>();
    private final List<Archetype> to = new ArrayList<>();
    private final Relay relay;

    /** Moves within {@code archetypes}, telling {@code sink} where each moved row went. */
    public BulkMoves(Archetypes archetypes, MoveSink sink) {
        this.archetypes = archetypes;
        this.relay = new Relay(sink);
    }

    /** Told where each moved row went, in source order. */
    @FunctionalInterface
    public interface MoveSink {
        /** {@code entity} moved from archetype {@code from} to ({@code chunk}, {@code row}) of {@code to}. */
        void moved(long entity, Archetype from, Archetype to, int chunk, int row);
    }

    /**
     * Adds {@code column} (zeroed, or a tag) to every entity of the non-empty archetypes in
     * {@code matched} that lack it; entities that hold it keep their value.
     *
     * @return the number of entities moved
     * @throws IllegalArgumentException if a matched archetype already holds another
     *     instance under the same name; nothing has moved then
     */
    public int addToAll(List<Archetype> matched, Component<?> column) {
        try {
            select(matched, column, false);
            for (int i = 0; i < from.size(); i++) {
                to.add(archetypes.withAdded(from.get(i), column)); // throws on a name clash before anything moves
            }
            return moveAll();
        } finally {
            clear();
        }
    }

    /**
     * Removes {@code column} from every entity of the non-empty archetypes in
     * {@code matched} that hold it.
     *
     * @return the number of entities moved
     */
    public int removeFromAll(List<Archetype> matched, Component<?> column) {
        try {
            select(matched, column, true);
            for (int i = 0; i < from.size(); i++) {
                to.add(archetypes.withRemoved(from.get(i), column));
            }
            return moveAll();
        } finally {
            clear();
        }
    }

    private void select(List<Archetype> matched, Component<?> column, boolean holding) {
        for (int i = 0, n = matched.size(); i < n; i++) { // indexed: no iterator
            Archetype a = matched.get(i);
            if (a.size() > 0 && a.has(column.id()) == holding) {
                from.add(a);
            }
        }
    }

    private int moveAll() {
        int moved = 0;
        for (int i = 0; i < from.size(); i++) {
            Archetype src = from.get(i);
            Archetype dst = to.get(i);
            moved += src.size();
            relay.from = src;
            relay.to = dst;
            RowBlocks.takeAll(dst, src, relay);
        }
        return moved;
    }

    private void clear() {
        from.clear();
        to.clear();
        relay.from = null;
        relay.to = null;
    }

    /** Passes each row {@link RowBlocks#takeAll} places to the sink with the archetypes it moves between. */
    private static final class Relay implements Archetype.RowSink {
        private final MoveSink sink;
        private Archetype from;
        private Archetype to;

        Relay(MoveSink sink) {
            this.sink = sink;
        }

        @Override
        public void placed(long entity, int chunk, int row) {
            sink.moved(entity, from, to, chunk, row);
        }
    }
}
