package dev.orrery.cluster.protocol;

import java.util.Objects;

/**
 * The answer to an input sent with {@link dev.orrery.cluster.ClusterNode#submit} or
 * {@link dev.orrery.cluster.WorldClient#send}, in one of three words:
 * <ul>
 *   <li>{@link Outcome#ACCEPTED}: the input applied in tick {@code tick}, which is durable
 *       in the world's journal (a retry of an input already applied gets the same answer);
 *   <li>{@link Outcome#REFUSED}: the input has not applied and never will, whatever is sent
 *       again with its sequence ({@code reason} says why: too large, too old for the
 *       world's de-duplication window, too many clients);
 *   <li>{@link Outcome#UNKNOWN}: the world cannot say yet (it is moving, failed a tick, or
 *       no reply came in time): send the input again with the same client id and sequence
 *       until it is accepted or refused; it applies at most once.
 * </ul>
 *
 * @param worldId the world
 * @param clientId the input's client id
 * @param sequence the input's sequence
 * @param outcome accepted, refused or unknown
 * @param tick the tick the input applied in (accepted), -1 otherwise
 * @param epoch the epoch of the world's incarnation that answered (-1 when none did)
 * @param reason why it was refused or is unknown (empty if accepted)
 */
public record InputReply(String worldId, long clientId, long sequence, Outcome outcome, long tick, long epoch,
        String reason) implements WorldMessage {
    /** The longest reason a reply carries; longer ones are cut (so a reply always fits the protocol's limits). */
    public static final int MAX_REASON_CHARS = 500;

    /** The three answers. */
    public enum Outcome {
        /** Applied in the reply's tick, which is durable. */
        ACCEPTED,
        /** Not applied, and never will be. */
        REFUSED,
        /** Not known yet: send again with the same sequence. */
        UNKNOWN
    }

    /**
     * Checks the fields and cuts a long reason.
     *
     * @param worldId the world, not null
     * @param clientId the input's client id
     * @param sequence the input's sequence
     * @param outcome accepted, refused or unknown; not null
     * @param tick the tick the input applied in (accepted), -1 otherwise
     * @param epoch the answering incarnation's epoch, -1 when none did
     * @param reason why it was refused or is unknown; {@code null} is kept as {@code ""}, and one
     *     over {@value #MAX_REASON_CHARS} characters is cut, ending with {@code ...}
     * @throws NullPointerException if {@code worldId} or {@code outcome} is null
     */
    public InputReply {
        Objects.requireNonNull(worldId, "worldId");
        Objects.requireNonNull(outcome, "outcome");
        reason = reason == null ? "" : reason;
        if (reason.length() > MAX_REASON_CHARS) {
            reason = reason.substring(0, MAX_REASON_CHARS - 3) + "...";
        }
    }

    /**
     * Input {@code sequence} of {@code clientId} applied in durable tick {@code tick}.
     *
     * @param worldId the world, not null
     * @param clientId the input's client id
     * @param sequence the input's sequence
     * @param tick the durable tick it applied in
     * @param epoch the answering incarnation's epoch
     * @return an {@link Outcome#ACCEPTED} reply with an empty reason
     */
    public static InputReply accepted(String worldId, long clientId, long sequence, long tick, long epoch) {
        return new InputReply(worldId, clientId, sequence, Outcome.ACCEPTED, tick, epoch, "");
    }

    /**
     * The input will never apply, because {@code why}.
     *
     * @param worldId the world, not null
     * @param clientId the input's client id
     * @param sequence the input's sequence
     * @param epoch the answering incarnation's epoch, -1 when none did
     * @param why the reason, naming what to do
     * @return an {@link Outcome#REFUSED} reply, tick -1
     */
    public static InputReply refused(String worldId, long clientId, long sequence, long epoch, String why) {
        return new InputReply(worldId, clientId, sequence, Outcome.REFUSED, -1, epoch, why);
    }

    /**
     * The outcome is not known yet ({@code why}): send again with the same sequence.
     *
     * @param worldId the world, not null
     * @param clientId the input's client id
     * @param sequence the input's sequence
     * @param epoch the answering incarnation's epoch, -1 when none did
     * @param why what is not known and why (a timeout, a stopped node)
     * @return an {@link Outcome#UNKNOWN} reply, tick -1
     */
    public static InputReply unknown(String worldId, long clientId, long sequence, long epoch, String why) {
        return new InputReply(worldId, clientId, sequence, Outcome.UNKNOWN, -1, epoch, why);
    }

    /**
     * Whether the input applied (in {@link #tick()}).
     *
     * @return true for {@link Outcome#ACCEPTED}
     */
    public boolean accepted() {
        return outcome == Outcome.ACCEPTED;
    }

    /**
     * Whether the input will never apply.
     *
     * @return true for {@link Outcome#REFUSED}
     */
    public boolean refused() {
        return outcome == Outcome.REFUSED;
    }

    /**
     * Whether the client must send the input again, with the same sequence.
     *
     * @return true for {@link Outcome#UNKNOWN}
     */
    public boolean unknown() {
        return outcome == Outcome.UNKNOWN;
    }

    /**
     * The reply as a client would print it: {@code accepted at tick N}, {@code refused: ...}, {@code unknown: ...}.
     *
     * @return one line, never null
     */
    public String describe() {
        return switch (outcome) {
            case ACCEPTED -> "accepted at tick " + tick;
            case REFUSED -> "refused: " + reason;
            case UNKNOWN -> "unknown, retry with the same sequence: " + reason;
        };
    }
}
