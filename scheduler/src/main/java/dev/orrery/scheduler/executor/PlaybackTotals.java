package dev.orrery.scheduler.executor;

import dev.orrery.ecs.command.PlaybackReport;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;

/**
 * Running totals of the command playbacks an executor made at its sync points: how many
 * commands applied, how many archetype moves, and how many were skipped or refused under the
 * conflict rules of {@link dev.orrery.ecs.command.CommandPlayback}, with the first messages.
 *
 * <p><b>Threading:</b> updated and read on the thread that runs the schedule.
 */
public final class PlaybackTotals {
    private static final int MAX_MESSAGES = 32;
    private long applied;
    private long moves;
    private long skippedDead;
    private long removedMissing;
    private long rejected;
    private final List<String> messages = new ArrayList<>();

    PlaybackTotals() {
    }

    void add(PlaybackReport r) {
        applied += r.applied();
        moves += r.moves();
        skippedDead += r.skippedDead();
        removedMissing += r.removedMissing();
        rejected += r.rejected();
        if (!r.isClean()) {
            for (String m : r.messages()) {
                if (messages.size() < MAX_MESSAGES) {
                    messages.add(m);
                }
            }
        }
    }

    /** Commands applied. */
    public long applied() {
        return applied;
    }

    /** Archetype moves made. */
    public long moves() {
        return moves;
    }

    /** Commands skipped because their entity was dead. */
    public long skippedDead() {
        return skippedDead;
    }

    /** Removes of a component the entity lacked. */
    public long removedMissing() {
        return removedMissing;
    }

    /** Commands refused as invalid. */
    public long rejected() {
        return rejected;
    }

    /** The first messages describing skipped or refused commands. */
    public List<String> messages() {
        return Collections.unmodifiableList(messages);
    }

    @Override
    public String toString() {
        return "applied=" + applied + " moves=" + moves + " skippedDead=" + skippedDead + " removedMissing="
                + removedMissing + " rejected=" + rejected;
    }
}
