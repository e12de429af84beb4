package dev.orrery.ecs.command;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;

/**
 * What one playback did, or several added up, and which commands were skipped under the
 * conflict rules of {@link CommandPlayback}. The first {@value #MAX_MESSAGES} skips are
 * described in words. {@link CommandPlayback#apply} returns one per playback; the scheduler
 * keeps another as the running total of every playback at its sync points, with
 * {@link #add}.
 *
 * <p><b>Threading:</b> owned by the applying thread; the report a {@link CommandPlayback}
 * returns is valid until its next playback.
 */
public final class PlaybackReport {
    /** How many skipped commands are described in {@link #messages()}. */
    public static final int MAX_MESSAGES = 16;

    long applied;
    long moves;
    long skippedDead;
    long removedMissing;
    long rejected;
    private final List<String> messages = new ArrayList<>();

    /** Creates an empty report. */
    public PlaybackReport() {
    }

    void reset() {
        applied = 0;
        moves = 0;
        skippedDead = 0;
        removedMissing = 0;
        rejected = 0;
        messages.clear();
    }

    /** Adds {@code other}'s counts to this report, and its messages while there is room. */
    public void add(PlaybackReport other) {
        applied += other.applied;
        moves += other.moves;
        skippedDead += other.skippedDead;
        removedMissing += other.removedMissing;
        rejected += other.rejected;
        for (String m : other.messages) {
            note(m);
        }
    }

    void note(String message) {
        if (messages.size() < MAX_MESSAGES) {
            messages.add(message);
        }
    }

    /** Commands applied. */
    public long applied() {
        return applied;
    }

    /** Archetype moves made: a batch of adds and removes on one entity makes one move. */
    public long moves() {
        return moves;
    }

    /** Commands skipped because their entity was dead (despawned, earlier in this playback or before). */
    public long skippedDead() {
        return skippedDead;
    }

    /** Removes of a component the entity did not hold (no-ops). */
    public long removedMissing() {
        return removedMissing;
    }

    /** Commands refused as invalid (duplicate instance name, set of a missing component, unresolved handle). */
    public long rejected() {
        return rejected;
    }

    /** True when no command was skipped or refused. */
    public boolean isClean() {
        return skippedDead == 0 && removedMissing == 0 && rejected == 0;
    }

    /** Descriptions of the first skipped or refused commands. */
    public List<String> messages() {
        return Collections.unmodifiableList(messages);
    }

    @Override
    public String toString() {
        return "applied=" + applied + " moves=" + moves + " skippedDead=" + skippedDead + " removedMissing="
                + removedMissing + " rejected=" + rejected + (messages.isEmpty() ? "" : " " + messages);
    }
}
