package dev.orrery.cluster.protocol;

import java.util.Objects;
import org.apache.pekko.actor.typed.ActorRef;

/**
 * One client input for a world: stamped into the world's next tick and answered with an
 * {@link InputReply} once that tick is durable in the world's journal. A client that gets no
 * reply (a timeout while the world moves) sends the input again: delivery is at least once,
 * so an input whose reply was lost may be applied twice (carry an idempotency key in the
 * payload where that matters).
 *
 * @param client the client's number, journaled with the input
 * @param type the input type, journaled with the input
 * @param payload the input bytes (the record keeps this array: do not change it after sending)
 * @param replyTo where the {@link InputReply} goes
 */
public record SubmitInput(int client, int type, byte[] payload, ActorRef<InputReply> replyTo) implements WorldCommand {
    /** Checks the fields. */
    public SubmitInput {
        Objects.requireNonNull(payload, "payload");
        Objects.requireNonNull(replyTo, "replyTo");
    }
}
