package dev.orrery.cluster.sharding;

import dev.orrery.cluster.protocol.WorldStatus;
import java.util.Objects;
import org.apache.pekko.actor.typed.ActorRef;

/**
 * Asks a world where it runs and how far it is; answered with a {@link WorldStatus}.
 *
 * @param replyTo where the status goes
 */
public record GetStatus(ActorRef<WorldStatus> replyTo) implements WorldCommand {
    /**
     * Checks the field.
     *
     * @param replyTo where the status goes, not null
     * @throws NullPointerException if {@code replyTo} is null
     */
    public GetStatus {
        Objects.requireNonNull(replyTo, "replyTo");
    }
}
