package dev.orrery.ecs;

/**
 * A command past a buffer's limit ({@code CommandBuffer.limitCommands}, an observer
 * cascade's budget): whoever set the limit turns it into its own error (an
 * {@link ObserverCascadeException} naming the chain).
 *
 * <p><b>Threading:</b> thrown on the buffer's recording thread, caught on the same thread.
 */
final class CommandLimitReached extends IllegalStateException {
    private static final long serialVersionUID = 1L;

    /** Buffer {@code bufferId} refused a command past its limit of {@code limit} commands. */
    CommandLimitReached(int bufferId, int limit) {
        super("command buffer " + bufferId + " refused a command past its limit of " + limit
                + " (an observer cascade's budget)");
    }
}
