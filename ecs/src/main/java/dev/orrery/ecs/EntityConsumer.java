package dev.orrery.ecs;

/** The body of a per-entity loop for cold code; hot loops use {@link ChunkConsumer}. */
@FunctionalInterface
public interface EntityConsumer {
    /** Processes one entity, found at {@code row} of {@code chunk}. */
    void accept(ChunkView chunk, int row);
}
