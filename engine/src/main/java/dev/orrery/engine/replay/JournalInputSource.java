package dev.orrery.engine.replay;

import dev.orrery.engine.journal.CorruptJournalException;
import dev.orrery.engine.journal.JournalReader;
import dev.orrery.engine.journal.JournalTick;
import dev.orrery.engine.input.InputBatch;
import dev.orrery.engine.input.InputSource;
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
 *         InputBatch inputs = replay.beginTick(tick);
 *         runSystems(tick, inputs);
 *         replay.recordHash(tick, world.stateHash()); // throws ReplayDivergenceException on a mismatch
 *     }
 * }
 * }</pre>
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

    private JournalInputSource(JournalReader reader) throws IOException {
        this.reader = reader;
        this.hasAhead = reader.nextTick(ahead);
    }

    /**
     * Opens the journal at {@code path} for replay.
     *
     * @throws CorruptJournalException if the header or first tick is damaged
     */
    public static JournalInputSource open(Path path) throws IOException {
        JournalReader r = JournalReader.open(path);
        try {
            return new JournalInputSource(r);
        } catch (IOException | RuntimeException e) {
            r.close();
            throw e;
        }
    }

    /** Whether the journal holds another tick. */
    public boolean hasNextTick() {
        return hasAhead;
    }

    /**
     * The number of the next recorded tick.
     *
     * @throws IllegalStateException at the end of the journal
     */
    public long nextTick() {
        if (!hasAhead) {
            throw new IllegalStateException("journal " + reader.path() + " has no more ticks");
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
        swap();
        begun = true;
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
                    + (begun ? current.tick() : "none"));
        }
        if (current.hasHash()) {
            if (current.stateHash() != stateHash) {
                throw new ReplayDivergenceException(reader.path(), tick, current.stateHash(), stateHash, lastMatch);
            }
            hashesChecked++;
            lastMatch = tick;
        }
    }

    /** Whether the recording has a state hash for the tick last begun. */
    public boolean hasRecordedHash() {
        return begun && current.hasHash();
    }

    /** How many recorded hashes the replay has matched so far. */
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
