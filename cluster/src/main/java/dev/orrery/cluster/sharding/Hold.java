package dev.orrery.cluster.sharding;

import dev.orrery.cluster.protocol.WorldStatus;
import java.util.Objects;
import org.apache.pekko.actor.typed.ActorRef;

/**
 * Stops ({@code hold} true) or restarts a world's ticking on the node that holds it now,
 * answered with its {@link WorldStatus} after the change (for a consistent end state in
 * tests and tools; inputs sent while held wait for the next tick). A world that moves
 * starts ticking again on its new node.
 *
 * @param hold true to stop ticking, false to go on
 * @param replyTo where the status goes
 */
public record Hold(boolean hold, ActorRef<WorldStatus> replyTo) implements WorldCommand {
    /**
     * Checks the field.
     *
     * @param hold true to stop ticking, false to go on
     * @param replyTo where the status goes, not null
     * @throws NullPointerException if {@code replyTo} is null
     */
    public Hold {
        Objects.requireNonNull(replyTo, "replyTo");
    }
}
