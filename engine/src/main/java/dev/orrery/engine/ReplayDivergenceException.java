package dev.orrery.engine;

import dev.orrery.engine.journal.SkipComparison;
import java.nio.file.Path;

/**
 * A replay whose state hash after some tick differs from the hash recorded in the journal:
 * the first tick at which the replayed run is known to differ from the recorded one.
 */
public final class ReplayDivergenceException extends RuntimeException {
    private static final long serialVersionUID = 1L;

    /** The tick after which the hashes (or the skips) differ. */
    private final long tick;
    /** The recording's hash after {@link #tick}; 0 for a skip that differs (on one side, or for another system). */
    private final long recordedHash;
    /** The replay's hash after {@link #tick}; 0 for a skip that differs. */
    private final long replayedHash;
    /** What differs at {@link #tick} (the component types), or null. */
    private final String detail;

    /**
     * A hash that differs; {@code resumedAt} is the tick a replay from a restored snapshot
     * resumed at ({@code JournalInputSource.resumeAt}), or {@code Long.MIN_VALUE};
     * {@code resumedAtFirst} whether that is the journal's first tick (a replay from the
     * recording's own start, whose state no recorded hash precedes).
     */
    ReplayDivergenceException(Path journal, long tick, long recordedHash, long replayedHash, long lastMatch,
            long resumedAt, boolean resumedAtFirst) {
        super("replay of journal " + journal + " diverged at tick " + tick + ": state hash 0x"
                + Long.toHexString(replayedHash) + " where the recording had 0x" + Long.toHexString(recordedHash)
                + (lastMatch != Long.MIN_VALUE ? " (last matching hash at tick " + lastMatch + ")"
                        : resumedAt != Long.MIN_VALUE && resumedAtFirst ? " (tick " + resumedAt + " is the first tick "
                                + "of the recording, replayed from its own start snapshot, so no earlier hash was "
                                + "checked)"
                        : resumedAt != Long.MIN_VALUE ? " (no hash was checked since the replay resumed at tick "
                                + resumedAt + ": the recording has no hash after tick " + (resumedAt - 1) + " to check "
                                + "the restored state against, so the state it was restored from may not be a "
                                + "snapshot of the recorded run)"
                        : " (no earlier hash was checked)")
                + ". Either the game's code changed since the recording (a system now computes otherwise: record "
                + "it again if that was meant), or something non-deterministic ran between those ticks: a shared "
                + "random generator, wall-clock time, iteration over a hash-ordered collection, or a different "
                + "initial world or seed");
        this.tick = tick;
        this.recordedHash = recordedHash;
        this.replayedHash = replayedHash;
        this.detail = null;
    }

    /** A tick skipped in the recording and run in the replay, or the other way round. */
    ReplayDivergenceException(Path journal, long tick, String recordedSkip, String replayedSkip) {
        super("replay of journal " + journal + " diverged at tick " + tick + ": the recording "
                + (recordedSkip == null ? "ran the tick" : "skipped the tick (" + SkipComparison.failed(recordedSkip)
                        + ")") + " but the replay " + (replayedSkip == null ? "ran it"
                        : "skipped it (" + SkipComparison.failed(replayedSkip) + ")") + ". The state before that tick already differed, or a system fails "
                + "non-deterministically (wall-clock time, a shared random generator, a range system's failure "
                + "replayed with another worker count), or a job the tick deadline ended in the recording, which notes "
                + "the skip but not the deadline: replay it on a simulation built with the same tickDeadline, where "
                + "the job sticks again");
        this.tick = tick;
        this.recordedHash = 0;
        this.replayedHash = 0;
        this.detail = null;
    }

    /**
     * A tick the recording and the replay both skipped, for different systems; {@code difference}
     * names both, what the replay's threw and the fix.
     */
    ReplayDivergenceException(Path journal, long tick, String difference) {
        super("replay of journal " + journal + " diverged at tick " + tick + ": " + difference);
        this.tick = tick;
        this.recordedHash = 0;
        this.replayedHash = 0;
        this.detail = null;
    }

    /**
     * A divergence found by a replay of Orrery's own other than {@link JournalInputSource} (a
     * cluster node replaying a world's journal), whose {@code message} names what was replayed,
     * the tick, both hashes (or which side skipped the tick, both hashes 0), the causes and the
     * fix; made through {@code EngineInternals.replayDivergence} and
     * {@code replaySkipDivergence}.
     */
    ReplayDivergenceException(String message, long tick, long recordedHash, long replayedHash) {
        super(message);
        this.tick = tick;
        this.recordedHash = recordedHash;
        this.replayedHash = replayedHash;
        this.detail = null;
    }

    private ReplayDivergenceException(ReplayDivergenceException base, String detail) {
        super(base.getMessage() + ". " + detail, base.getCause());
        setStackTrace(base.getStackTrace());
        this.tick = base.tick;
        this.recordedHash = base.recordedHash;
        this.replayedHash = base.replayedHash;
        this.detail = detail;
    }

    /** The same divergence with {@code detail} (which components differ) added to the message. */
    ReplayDivergenceException withDetail(String detail) {
        return new ReplayDivergenceException(this, detail);
    }

    /**
     * What differs at the diverging tick (the component types), or null when not known.
     *
     * @return the text, or {@code null}
     */
    public String detail() {
        return detail;
    }

    /**
     * The tick after which the hashes differ.
     *
     * @return the tick's number
     */
    public long tick() {
        return tick;
    }

    /**
     * The hash the recording had after {@link #tick()}.
     *
     * @return the recorded hash; 0 when the divergence is a tick skipped on one side only, or
     *     skipped on both because different systems failed
     */
    public long recordedHash() {
        return recordedHash;
    }

    /**
     * The hash the replay computed after {@link #tick()}.
     *
     * @return the replayed hash; 0 when the divergence is a tick skipped on one side only, or
     *     skipped on both because different systems failed
     */
    public long replayedHash() {
        return replayedHash;
    }
}
