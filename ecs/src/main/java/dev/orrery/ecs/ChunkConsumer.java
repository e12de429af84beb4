package dev.orrery.ecs;

/** The body of a per-chunk loop: called once per non-empty matching chunk. */
@FunctionalInterface
public interface ChunkConsumer {
    /**
     * Processes the rows {@code [0, chunk.size())} of one chunk.
     *
     * @param chunk the view bound to the chunk, valid only during the call
     */
    void accept(ChunkView chunk);
}
