package dev.orrery.engine;

import dev.orrery.engine.journal.JournalReader;
import dev.orrery.engine.journal.JournalTick;
import dev.orrery.engine.journal.SkipComparison;
import dev.orrery.scheduler.SystemFailedException;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.util.List;

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
 * replay too, because the same system (or sync point) failed, and a tick the recording ran must
 * be run ({@link #tickSkipped}); a tick that the replay skips
 * as the last tick of a journal cut by a crash is let pass, since the note may be what the
 * crash lost. {@link #openAllowingCut} replays a recording that did not close up to its last
 * complete tick; {@link #closedCleanly()} and {@link #cut()} say how it ended.
 *
 * <p>A simulation restored from a snapshot taken during the recorded run goes on from the
 * journal at its own tick: {@link #resumeAt} passes over the ticks the snapshot already holds
 * and checks the restored state against the hash the recording took just before it.
 * {@code RunReplayer.replay(dir, snapshot, sim)} does that for a {@code RunRecorder} folder.
 *
 * <pre>{@code
 * restored.restore(snapshot);                               // taken at tick T of the recorded run
 * journal.resumeAt(restored.currentTick(), restored.world().stateHash());
 * restored.inputs(journal);                                 // ticks T, T+1... with their recorded inputs
 * }</pre>
 *
 * <p><b>Threading:</b> one tick thread, like every {@link InputSource}; {@link #resumeAt} on
 * that thread too, before the simulation's next tick.
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
    /** The tick {@link #resumeAt} positioned the source at, or {@code Long.MIN_VALUE}. */
    private long resumedAt = Long.MIN_VALUE;
    /** Whether {@link #resumedAt} is the journal's first tick (a replay from the recording's start). */
    private boolean resumedAtFirst;

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
            boolean restored = hasAhead && !begun && resumedAt == Long.MIN_VALUE && tick > ahead.tick();
            throw new IllegalStateException("replay asked for tick " + tick + " but journal " + reader.path()
                    + (hasAhead ? " records tick " + ahead.tick() + " next" : " has no more ticks")
                    + (restored ? "; a simulation restored from a snapshot taken at tick " + tick + " of the recorded "
                            + "run goes on from the journal once it is positioned there: call journal.resumeAt("
                            + "sim.currentTick(), sim.world().stateHash()) before its first tick (or replay a "
                            + "RunRecorder folder with RunReplayer.replay(dir, snapshot, sim)); a simulation "
                            + "that is not restored runs the recorded ticks from the first, " + ahead.tick()
                            : "; run the replay's ticks with the recorded numbers, starting at the first recorded "
                            + "tick (or, for a simulation restored from a snapshot of the recorded run, at the "
                            + "tick resumeAt positioned the journal at)"));
        }
        checkSkipOfCurrent();
        swap();
        begun = true;
        replaySkipped = false;
        readAhead();
        return current.inputs();
    }

    /**
     * Positions the source at recorded tick {@code tick}, for a simulation restored from a
     * snapshot taken at that tick of the recorded run (its {@code currentTick()}): the inputs of
     * the earlier ticks, which the snapshot's state already holds, are passed over, and
     * {@code stateHash}, the restored world's {@code stateHash()}, is checked against the hash the
     * recording took after tick {@code tick - 1} where it has one (a snapshot at a tick the
     * recording did not hash is checked at the next recorded hash instead, which
     * {@link #beginTick} and {@link #recordHash} then check as for a replay from the start).
     * The matched hash is not counted in {@link #hashesChecked()}.
     *
     * <p>Call it before the first {@link #beginTick} of the resumed run, on the tick thread; it
     * may be called after earlier ticks were begun, to skip ahead, never back.
     *
     * @param tick the restored simulation's next tick, at most one past the journal's last tick
     * @param stateHash the restored state's hash ({@code World.stateHash()})
     * @throws ReplayDivergenceException if the recording's hash after {@code tick - 1} differs
     *     from {@code stateHash}: the snapshot is not one of the recorded run (naming both hashes)
     * @throws IllegalStateException if the journal is already past {@code tick}, has no record of
     *     {@code tick} (it skips from an earlier tick to a later one: another run's journal), or
     *     ends before {@code tick - 1} (a snapshot taken after the recording ended, or, for a
     *     journal a crash cut short, after the tick it was cut at: the message names that tick)
     * @throws UncheckedIOException wrapping a {@link CorruptJournalException} if the journal is
     *     damaged before {@code tick}
     */
    public void resumeAt(long tick, long stateHash) {
        if (!begun && resumedAt == Long.MIN_VALUE && hasAhead && ahead.tick() > tick) {
            throw new IllegalStateException("resumeAt(" + tick + ") but journal " + reader.path() + " starts at tick "
                    + ahead.tick() + ": the snapshot was taken before the recording started; restore one taken at a "
                    + "tick from " + ahead.tick() + " on, or the recording's own starting snapshot");
        }
        if (begun && current.tick() >= tick || hasAhead && ahead.tick() > tick) {
            throw new IllegalStateException("resumeAt(" + tick + ") but the journal is past tick " + tick + " (it "
                    + (hasAhead ? "records tick " + ahead.tick() + " next" : "has no more ticks") + "); a source "
                    + "only goes forward: open the journal again to resume at an earlier tick");
        }
        checkSkipOfCurrent(); // as beginTick: a tick begun and run where the recording skipped it
        long last = begun ? current.tick() : Long.MIN_VALUE;
        boolean lastHashed = begun && current.hasHash();
        long lastHash = lastHashed ? current.stateHash() : 0;
        while (hasAhead && ahead.tick() < tick) {
            last = ahead.tick();
            lastHashed = ahead.hasHash();
            lastHash = lastHashed ? ahead.stateHash() : 0;
            readAhead();
        }
        if (hasAhead && ahead.tick() != tick) {
            throw new IllegalStateException("journal " + reader.path() + " goes from tick " + last + " to tick "
                    + ahead.tick() + " and has no tick " + tick + " to resume at; the snapshot and the journal are "
                    + "from different runs");
        }
        if (!hasAhead && last != Long.MIN_VALUE && last != tick - 1) { // an empty journal: nothing to replay
            String cut = reader.cut(); // the end is reached: null for a journal that closed
            throw new IllegalStateException("resumeAt(" + tick + ") but journal " + reader.path()
                    + (cut == null ? " ends after tick " + last + ": the snapshot was taken after the recording "
                            + "ended, and nothing recorded follows it"
                            : " was cut after tick " + last + ": a crash lost the rest of the recording, so nothing "
                            + "recorded follows that tick (" + cut + ")")
                    + "; resume at a tick up to " + (last + 1));
        }
        begun = false;
        replaySkipped = false;
        resumedAt = tick;
        resumedAtFirst = last == Long.MIN_VALUE; // no recorded tick before it: nothing to check the start against
        if (last == tick - 1 && lastHashed) {
            if (lastHash != stateHash) {
                throw new ReplayDivergenceException("replay of journal " + reader.path() + " refused: the state "
                        + "resumed at tick " + tick + " has hash 0x" + Long.toHexString(stateHash) + " where the "
                        + "recording had 0x" + Long.toHexString(lastHash) + " after tick " + last + ", so it is not "
                        + "a snapshot of the recorded run (or the simulation was changed between the snapshot and "
                        + "the next tick, or restored into a simulation built otherwise); restore a snapshot taken "
                        + "during the run this journal recorded", last, lastHash, stateHash);
            }
            lastMatch = last;
        }
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
                throw new ReplayDivergenceException(reader.path(), tick, current.stateHash(), stateHash, lastMatch,
                        resumedAt, resumedAtFirst);
            }
            hashesChecked++;
            lastMatch = tick;
        }
    }

    /**
     * Checks the replay's skip of {@code tick} (the tick last begun) against the recording:
     * the recording must have skipped it too, because {@code system} failed (compared as a
     * journal keeps a name, cut to 1 024 bytes of UTF-8).
     *
     * @throws ReplayDivergenceException if the recording ran that tick (unless it is the last
     *     tick of a journal cut short, whose note the crash may have lost), or skipped it
     *     because another system failed
     * @throws IllegalStateException if {@code tick} is not the tick last begun
     */
    @Override
    public void tickSkipped(long tick, String system, int chunk) {
        skipped(tick, system, null, null);
    }

    /**
     * Checks the replay's skip of {@code tick} (the tick last begun) against the recording, as
     * {@link #tickSkipped(long, String, int)} does, and, where the recording skipped it too,
     * that the same system failed: the replay's {@code failure.system()}, cut as a journal cuts a
     * name, must be the recorded one.
     *
     * @throws ReplayDivergenceException if the recording ran that tick (unless it is the last
     *     tick of a journal cut short), or skipped it because another system failed: naming the
     *     tick, both systems, what the replay's threw (the journal keeps no exception), whether
     *     the replaying game ({@code systems}) still has the recorded system, and the fix
     * @throws IllegalStateException if {@code tick} is not the tick last begun
     */
    @Override
    public void tickSkipped(long tick, SystemFailedException failure, List<String> systems) {
        skipped(tick, failure.system(), failure.getCause(), systems);
    }

    private void skipped(long tick, String system, Throwable thrown, List<String> systems) {
        if (!begun || current.tick() != tick) {
            throw new IllegalStateException("tickSkipped(" + tick + ") but the tick last begun is "
                    + (begun ? current.tick() : "none") + "; report a skipped tick after its beginTick and before the "
                    + "next");
        }
        replaySkipped = true;
        if (current.skipped() && !SkipComparison.sameSystem(current.skippedSystem(), system)) {
            throw new ReplayDivergenceException(reader.path(), tick,
                    SkipComparison.otherSystem(current.skippedSystem(), system, thrown, systems));
        } else if (current.skipped()) {
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

    /**
     * Reads the tick after the current one into the look-ahead; on a read error there is none
     * ahead any more and the error is thrown unchecked, as {@link InputSource} methods throw.
     */
    private void readAhead() {
        try {
            hasAhead = reader.nextTick(ahead);
        } catch (IOException e) {
            hasAhead = false;
            throw new UncheckedIOException(e.getMessage(), e);
        }
    }

    private void swap() {
        // The look-ahead tick becomes the current one; the old current is refilled next.
        JournalTick t = current;
        current = ahead;
        ahead = t;
    }
}
