package dev.orrery.explorer;

import dev.orrery.engine.InputBatch;
import dev.orrery.engine.InputSource;
import dev.orrery.engine.journal.JournalReader;
import dev.orrery.engine.journal.JournalTick;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Path;

/**
 * The recorded inputs of a journal from a given tick on, as an {@link InputSource} for a
 * replay in the past: it skips the ticks before (a replay restored from a snapshot taken
 * later than the journal's start), reopens the journal when a live recording has grown past
 * what it read, and checks the replay's hashes against the recorded ones, noting the first
 * mismatch instead of throwing (the page says so).
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
    /** The tick whose hash the simulation last handed to {@link #recordHash}. */
    private long handed = Long.MIN_VALUE;

    RecordedInputs(Path journal, long from) throws IOException {
        this.journal = journal;
        open(from);
    }

    private void open(long from) throws IOException {
        if (reader != null) {
            reader.close();
        }
        reader = JournalReader.openAllowingCut(journal);
        hasAhead = reader.nextTick(ahead);
        while (hasAhead && ahead.tick() < from) {
            hasAhead = reader.nextTick(ahead);
        }
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
            current = ahead;
            ahead = t;
            hasAhead = reader.nextTick(ahead);
        } catch (IOException e) {
            throw new UncheckedIOException("reading the journal " + journal + ": " + e.getMessage(), e);
        }
        return current.inputs();
    }

    @Override
    public void recordHash(long tick, long stateHash) {
        handed = tick;
        if (current.tick() == tick && current.hasHash()) {
            if (current.stateHash() == stateHash) {
                hashesMatched++;
            } else if (divergedAt < 0) {
                divergedAt = tick;
            }
        }
    }

    /**
     * Checks {@code world}'s hash after {@code tick} against the recording when the recording
     * hashed that tick and the replaying simulation did not hand its hash (built with another
     * {@code hashEvery} than the recorded run), so no recorded hash goes unchecked.
     */
    void checkUnhanded(long tick, dev.orrery.ecs.World world) {
        if (handed != tick && current.tick() == tick && current.hasHash()) {
            recordHash(tick, world.stateHash());
        }
    }

    /** Recorded hashes the replay matched. */
    long hashesMatched() {
        return hashesMatched;
    }

    /** The first tick whose replayed hash differed from the recorded one, or -1. */
    long divergedAt() {
        return divergedAt;
    }

    @Override
    public void close() throws IOException {
        reader.close();
    }
}
