package dev.orrery.ecs;

/**
 * Thrown when a system records a structural change (spawn, despawn, add, remove, a deferred
 * set) that its declaration does not cover. The command is not recorded; the buffer holds
 * what it held before.
 */
public final class UndeclaredCommandException extends IllegalStateException {
    private static final long serialVersionUID = 1L;

    /**
     * Creates the exception naming the system, the kind of command, the component (or
     * {@code null} for spawns and despawns) and the declaration that would allow it.
     *
     * @param owner the system's name
     * @param kind the command, as the message says it ("spawn", "despawn", "add", "remove", "set")
     * @param component the component's name, or {@code null} for a spawn or despawn
     * @param fix the declaration that allows it, as code (".despawns()"); the message says to add
     *     it
     */
    public UndeclaredCommandException(String owner, String kind, String component, String fix) {
        super("system '" + owner + "' recorded " + (kind.startsWith("a") ? "an " : "a ") + kind
                + (component == null ? "" : (kind.startsWith("spawn") ? " holding component " : " of component ") + component)
                + " but declared no such structural change; add " + fix + " to the system's declaration");
    }
}
