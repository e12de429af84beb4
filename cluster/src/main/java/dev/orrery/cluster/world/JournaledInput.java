package dev.orrery.cluster.world;

import dev.orrery.engine.InputBatch;

/**
 * How a world journals a client input: the payload in the journal is the input's client id
 * and sequence (two big-endian {@code long}s) followed by the client's payload. The
 * simulation sees the client's payload only, live and in replay, so its hashes are those of
 * the inputs alone; the journal carries what rebuilds the de-duplication window.
 *
 * <p><b>Threading:</b> an instance is scratch space for one thread (the world's tick thread,
 * or a verifier's).
 */
final class JournaledInput {
    static final int HEADER = 16;
    /** The largest client payload a journaled input holds: the engine journal's 64 KiB less the header. */
    static final int PAYLOAD_CEILING = 65536 - HEADER;

    private byte[] scratch = new byte[256];
    long clientId;
    long sequence;
    int client;
    int type;
    int length;

    /** The client's payload of the input read last: bytes {@code HEADER} to {@code HEADER + length} of it. */
    byte[] buffer() {
        return scratch;
    }

    static byte[] encode(long clientId, long sequence, byte[] payload) {
        byte[] out = new byte[HEADER + payload.length];
        putLong(out, 0, clientId);
        putLong(out, 8, sequence);
        System.arraycopy(payload, 0, out, HEADER, payload.length);
        return out;
    }

    /**
     * Reads journaled input {@code i} of {@code batch}.
     *
     * @throws IllegalStateException if it is shorter than the header (a journal not written
     *     by a cluster world)
     */
    void read(InputBatch batch, int i, String worldId) {
        int n = batch.payloadLength(i);
        if (n < HEADER) {
            throw new IllegalStateException("world '" + worldId + "': journaled input " + i + " of tick " + batch.tick()
                    + " has " + n + " bytes, fewer than the " + HEADER + " of a client id and sequence; the journal "
                    + "was not written by an Orrery cluster world");
        }
        if (scratch.length < n) {
            scratch = new byte[Math.max(n, scratch.length * 2)];
        }
        batch.copyPayload(i, scratch, 0);
        clientId = getLong(scratch, 0);
        sequence = getLong(scratch, 8);
        client = batch.client(i);
        type = batch.type(i);
        length = n - HEADER;
    }

    private static void putLong(byte[] b, int at, long v) {
        for (int k = 0; k < 8; k++) {
            b[at + k] = (byte) (v >>> (56 - 8 * k));
        }
    }

    private static long getLong(byte[] b, int at) {
        long v = 0;
        for (int k = 0; k < 8; k++) {
            v = (v << 8) | (b[at + k] & 0xff);
        }
        return v;
    }
}
