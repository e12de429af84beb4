package dev.orrery.testkit;

import dev.orrery.engine.InputBatch;
import dev.orrery.engine.InputSource;
import dev.orrery.engine.journal.JournalReader;
import dev.orrery.engine.journal.JournalTick;
import java.io.Closeable;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Path;

/**
 * The inputs of a recorded journal fed tick by tick, without checking hashes: how the kit runs
 * a recording on past its first difference, to compare the worlds at the end. A tick the
 * journal does not hold gets no inputs.
 *
 * <p><b>Threading:</b> the simulation's tick thread only.
 */
final class JournalInputs implements InputSource, Closeable {
    private final JournalReader reader;
    private final JournalTick next = new JournalTick();
    private final InputBatch empty = new InputBatch();
    private boolean more;

    JournalInputs(Path journal) throws IOException {
        reader = JournalReader.openAllowingCut(journal);
        more = reader.nextTick(next);
    }

    /** The last tick the journal holds, or -1 when it holds none. */
    static long lastTick(Path journal) throws IOException {
        long last = -1;
        try (JournalReader r = JournalReader.openAllowingCut(journal)) {
            JournalTick t = new JournalTick();
            while (r.nextTick(t)) {
                last = t.tick();
            }
        }
        return last;
    }

    @Override
    public InputBatch beginTick(long tick) {
        try {
            while (more && next.tick() < tick) {
                more = reader.nextTick(next);
            }
        } catch (IOException e) {
            throw new UncheckedIOException("reading " + reader.path() + " at tick " + tick + " failed", e);
        }
        if (more && next.tick() == tick) {
            return next.inputs();
        }
        empty.reset(tick);
        return empty;
    }

    @Override
    public void recordHash(long tick, long stateHash) {
    }

    @Override
    public void close() throws IOException {
        reader.close();
    }
}
