package dev.orrery.demo.net;

/**
 * Where the server hands parsed client commands: the simulation's input pipeline (a
 * Disruptor ring in the engine, a fake in tests). This is the only thing the network layer
 * knows about the simulation.
 *
 * <p><b>Threading:</b> {@link #offer} is called only from the server's selector thread,
 * one command at a time, so the sink has a single producer (a ring may use a
 * single-producer sequencer). Commands of one client are offered in the order the client
 * sent them; commands of different clients interleave in the order their bytes were read.
 * Everything the selector thread did before {@code offer} (parsing, counting) happens-before
 * the call; what happens-before the consumer's read of the command is the sink's business
 * (a ring's publish gives it).
 */
@FunctionalInterface
public interface ClientCommandSink {
    /**
     * Offers one command without blocking. Must return quickly: the selector thread serves
     * every client and waits for nothing.
     *
     * @param command the command, immutable
     * @return true if the command was taken; false if the input queue is full, in which case
     *         the server answers {@code ERR <request> BUSY} and the client may retry
     */
    boolean offer(ClientCommand command);

    /**
     * Checks a command at the boundary, before {@link #offer}: a field clients may not write,
     * a value out of its range, a limit reached. A refused command is answered
     * {@code ERR <request> <code> <message>} and never offered, so it takes no room in the
     * input queue and never reaches the simulation. Called on the selector thread, right
     * before {@code offer} for the same command; must return quickly.
     *
     * @param command the command, immutable
     * @return null to let the command through to {@link #offer}, or why it is refused
     */
    default Refusal check(ClientCommand command) {
        return null;
    }
}
