package dev.orrery.cluster.world;

import java.io.IOException;

/**
 * A world's incarnation found that another node has claimed a later epoch of the world: it
 * has been fenced. Its last tick is journaled but was not acknowledged; the incarnation must
 * stop without acknowledging anything more (clients retry and reach the new holder).
 */
public final class FencedException extends IOException {
    private static final long serialVersionUID = 1L;

    /**
     * Epoch {@code epoch} of {@code worldId} was fenced; {@code detail} says where it noticed.
     *
     * @param worldId the world's id
     * @param epoch the fenced incarnation's epoch
     * @param detail where it noticed ("after tick 120"), shown in parentheses
     */
    public FencedException(String worldId, long epoch, String detail) {
        super("world '" + worldId + "': epoch " + epoch + " was fenced by a later claim (" + detail
                + "); this incarnation stops, and clients retry against the node that holds the world now");
    }
}
