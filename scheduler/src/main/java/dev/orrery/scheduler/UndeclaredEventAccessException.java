package dev.orrery.scheduler;

/**
 * Thrown when a job sends to an event channel its system declared no write of, or reads one
 * it declared no read of. Without the declaration the graph does not order the system
 * against the channel's other writers and readers, so what it would read (or who would read
 * what it sent) could depend on timing.
 */
public final class UndeclaredEventAccessException extends IllegalStateException {
    private static final long serialVersionUID = 1L;

    /**
     * Creates the exception naming the system and the channel.
     *
     * @param system the system's name
     * @param channel the channel used
     * @param write true for a send without {@code .writesEvents}, false for a read without
     *     {@code .readsEvents}; picks the message's fix
     */
    public UndeclaredEventAccessException(String system, EventKey<?> channel, boolean write) {
        super("system '" + system + "' " + (write ? "sent an event to" : "read") + " event channel '" + channel.name()
                + "' but declared no " + (write ? "write" : "read") + " of it; add ."
                + (write ? "writesEvents(" : "readsEvents(") + channel.name() + ") to the system's declaration");
    }
}
