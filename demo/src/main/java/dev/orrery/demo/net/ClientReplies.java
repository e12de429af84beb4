package dev.orrery.demo.net;

/**
 * The simulation's way back to clients: answers to commands it owes a reply
 * ({@link CommandType#answeredBySimulation()}) and periodic {@code STATE} pushes.
 * {@link CommandServer} implements it; a replay or a run without clients uses
 * {@link #discarding()}, so the simulation's code is the same either way.
 *
 * <p><b>Threading:</b> every method may be called from any thread (the tick thread,
 * typically) and never blocks; each returns false if the line was dropped at once. A
 * line's delivery happens after the call, on the server's own thread; lines from one
 * calling thread to one client arrive in call order.
 */
public interface ClientReplies {
    /**
     * Sends {@code OK <requestId> <result>} to a client.
     *
     * @param clientId  {@link ClientCommand#clientId()} of the command answered
     * @param requestId {@link ClientCommand#requestId()} of the command answered
     * @param result    the answer, possibly empty (the reply to a {@code SET})
     * @return false if the reply was dropped at once
     */
    boolean reply(long clientId, long requestId, String result);

    /**
     * Sends {@code ERR <requestId> <code> <message>} to a client; the message should name
     * the entity or name involved and say what to do.
     *
     * @return false if the reply was dropped at once
     */
    boolean replyError(long clientId, long requestId, ErrorCode code, String message);

    /**
     * Pushes {@code STATE <tick> <entities> <summary>} to every client that has said
     * {@code HELLO}; meant for once a tick or once a second.
     *
     * @return false if the push was dropped at once
     */
    boolean broadcastState(long tick, long entities, String summary);

    /** Replies that go nowhere, for replays and runs without a server; every call returns true. */
    static ClientReplies discarding() {
        return DiscardingReplies.INSTANCE;
    }
}
