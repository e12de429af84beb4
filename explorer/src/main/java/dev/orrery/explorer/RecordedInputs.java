package dev.orrery.explorer;

import dev.orrery.engine.InputBatch;
import dev.orrery.engine.CorruptJournalException;
import dev.orrery.engine.InputSource;
import dev.orrery.engine.journal.JournalMark;
import dev.orrery.engine.journal.JournalReader;
import dev.orrery.engine.journal.JournalTick;
import dev.orrery.engine.journal.SkipComparison;
import dev.orrery.scheduler.SystemFailedException;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.util.List;

/**
 * The recorded inputs of a journal from a given tick on, as an {@link InputSource} for a
 * replay in the past: it skips the ticks before (a replay restored from a snapshot taken
 * later than the journal's start), reads on when a live recording has grown past what it read,
 * and checks the replay's hashes and skipped ticks against the recorded ones,
 * noting the first mismatch instead of throwing (the page says so): a tick the recording
 * skipped ({@code FailurePolicy.SKIP_TICK}) must be skipped by the replay and the other way
 * round, as {@code RunReplayer} checks, since a skip whose writes match leaves the hash alone.
 *
 * <p>Where it finds the end of a live recording it keeps the last point between ticks it read
 * ({@link JournalReader#tickMark()}) and goes on from there once the journal grew, so a client
 * that keeps asking for the newest tick costs what was written since, not a read of the whole
 * journal (hundreds of MB for a recording hours long); the tick it stopped inside is read again
 * whole. A journal replaced, truncated or rewritten since, and a tick before that point, are
 * read from the journal's start; so is one whose records, read on from that point, are refused
 * anywhere (a journal rewritten in place that holds the same bytes just before the point, all a
 * resume checks, may hold other records before it: its end record's count is then off), and
 * damage is refused there too.
 *
 * <p><b>Threading:</b> the replay thread only.
 */
final class RecordedInputs implements InputSource, AutoCloseable {
    private final Path journal;
    private JournalReader reader;
    private JournalTick ahead = new JournalTick();
    private JournalTick current = new JournalTick();
    private boolean hasAhead;
    private long hashesMatched;
    private long divergedAt = -1;
    private String divergence;
    /** The replay reported the tick last begun skipped. */
    private boolean replaySkipped;
    /** Bytes the readers closed so far took from the journal (what a test holds the reads to). */
    private long bytesRead;
    /** Where {@link #reader} found the live end, between ticks, to go on from; null: read from the start. */
    private JournalMark liveEnd;
    /** {@link #reader} goes on from a mark, having read none of the records before it. */
    private boolean resumed;
    /** A reader going on from a mark was refused, and the journal was read from its start instead. */
    private boolean rewritten;

    RecordedInputs(Path journal, long from) throws IOException {
        this.journal = journal;
        open(from);
    }

    private void open(long from) throws IOException {
        JournalMark mark = liveEnd;
        liveEnd = null;
        JournalResume.Opened opened = JournalResume.open(journal, mark != null && from > mark.lastTickEnded() ? mark
                : null);
        if (reader != null) {
            bytesRead += reader.bytesRead();
            reader.close();
        }
        reader = opened.reader();
        resumed = opened.resumed();
        rewritten |= mark != null && from > mark.lastTickEnded() && !resumed;
        hasAhead = readAhead(from);
        while (hasAhead && ahead.tick() < from) {
            hasAhead = readAhead(from);
        }
        if (!hasAhead) {
            atLiveEnd();
        }
    }

    /**
     * Reads the next tick into {@link #ahead}. A resumed reader refused there is replaced by one
     * from the journal's start, read up to tick {@code from}: the records from the mark on may not
     * go on from those before it as the reader that took the mark had them (another file alike up
     * to the mark: the record at the mark out of order, or the end record's count off); damage
     * reads the same from the start, and is refused then.
     */
    private boolean readAhead(long from) throws IOException {
        try {
            return reader.nextTick(ahead);
        } catch (CorruptJournalException e) {
            if (!resumed) {
                throw e;
            }
            bytesRead += reader.bytesRead();
            reader.close();
            reader = JournalReader.openAllowingCut(journal);
            resumed = false;
            boolean has = reader.nextTick(ahead);
            while (has && ahead.tick() < from) {
                has = reader.nextTick(ahead);
            }
            rewritten = true; // read from the start without a refusal: not damage
            return has;
        }
    }

    /** Keeps where to go on from once the journal grew: none for a closed one, or a header not all written. */
    private void atLiveEnd() {
        liveEnd = reader.closedCleanly() || reader.version() == 0 ? null : reader.tickMark();
    }

