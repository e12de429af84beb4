package dev.orrery.ecs.component;

/**
 * Thrown when an entity id does not name a live entity of the world asked: it was despawned, or
 * its index slot now holds a newer generation, or it never named one there ({@link Entity#NULL},
 * a command buffer's provisional handle, or an id the world never handed out, such as another
 * world's). The message says which. The world is left unchanged.
 */
public final class StaleEntityException extends IllegalArgumentException {
    private static final long serialVersionUID = 1L;

    /**
     * Creates the exception for {@code entity}, with what the caller tried to do, for an id that
     * the world handed out once (a despawned entity's); {@link Entity#NULL} and provisional
     * handles are named as such.
     *
     * @param entity the refused id, named in the message
     * @param operation what the caller tried ("despawn", "get Position"), named in the message
     */
    public StaleEntityException(long entity, String operation) {
        this(entity, operation, true);
    }

    /**
     * The exception for {@code entity}, with what the caller tried to do, for an id that the
     * world never handed out (its index or generation is past any it issued: another world's id,
     * or one made up), which the message then says. {@link Entity#NULL} and provisional handles
     * are still named as such.
     *
     * @param entity the refused id, named in the message
     * @param operation what the caller tried, named in the message
     * @return the exception, to throw
     */
    public static StaleEntityException neverHandedOut(long entity, String operation) {
        return new StaleEntityException(entity, operation, false);
    }

    private StaleEntityException(long entity, String operation, boolean handedOut) {
        super(message(entity, operation, handedOut));
    }

    private static String message(long entity, String operation, boolean handedOut) {
        String id = "entity " + Entity.toString(entity);
        if (entity == Entity.NULL) {
            return id + " is Entity.NULL, which never names an entity (an id field that was never set holds it); "
                    + operation + " refused. Set the id from a spawn, or test it against Entity.NULL first.";
        }
        if (Entity.generation(entity) == 0) {
            return id + " is a provisional handle from a command buffer's spawn (generation 0), which names the new "
                    + "entity only inside that buffer's playback; " + operation + " refused. After the sync point, "
                    + "reach the entity through a query or through an @EntityRef field that playback resolved "
                    + "(CommandBuffer.isProvisional(id) tells a handle from a real id).";
        }
        if (!handedOut) {
            return id + " was never handed out by this world (its index or generation is past any it issued): "
                    + "an id of another world, or one made up; " + operation + " refused. Use ids this world "
                    + "spawned; each world numbers its entities on its own.";
        }
        return id + " is not alive (despawned, or its slot was reused by a newer generation); " + operation
                + " refused. Check World.isAlive(id) first, or drop ids of despawned entities.";
    }
}
