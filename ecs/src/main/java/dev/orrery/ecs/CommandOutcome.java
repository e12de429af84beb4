package dev.orrery.ecs;

/**
 * What playback did with one command, as counted by {@link PlaybackReport#count}.
 *
 * <p>The line between {@link #SKIPPED_DEAD} and {@link #REFUSED}: a skip is an ordinary
 * consequence of the deterministic order (one system reaps an entity that another damages in
 * the same tick) and never fails, not even in strict mode; a refusal is a command that could
 * never have applied as written (a bug in the recording system), which strict mode turns into
 * a {@link RefusedCommandException}.
 */
public enum CommandOutcome {
    /** Applied (including an add of a component the entity already holds, which replaces or keeps its value). */
    APPLIED,
    /** Skipped because its entity was dead when the command was reached (despawned before, or earlier in the same playback). */
    SKIPPED_DEAD,
    /** A remove of a component the entity does not hold: nothing to do, not an error. */
    NO_OP,
    /**
     * Refused as invalid: an add whose instance name another component on the entity already
     * uses, a set of a component the entity does not hold, or a provisional handle used by a
     * command that sorts before its spawn.
     */
    REFUSED
}
