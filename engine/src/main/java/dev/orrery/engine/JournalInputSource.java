package dev.orrery.engine;

import dev.orrery.engine.journal.JournalReader;
import dev.orrery.engine.journal.JournalTick;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Path;

/**
 * Replays a journal as an {@link InputSource}: each {@link #beginTick} hands out the inputs
 * recorded for that tick, and {@link #recordHash} checks the replayed state hash against the
 * recorded one wherever the recording has one.
 *
 * <pre>{@code
 * try (JournalInputSource replay = JournalInputSource.open(path)) {
 *     while (replay.hasNextTick()) {
 *         long tick = replay.nextTick();
 *         resources.put(INPUTS, replay.beginTick(tick));   // the tick's recorded inputs, for the systems
 *         executor.run();
 *         replay.recordHash(tick, world.stateHash()); // throws ReplayDivergenceException on a mismatch
 *     }
 * }
 * }</pre>
 *
 * <p>Only the hashes handed to {@link #recordHash} are checked: a simulation hands one at every
 * tick the recording hashed, whatever its own {@code hashEvery} ({@link #wantsHash}); a loop of
 * its own hands one at every tick where {@link #hasRecordedHash()} is true.
 *
 * <p>A tick the recording skipped ({@code FailurePolicy.SKIP_TICK}) must be skipped by the
 * replay too, and the other way round ({@link #tickSkipped}); a tick that the replay skips
 * as the last tick of a journal cut by a crash is let pass, since the note may be what the
 * crash lost. {@link #openAllowingCut} replays a recording that did not close up to its last
 * complete tick; {@link #closedCleanly()} and {@link #cut()} say how it ended.
 *
 * <p><b>Threading:</b> one tick thread, like every {@link InputSource}.
 */
public final class JournalInputSource implements InputSource, AutoCloseable {
    private final JournalReader reader;
    private JournalTick ahead = new JournalTick();
    private JournalTick current = new JournalTick();
    private boolean hasAhead;
    private boolean begun;
    private long hashesChecked;
    private long lastMatch = Long.MIN_VALUE;
    private long skipsMatched;
    /** The tick last begun was reported skipped by the replay. */
    private boolean replaySkipped;

    private JournalInputSource(JournalReader reader) throws IOException {
        this.reader = reader;
        this.hasAhead = reader.nextTick(ahead);
    }

    /**
     * Opens the journal at {@code path} for replay.
     *
     * @param path the journal file, as {@code RunRecorder} or a {@code JournalWriter} wrote it
     * @return a source positioned before the first recorded tick; close it when done
     * @throws CorruptJournalException if the header or first tick is damaged
     * @throws IOException if the file cannot be read
     */
    public static JournalInputSource open(Path path) throws IOException {
        return wrap(JournalReader.open(path));
    }

    /**
     * Opens the journal at {@code path} for replay up to its last complete tick, also when
     * the recording did not close (a crash); see {@link JournalReader#openAllowingCut}.
     *
     * @param path the journal file, possibly cut short by a crash
     * @return a source positioned before the first recorded tick; close it when done
     * @throws CorruptJournalException if the file is not a journal or is damaged in a way a
     *     crash does not explain
     * @throws IOException if the file cannot be read
     */
    public static JournalInputSource openAllowingCut(Path path) throws IOException {
        return wrap(JournalReader.openAllowingCut(path));
    }

    private static JournalInputSource wrap(JournalReader r) throws IOException {
        try {
            return new JournalInputSource(r);
        } catch (IOException | RuntimeException e) {
            r.close();
            throw e;
        }
    }

    /**
     * Whether the journal holds another tick.
     *
     * @return true while {@link #nextTick()} has a tick to give
     */
    public boolean hasNextTick() {
        return hasAhead;
    }

    /**
     * The number of the next recorded tick.
     *
     * @return the tick number, which the next {@link #beginTick} must be given
     * @throws IllegalStateException at the end of the journal
     */
    public long nextTick() {
        if (!hasAhead) {
            throw new IllegalStateException("journal " + reader.path() + " has no more ticks: the replay reached the "
                    + "recording's end; test hasNextTick() before nextTick()");
        }
        return ahead.tick();
    }

