package dev.orrery.ecs;

/** The body of a per-entity loop for cold code; hot loops use {@link ChunkConsumer}. */
@FunctionalInterface
public interface EntityConsumer {
    /**
     * Processes one entity, found at {@code row} of {@code chunk}.
     *
     * @param chunk the view bound to the entity's chunk, valid only during the call
     * @param row the entity's row, in {@code [0, chunk.size())}; {@code chunk.entity(row)} is its
     *     id
     */
    void accept(ChunkView chunk, int row);
}
