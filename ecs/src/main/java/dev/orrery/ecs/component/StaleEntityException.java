package dev.orrery.ecs.component;

/**
 * Thrown when an entity id no longer names a live entity: it was despawned, or its index
 * slot now holds a newer generation. The world is left unchanged.
 */
public final class StaleEntityException extends IllegalArgumentException {
    private static final long serialVersionUID = 1L;

    /** Creates the exception for {@code entity}, with what the caller tried to do. */
    public StaleEntityException(long entity, String operation) {
        super("entity " + Entity.toString(entity) + " is not alive (despawned, or its slot was reused by a newer "
                + "generation); " + operation + " refused. Check World.isAlive(id) first, or drop ids of "
                + "despawned entities.");
    }
}
