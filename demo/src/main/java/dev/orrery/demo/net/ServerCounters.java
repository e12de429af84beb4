package dev.orrery.demo.net;

/**
 * A snapshot of a {@link CommandServer}'s counters, for progress lines and tests. Each
 * value counts since the server started, except {@link #connectionsOpen()}.
 *
 * <p><b>Threading:</b> taken by {@link CommandServer#counters()} from any thread. Each field
 * is read atomically, but the fields are read one after another while the selector thread
 * goes on counting, so two fields may be a few events apart: a disconnect, for one, is
 * counted just before its connection leaves {@link #connectionsOpen()}, so wait for the
 * open count itself rather than reading it once after seeing the disconnect.
 *
 * @param connectionsAccepted connections accepted and served
 * @param connectionsRefused  connections refused at the connection limit ({@code ERR 0 FULL})
 * @param connectionsOpen     connections open now
 * @param messagesOk          requests parsed and handled: {@code HELLO}, {@code QUIT}, and
 *                            commands the sink took
 * @param messagesMalformed   requests answered {@code MALFORMED}, {@code UNKNOWN} or {@code PROTOCOL}
 * @param messagesOversized   request lines over the line limit ({@code TOO_LONG})
 * @param messagesBusy        commands the sink refused ({@code BUSY})
 * @param repliesDropped      replies that never reached a client: the client had gone, its
 *                            queue overflowed, or the hand-off queue was full
 * @param statesDropped       {@code STATE} pushes not sent to a client because it was behind
 *                            (counted once per client and push, or once per push when
 *                            the hand-off queue was full)
 * @param slowDisconnects     clients disconnected because they stopped reading
 * @param readsPaused         times the server stopped reading a client's requests because
 *                            the client was not reading its replies (it resumes once they drain)
 * @param internalErrors      failures inside the server or the sink while handling a
 *                            request or connection; each closed only that request or connection
 * @param messagesRefused     well-formed commands refused at the boundary before the sink:
 *                            {@code FORBIDDEN}, {@code BAD_VALUE} or {@code QUOTA}
 * @param messagesThrottled   commands answered {@code BUSY} because their connection was over
 *                            its share of the input (also counted in {@code messagesBusy})
 * @param timeoutDisconnects  connections closed for saying no {@code HELLO} in time or for
 *                            sending nothing for too long
 */
public record ServerCounters(long connectionsAccepted, long connectionsRefused, long connectionsOpen,
        long messagesOk, long messagesMalformed, long messagesOversized, long messagesBusy,
        long repliesDropped, long statesDropped, long slowDisconnects, long readsPaused, long internalErrors,
        long messagesRefused, long messagesThrottled, long timeoutDisconnects) {

    /**
     * The counters as the demo's other lines print their figures: {@code name=value} pairs,
     * separated by spaces, each name the field's in snake case ({@code connections_accepted=4
     * connections_refused=0 ...}), in the order of the fields above.
     */
    public String line() {
        StringBuilder sb = new StringBuilder();
        for (java.lang.reflect.RecordComponent c : ServerCounters.class.getRecordComponents()) {
            if (sb.length() > 0) {
                sb.append(' ');
            }
            sb.append(c.getName().replaceAll("([A-Z])", "_$1").toLowerCase(java.util.Locale.ROOT)).append('=');
            try {
                sb.append(c.getAccessor().invoke(this));
            } catch (ReflectiveOperationException e) {
                throw new IllegalStateException(e); // a public accessor of this record: cannot happen
            }
        }
        return sb.toString();
    }
}