    /**
     * The inputs recorded for {@code tick}, which must be the next recorded tick.
     *
     * @throws IllegalStateException if the journal's next tick is another one, or there is none
     * @throws UncheckedIOException wrapping a {@link CorruptJournalException} if the journal
     *     is damaged before the tick after this one
     */
    @Override
    public InputBatch beginTick(long tick) {
        if (!hasAhead || ahead.tick() != tick) {
            throw new IllegalStateException("replay asked for tick " + tick + " but journal " + reader.path()
                    + (hasAhead ? " records tick " + ahead.tick() + " next" : " has no more ticks")
                    + "; run the replay's ticks with the recorded numbers, starting at the first recorded tick");
        }
        checkSkipOfCurrent();
        swap();
        begun = true;
        replaySkipped = false;
        try {
            hasAhead = reader.nextTick(ahead);
        } catch (IOException e) {
            hasAhead = false;
            throw new UncheckedIOException(e.getMessage(), e);
        }
        return current.inputs();
    }

    /**
     * Checks the replayed state hash after {@code tick} against the recording, if the
     * recording has a hash for that tick; otherwise does nothing.
     *
     * @throws ReplayDivergenceException if the hashes differ
     * @throws IllegalStateException if {@code tick} is not the tick last begun
     */
    @Override
    public void recordHash(long tick, long stateHash) {
        if (!begun || current.tick() != tick) {
            throw new IllegalStateException("recordHash(" + tick + ") but the tick last begun is "
                    + (begun ? current.tick() : "none") + "; check a tick's hash after its beginTick and before the "
                    + "next");
        }
        checkSkipOfCurrent(); // a tick run where the recording skipped it says so before its hash differs
        if (current.hasHash()) {
            if (current.stateHash() != stateHash) {
                throw new ReplayDivergenceException(reader.path(), tick, current.stateHash(), stateHash, lastMatch);
            }
            hashesChecked++;
            lastMatch = tick;
        }
    }

    /**
     * Checks the replay's skip of {@code tick} (the tick last begun) against the recording.
     *
     * @throws ReplayDivergenceException if the recording ran that tick (unless it is the last
     *     tick of a journal cut short, whose note the crash may have lost)
     * @throws IllegalStateException if {@code tick} is not the tick last begun
     */
    @Override
    public void tickSkipped(long tick, String system, int chunk) {
        if (!begun || current.tick() != tick) {
            throw new IllegalStateException("tickSkipped(" + tick + ") but the tick last begun is "
                    + (begun ? current.tick() : "none") + "; report a skipped tick after its beginTick and before the "
                    + "next");
        }
        replaySkipped = true;
        if (current.skipped()) {
            skipsMatched++;
        } else if (hasAhead || reader.cut() == null) {
            throw new ReplayDivergenceException(reader.path(), tick, null, system);
        }
    }

    /** Throws if the recording skipped the tick last begun but the replay ran it. */
    private void checkSkipOfCurrent() {
        if (begun && current.skipped() && !replaySkipped) {
            throw new ReplayDivergenceException(reader.path(), current.tick(), current.skippedSystem(), null);
        }
    }

    /**
     * Checks the last tick begun as {@link #beginTick} checks each earlier one: call after the
     * last tick (a replay that ran a tick the recording skipped throws here).
     */
    public void finish() {
        checkSkipOfCurrent();
    }

    /**
     * The failure policy the recording was made under; a replay runs under it.
     *
     * @return the policy from the journal's header
     */
    public FailurePolicy failurePolicy() {
        return reader.failurePolicy();
    }

    /**
     * Recorded skipped ticks the replay skipped too, so far.
     *
     * @return the count, 0 or more
     */
    public long skipsMatched() {
        return skipsMatched;
    }

    /**
     * Whether the journal's end-of-journal record has been read (once every tick is replayed).
     *
     * @return true once the replay has read past the last tick of a journal that was closed; false
     *     before, and for a journal cut short
     */
    public boolean closedCleanly() {
        return reader.closedCleanly();
    }

    /**
     * Where and why the journal ends without a clean close, once reached; null otherwise.
     *
     * @return a description of where the journal stops and why, or {@code null} while the end is
     *     not reached or when it closed cleanly
     */
    public String cut() {
        return reader.cut();
    }

    /**
     * Whether the recording has a state hash for the tick last begun.
     *
     * @return true when a tick has begun and the recording has its hash; false before the first
     *     tick
     */
    public boolean hasRecordedHash() {
        return begun && current.hasHash();
    }

    /** True when the recording hashed {@code tick}, the tick last begun: the simulation hashes it whatever its {@code hashEvery}. */
    @Override
    public boolean wantsHash(long tick) {
        return hasRecordedHash();
    }

    /**
     * How many recorded hashes the replay has matched so far.
     *
     * @return the count, 0 or more
     */
    public long hashesChecked() {
        return hashesChecked;
    }

    @Override
    public void close() throws IOException {
        reader.close();
    }

    private void swap() {
        // The look-ahead tick becomes the current one; the old current is refilled next.
        JournalTick t = current;
        current = ahead;
        ahead = t;
    }
}
