package dev.orrery.cluster.world;

import dev.orrery.cluster.store.WorldStore;
import dev.orrery.engine.journal.JournalTick;
import dev.orrery.scheduler.SystemFailedException;
import java.io.IOException;
import java.util.Collections;
import java.util.IdentityHashMap;
import java.util.Optional;
import java.util.Set;

/**
 * Where a world's replay failed: attached, as a suppressed exception, to the
 * {@code SystemFailedException} that {@link WorldRuntime#open} and {@link WorldVerifier#verify}
 * throw when a journaled tick fails in their replay, which names the system but not the tick. It says which tick, and
 * whether that tick is the last of the world's journal history with no state hash after it,
 * as a tick that failed under {@code FailurePolicy.STOP} is journaled (so the replay failed
 * the same way the live tick did); otherwise the tick ran without failing when it was
 * journaled, and the blueprint replaying it is not the one the world ran with. The node reads
 * it ({@link #in}) to tell a person which fix applies; the stack trace shows its message.
 *
 * <p><b>Threading:</b> immutable once made; read it from any thread.
 */
public final class ReplayedTickFailure extends Exception {
    private static final long serialVersionUID = 1L;

    /** The world whose replay failed. */
    private final String worldId;
    /** The journaled tick whose replay failed. */
    private final long tick;
    /** Whether that tick is the last of the history, with no hash after it. */
    private final boolean lastJournaled;

    /**
     * The replay of {@code worldId}'s journaled tick {@code tick} failed; {@code lastJournaled}:
     * the tick is the last of the history and has no hash (the tick that failed under STOP).
     */
    ReplayedTickFailure(String worldId, long tick, boolean lastJournaled) {
        super("world '" + worldId + "': the replay of journaled tick " + tick + " failed"
                + (lastJournaled ? ", the journal's last tick, as it failed when it ran under FailurePolicy.STOP: "
                        + "fix the system in the blueprint (every node), or make the blueprint's failure policy "
                        + "SKIP_TICK to skip that tick"
                        : ", a tick that ran without failing when it was journaled: the blueprint is not the one "
                        + "the world ran with, or is not deterministic"), null, false, false);
        this.worldId = worldId;
        this.tick = tick;
        this.lastJournaled = lastJournaled;
    }

    /**
     * The world whose replay failed.
     *
     * @return the world's id
     */
    public String worldId() {
        return worldId;
    }

    /**
     * The journaled tick whose replay failed.
     *
     * @return the tick's number
     */
    public long tick() {
        return tick;
    }

    /**
     * True when the tick is the last of the world's journal history, with no state hash after
     * it: the tick that failed when it ran under {@code STOP}, failing the same way again.
     *
     * @return true for the last journaled tick without a hash; false for a tick that ran without
     *     failing when it was journaled
     */
    public boolean lastJournaled() {
        return lastJournaled;
    }

    /**
     * Attaches the note for {@code failure}, thrown by the replay of journaled {@code tick} of
     * {@code worldId}, and returns {@code failure} to throw. The tick counts as the last
     * journaled when it has no hash and the store's history holds no tick after it; a history
     * that cannot be read on from there is added to {@code failure} too, and the note then goes
     * by the hash alone.
     */
    static SystemFailedException attach(SystemFailedException failure, WorldStore store, String worldId,
            JournalTick tick) {
        long at = tick.tick(); // read before the history is read on: the visitor's tick is reused
        boolean last = !tick.hasHash();
        try { // the tick that failed under STOP ends the history
            last &= JournalHistory.forEachTick(store, worldId, at + 1, (t, s, p, c) -> { }) == at + 1;
        } catch (IOException unread) { // the failure stays what is thrown; the note guesses
            failure.addSuppressed(unread);
        }
        failure.addSuppressed(new ReplayedTickFailure(worldId, at, last));
        return failure;
    }

    /**
     * The one-line explanation of {@code failure} when it is, or has in its cause chain, a
     * {@code SystemFailedException} (a journaled tick failing in a replay, as
     * {@link WorldRuntime#open} and {@link WorldVerifier#verify} throw it): the system, the
     * tick (from the note, {@code "(not known)"} without one), what the system threw (the
     * exception's own message when it has no cause) and the fix: for the tick that failed under
     * {@code STOP}, fixing the system or skipping the tick; for a tick that ran without failing,
     * running the world's own blueprint. Empty for any other failure. The node's log line and
     * the demo's verification print it, so a person reads the same advice in both.
     */
    public static Optional<String> explain(Throwable failure) {
        SystemFailedException failed = null;
        Set<Throwable> seen = Collections.newSetFromMap(new IdentityHashMap<>());
        for (Throwable t = failure; t != null && failed == null && seen.add(t); t = t.getCause()) {
            failed = t instanceof SystemFailedException f ? f : null;
        }
        if (failed == null) {
            return Optional.empty();
        }
        Optional<ReplayedTickFailure> where = in(failed);
        String what = "system '" + failed.system() + "' fails in the replay of journaled tick "
                + where.map(w -> Long.toString(w.tick())).orElse("(not known)") + " ("
                + (failed.getCause() != null ? failed.getCause().toString() : failed.getMessage()) + ")";
        if (where.isPresent() && !where.get().lastJournaled()) {
            return Optional.of(what + ", a tick that ran without failing when it was journaled, so the blueprint "
                    + "replaying it is not the one the world ran with, or is not deterministic; see that every node, "
                    + "and a verification, runs the blueprint the world ran with (a deterministic one)");
        }
        return Optional.of(what + ", as it failed when that tick ran under FailurePolicy.STOP; fix the system in the "
                + "blueprint (every node), or make the blueprint's failure policy SKIP_TICK to skip that tick");
    }

    /**
     * The note attached to {@code failure} or to an exception in its cause chain, if any.
     *
     * @param failure what {@link WorldRuntime#open} threw, or anything wrapping it; may be null
     * @return the note, or empty when none is attached
     */
    public static Optional<ReplayedTickFailure> in(Throwable failure) {
        Set<Throwable> seen = Collections.newSetFromMap(new IdentityHashMap<>());
        for (Throwable t = failure; t != null && seen.add(t); t = t.getCause()) {
            for (Throwable s : t.getSuppressed()) {
                if (s instanceof ReplayedTickFailure note) {
                    return Optional.of(note);
                }
            }
        }
        return Optional.empty();
    }
}
