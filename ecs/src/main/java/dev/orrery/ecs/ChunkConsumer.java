package dev.orrery.ecs;

/** The body of a per-chunk loop: called once per non-empty matching chunk. */
@FunctionalInterface
public interface ChunkConsumer {
    /** Processes the rows {@code [0, chunk.size())} of one chunk. */
    void accept(ChunkView chunk);
}
