package dev.orrery.ecs.command;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;

/**
 * What one playback did, and which commands it skipped under the conflict rules of
 * {@link CommandPlayback}. The first {@value #MAX_MESSAGES} skips are described in words.
 *
 * <p><b>Threading:</b> owned by the applying thread; valid until the next playback with the
 * same {@link CommandPlayback}.
 */
public final class PlaybackReport {
    /** How many skipped commands are described in {@link #messages()}. */
    public static final int MAX_MESSAGES = 16;

    int applied;
    int moves;
    int skippedDead;
    int removedMissing;
    int rejected;
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

    void note(String message) {
        if (messages.size() < MAX_MESSAGES) {
            messages.add(message);
        }
    }

    /** Commands applied. */
    public int applied() {
        return applied;
    }

    /** Archetype moves made: a batch of adds and removes on one entity makes one move. */
    public int moves() {
        return moves;
    }

    /** Commands skipped because their entity was dead (despawned, earlier in this playback or before). */
    public int skippedDead() {
        return skippedDead;
    }

    /** Removes of a component the entity did not hold (no-ops). */
    public int removedMissing() {
        return removedMissing;
    }

    /** Commands refused as invalid (duplicate instance name, set of a missing component, unresolved handle). */
    public int rejected() {
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
