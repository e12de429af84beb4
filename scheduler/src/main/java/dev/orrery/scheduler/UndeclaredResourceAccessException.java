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

    /** Creates the exception naming the system and the resource. */
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
     * Creates the exception for a state transition ({@code States.request}) from a job whose
     * system declared no write of the machine, naming the system, the machine and the fix.
     */
    static UndeclaredResourceAccessException stateRequest(String system, ResourceKey<?> resource, Enum<?> next,
            boolean declaredRead) {
        return new UndeclaredResourceAccessException("system '" + system + "' requested state " + next + " of '"
                + resource.name() + "' but declared " + (declaredRead ? "only a read of it (a request is a write, "
                + "reached through job.resource(...))" : "no write of it") + "; the graph orders the system only "
                + "as a reader, so the transition's order against the other systems would be an accident of the "
                + "graph: add .writesResource(" + resource.name() + ") to the system's declaration and request "
                + "through job.resourceForWrite(" + resource.name() + ")");
    }

    /**
     * Creates the exception for a change of a fixed timestep's rate
     * ({@code FixedTimestep.unitsPerRun(long)}) from a job whose system declared no write of
     * the clock, naming the system, the clock and the fix.
     */
    static UndeclaredResourceAccessException rateChange(String system, ResourceKey<?> resource, long units,
            boolean declaredRead) {
        return new UndeclaredResourceAccessException("system '" + system + "' changed unitsPerRun of '"
                + resource.name() + "' to " + units + " but declared " + (declaredRead ? "only a read of it (a "
                + "change is a write, reached through job.resource(...))" : "no write of it") + "; the graph "
                + "orders the system only as a reader, so the change's order against the clock's other readers "
                + "and writers would be an accident of the graph: add .writesResource(" + resource.name()
                + ") to the system's declaration and change it through job.resourceForWrite(" + resource.name()
                + ")");
    }

    /**
     * Creates the exception for a {@code LongSum.set} or {@code reset} from a job whose system
     * declared no write of the sum, naming the system, the sum and the fix.
     */
    static UndeclaredResourceAccessException sumReset(String system, ResourceKey<?> resource, long value,
            boolean declaredRead) {
        return new UndeclaredResourceAccessException("system '" + system + "' set the sum '" + resource.name()
                + "' to " + value + " but declared " + (declaredRead ? "only a read of it (a set or reset is a "
                + "write, reached through job.resource(...))" : "no write of it") + "; the graph orders the system "
                + "only as a reader, so the reset could land beside the systems that add to it: add .writesResource("
                + resource.name() + ") to the system's declaration and reset it through job.resourceForWrite("
                + resource.name() + ")");
    }

    /**
     * Creates the exception for a {@code LongSum.add} from a job whose system declared no
     * reduction into the sum, naming the system, the sum and the fix.
     */
    static UndeclaredResourceAccessException sumAdd(String system, ResourceKey<?> resource, long amount,
            boolean declaredRead) {
        return new UndeclaredResourceAccessException("system '" + system + "' added " + amount + " to the sum '"
                + resource.name() + "' but declared " + (declaredRead ? "only a read of it (an add is a write, "
                + "reached through job.resource(...))" : "no reduction into it") + "; the graph orders the system "
                + "only as a reader, so the add could land beside the other systems that read the total: add "
                + ".reducesResource(" + resource.name() + ") to the system's declaration and add through job.add("
                + resource.name() + ", n)");
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
