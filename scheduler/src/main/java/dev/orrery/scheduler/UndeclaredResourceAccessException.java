package dev.orrery.scheduler;

/**
 * Thrown in checked mode when a job reads a resource its system declared neither a read nor
 * a write of, or asks to write one it declared no write of (a state transition requested
 * through a read included). The resource counterpart of the
 * ECS {@code UndeclaredAccessException} for components: without the declaration the graph
 * may run the system beside one that writes the resource, which is a data race.
 */
public final class UndeclaredResourceAccessException extends IllegalStateException {
    private static final long serialVersionUID = 1L;

    /**
     * Creates the exception naming the system and the resource.
     *
     * @param system the system's name
     * @param resource the resource used
     * @param write true for a write without {@code .writesResource}, false for a read without
     *     {@code .readsResource}; picks the message's fix
     */
    public UndeclaredResourceAccessException(String system, ResourceKey<?> resource, boolean write) {
        super(message(system, resource, write));
    }

    /**
     * Creates the exception for an undeclared reduction ({@code job.add(key, n)}) naming the
     * system and the resource.
     */
    static UndeclaredResourceAccessException reduction(String system, ResourceKey<?> resource) {
        return new UndeclaredResourceAccessException("system '" + system + "' added to resource '" + resource.name()
                + "' but declared no reduction into it; add .reducesResource(" + resource.name()
                + ") to the system's declaration");
    }

    /**
     * Creates the exception for a write reached through a read of a resource the scheduler
     * ships (a state request, a fixed timestep's rate, a sum's set, reset or add), with the
     * message {@code StoredKeys.Write} builds.
     */
    static UndeclaredResourceAccessException writeThroughRead(String message) {
        return new UndeclaredResourceAccessException(message);
    }

    private UndeclaredResourceAccessException(String message) {
        super(message);
    }

    private static String message(String system, ResourceKey<?> resource, boolean write) {
        return "system '" + system + "' " + (write ? "asked to write" : "read") + " resource '" + resource.name()
                + "' but declared " + (write ? "no write of it" : "neither a read nor a write of it") + "; add ."
                + (write ? "writesResource(" : "readsResource(") + resource.name() + ") to the system's declaration";
    }
}