    /** Whether tick {@code tick} is recorded (reading a live journal again when it has grown). */
    boolean has(long tick) throws IOException {
        if (hasAhead && ahead.tick() == tick) {
            return true;
        }
        if (!hasAhead) {
            open(tick);
        }
        return hasAhead && ahead.tick() == tick;
    }

    /**
     * How the journal ends, once {@link #has} found no more ticks: closed (it will not grow),
     * or without its end record, which a live recording still being written and one cut by a
     * crash both show.
     */
    String ending() {
        return ending(reader.closedCleanly(), reader.cut());
    }

    /** How a journal ends, {@code closed} or not, with what cut it when known ({@code cut}, or null). */
    static String ending(boolean closed, String cut) {
        if (closed) {
            return "the recording was closed there";
        }
        return "it has no end record: a live recording grows as the run goes, while one cut by a crash ends there"
                + (cut != null ? " (" + cut + ")" : "");
    }

    /** The failure policy the recording was made under. */
    dev.orrery.engine.FailurePolicy failurePolicy() {
        return reader.failurePolicy();
    }

    @Override
    public InputBatch beginTick(long tick) {
        try {
            if (!has(tick)) {
                throw new IllegalStateException("the journal " + journal + " holds no tick " + tick + " (yet)");
            }
            JournalTick t = current;
            replaySkipped = false;
            current = ahead;
            ahead = t;
            hasAhead = readAhead(tick + 1);
            if (!hasAhead) {
                atLiveEnd();
            }
        } catch (IOException e) {
            throw new UncheckedIOException("reading the journal " + journal + ": " + e.getMessage(), e);
        }
        return current.inputs();
    }

    @Override
    public boolean wantsHash(long tick) {
        return current.tick() == tick && current.hasHash(); // whatever the replaying blueprint's hashEvery
    }

    @Override
    public void recordHash(long tick, long stateHash) {
        if (current.tick() == tick && current.hasHash()) {
            if (current.stateHash() == stateHash) {
                hashesMatched++;
            } else {
                diverged(tick, "the replayed state hash after tick " + tick + " differs from the recorded one");
            }
        }
    }

    @Override
    public void tickSkipped(long tick, String system, int chunk) {
        skipped(tick, system, null, null);
    }

    /** As {@link #tickSkipped(long, String, int)}, and a tick both skipped must be skipped for the same system. */
    @Override
    public void tickSkipped(long tick, SystemFailedException failure, List<String> systems) {
        skipped(tick, failure.system(), failure.getCause(), systems);
    }

    private void skipped(long tick, String system, Throwable thrown, List<String> systems) {
        replaySkipped = true;
        // the last tick of a journal without its end record may have lost its skip note
        if (current.tick() == tick && !current.skipped() && (hasAhead || reader.cut() == null)) {
            diverged(tick, "the replay skipped tick " + tick + " (" + SkipComparison.failed(system) + ") and the recorded "
                    + "run did not: the system failed on other data, or fails where it did not");
        } else if (current.tick() == tick && current.skipped()
                && !SkipComparison.sameSystem(current.skippedSystem(), system)) {
            diverged(tick, "tick " + tick + ": " + SkipComparison.otherSystem(current.skippedSystem(), system, thrown,
                    systems));
        }
    }

    private void diverged(long tick, String why) {
        if (divergedAt < 0) {
            divergedAt = tick;
            divergence = why;
        }
    }

    /** Notes a tick the recording skipped that the replay ran ({@code tick}, just run). Call after every tick. */
    void checkSkipped(long tick) {
        if (current.tick() == tick && current.skipped() && !replaySkipped) {
            diverged(tick, "the recorded run skipped tick " + tick + " (" + SkipComparison.failed(current.skippedSystem())
                    + ") and the replay ran it: the replay's systems do not fail as the recorded ones did");
        }
    }

    /**
     * Whether the journal no longer held what this source had read before where it stopped: a
     * reader going on from there was refused and the journal, read from its start, was not. An
     * append-only journal never does that, so the ticks handed out so far may be another
     * recording's: the timeline then starts again ({@link RecordingWatch} says why in more cases).
     */
    boolean rewritten() {
        return rewritten;
    }

    /** Recorded hashes the replay matched. */
    long hashesMatched() {
        return hashesMatched;
    }

    /** The first tick whose replayed hash or skip differed from the recorded one, or -1. */
    long divergedAt() {
        return divergedAt;
    }

    /** How the replay differed at {@link #divergedAt()}, or null. */
    String divergence() {
        return divergence;
    }

    /** Bytes read from the journal so far, by every reader together. */
    long bytesRead() {
        return bytesRead + reader.bytesRead();
    }

    @Override
    public void close() throws IOException {
        reader.close();
    }
}
