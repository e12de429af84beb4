package dev.orrery.cluster.sharding;

import dev.orrery.cluster.protocol.InputReply;
import java.util.Objects;
import org.apache.pekko.actor.typed.ActorRef;

/**
 * One client input for a world, named by its client's id and a sequence number: the world
 * applies each {@code (clientId, sequence)} at most once, however often it is sent and
 * wherever the world has moved in between, and answers with an {@link InputReply}:
 * accepted at tick N once that tick is durable in the world's journal, refused when it will
 * never apply, or unknown (send it again with the same sequence). A client retries until it
 * gets accepted or refused; then the input has applied exactly once, or never.
 *
 * <p>Number each world's inputs from 1 up, one counter per world: the world keeps, per
 * client, which of the {@code WorldSettings#window()} sequences below the highest it applied
 * (and at which tick), in its snapshots, so a retry is recognised after a move. A client id
 * is random per client session (see {@code ClusterNode#newClientId()}): two clients with
 * one id would take each other's inputs for retries. {@code WorldClient} does all of this.
 *
 * @param clientId the client's id, the de-duplication key with {@code sequence}
 * @param sequence the input's number among this client's inputs to this world (1 or more)
 * @param client the client number the simulation sees in its {@code InputBatch}
 * @param type the input type, journaled with the input
 * @param payload the input bytes (the record keeps this array: do not change it after sending)
 * @param replyTo where the {@link InputReply} goes
 */
public record SubmitInput(long clientId, long sequence, int client, int type, byte[] payload,
        ActorRef<InputReply> replyTo) implements WorldCommand {
    /**
     * Checks the fields.
     *
     * @param clientId the client's id, the de-duplication key with {@code sequence}
     * @param sequence the input's number, 1 or more
     * @param client the client number the simulation sees
     * @param type the input type
     * @param payload the input bytes, not null; kept, not copied
     * @param replyTo where the reply goes, not null
     * @throws NullPointerException if {@code payload} or {@code replyTo} is null
     * @throws IllegalArgumentException naming the client when {@code sequence} is below 1
     */
    public SubmitInput {
        Objects.requireNonNull(payload, "payload");
        Objects.requireNonNull(replyTo, "replyTo");
        if (sequence < 1) {
            throw new IllegalArgumentException("input sequence " + sequence + " of client " + clientId
                    + " is not 1 or more; number each world's inputs 1, 2, 3, ...");
        }
    }
}
