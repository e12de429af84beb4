package dev.orrery.cluster.protocol;

/**
 * The answer to a {@link SubmitInput}: accepted (durable in the journal as input
 * {@code sequence} of tick {@code tick}, written by epoch {@code epoch}) or refused with a
 * reason (the world is moving or failed: send the input again).
 *
 * @param worldId the world
 * @param accepted whether the input is durable
 * @param tick the tick that consumed it (-1 if refused)
 * @param sequence its sequence within that tick (-1 if refused)
 * @param epoch the epoch of the world's incarnation that answered
 * @param refusal why it was refused (empty if accepted)
 */
public record InputReply(String worldId, boolean accepted, long tick, int sequence, long epoch, String refusal)
        implements WorldMessage {
    /** An acceptance. */
    public static InputReply accepted(String worldId, long tick, int sequence, long epoch) {
        return new InputReply(worldId, true, tick, sequence, epoch, "");
    }

    /** A refusal saying {@code why}. */
    public static InputReply refused(String worldId, long epoch, String why) {
        return new InputReply(worldId, false, -1, -1, epoch, why);
    }
}
