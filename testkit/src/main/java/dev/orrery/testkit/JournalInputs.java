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

    /** A hash of {@code tick}'s inputs (client, type and payload of each): two recordings' ticks compared. */
    static long contentHash(JournalTick tick) {
        long h = 0x9E3779B97F4A7C15L;
        var batch = tick.inputs();
        byte[] buf = new byte[64];
        for (int i = 0; i < batch.size(); i++) {
            h = h * 31 + batch.client(i);
            h = h * 31 + batch.type(i);
            int len = batch.payloadLength(i);
            if (buf.length < len) {
                buf = new byte[len];
            }
            batch.copyPayload(i, buf, 0);
            for (int k = 0; k < len; k++) {
                h = h * 31 + buf[k];
            }
        }
        return h;
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
