package dev.orrery.ecs.archetype;

import dev.orrery.ecs.component.Component;
import java.util.ArrayList;
import java.util.List;

/**
 * Adds or removes a column on every entity of a set of archetypes by moving whole
 * archetypes at once: rows are copied in blocks ({@link RowBlocks#takeAll}), not one entity
 * at a time. Behind {@code World.addToAll} and {@code World.removeFromAll}, which check the
 * structure lock and keep the entity table and the prototype index current through the
 * {@link MoveSink}.
 *
 * <p><b>Threading:</b> stateless; runs on the thread that applies structural changes.
 */
public final class BulkMoves {
    private BulkMoves() {
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
    public static int addToAll(Archetypes archetypes, List<Archetype> matched, Component<?> column,
            MoveSink sink) {
        List<Archetype> from = select(matched, column, false);
        List<Archetype> to = new ArrayList<>(from.size());
        for (Archetype a : from) {
            to.add(archetypes.withAdded(a, column)); // throws on a name clash before anything moves
        }
        return moveAll(from, to, sink);
    }

    /**
     * Removes {@code column} from every entity of the non-empty archetypes in
     * {@code matched} that hold it.
     *
     * @return the number of entities moved
     */
    public static int removeFromAll(Archetypes archetypes, List<Archetype> matched, Component<?> column,
            MoveSink sink) {
        List<Archetype> from = select(matched, column, true);
        List<Archetype> to = new ArrayList<>(from.size());
        for (Archetype a : from) {
            to.add(archetypes.withRemoved(a, column));
        }
        return moveAll(from, to, sink);
    }

    private static List<Archetype> select(List<Archetype> matched, Component<?> column, boolean holding) {
        List<Archetype> from = new ArrayList<>();
        for (Archetype a : matched) {
            if (a.size() > 0 && a.has(column.id()) == holding) {
                from.add(a);
            }
        }
        return from;
    }

    private static int moveAll(List<Archetype> from, List<Archetype> to, MoveSink sink) {
        int moved = 0;
        for (int i = 0; i < from.size(); i++) {
            Archetype src = from.get(i);
            Archetype dst = to.get(i);
            moved += src.size();
            RowBlocks.takeAll(dst, src, (e, chunk, row) -> sink.moved(e, src, dst, chunk, row));
        }
        return moved;
    }
}
