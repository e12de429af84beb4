package dev.orrery.explorer;

import dev.orrery.engine.ResourceCodec;
import java.io.DataOutputStream;
import java.io.IOException;
import java.io.OutputStream;

/**
 * What the resources view shows of a resource's encoding: its first bytes, and its size when
 * that is at most a limit. The codec writes into a stream that counts the bytes and keeps only
 * the first few; the write that would go past the limit fails, which stops the codec there. A
 * resource's codec thus costs the tick thread at most {@code limit} bytes of writing however
 * large the resource is (a channel of a million events, a long list); only what the codec
 * does before it writes (such as building one large array) is beyond the bound.
 *
 * <p>{@link #more} says that the encoding goes on past the limit, so the size is then a lower
 * bound: more than {@link #size}. It is decided by the stream, not by what the codec throws, so
 * a codec that wraps, or swallows, the failure is still read as stopped.
 *
 * <p><b>Threading:</b> {@link #of} on the tick thread at a safe point (it runs the codec); the
 * result is immutable.
 */
final class EncodedHead {
    /** The first bytes of the encoding: as many as were asked for, fewer when it is shorter. */
    final byte[] head;
    /** The bytes written: the encoded size, or the limit when {@link #more}. */
    final int size;
    /** Whether the encoding goes on past the limit (its size is more than {@link #size}). */
    final boolean more;

    private EncodedHead(byte[] head, int size, boolean more) {
        this.head = head;
        this.size = size;
        this.more = more;
    }

    /**
     * Encodes {@code value} with {@code codec}, keeping its first {@code keep} bytes and
     * stopping the codec past {@code limit} bytes.
     *
     * @return the head, or {@code null} when the codec failed before reaching the limit
     */
    static <T> EncodedHead of(ResourceCodec<T> codec, T value, int keep, int limit) {
        Capped capped = new Capped(keep, limit);
        try (DataOutputStream out = new DataOutputStream(capped)) {
            codec.write(value, out);
        } catch (IOException | RuntimeException e) {
            if (!capped.more) {
                return null;
            }
        }
        byte[] head = java.util.Arrays.copyOf(capped.head, Math.min(keep, capped.count));
        return new EncodedHead(head, capped.count, capped.more);
    }

    /** Counts what is written up to a limit, keeps the first bytes, and fails past the limit. */
    private static final class Capped extends OutputStream {
        final byte[] head;
        final int limit;
        int count;
        boolean more;

        Capped(int keep, int limit) {
            this.head = new byte[keep];
            this.limit = limit;
        }

        @Override
        public void write(int b) throws IOException {
            if (count == limit) {
                throw stop();
            }
            if (count < head.length) {
                head[count] = (byte) b;
            }
            count++;
        }

        @Override
        public void write(byte[] b, int off, int len) throws IOException {
            java.util.Objects.checkFromIndexSize(off, len, b.length);
            int taken = Math.min(len, limit - count);
            if (count < head.length) {
                System.arraycopy(b, off, head, count, Math.min(taken, head.length - count));
            }
            count += taken;
            if (taken < len) {
                throw stop();
            }
        }

        private Stop stop() {
            more = true;
            return new Stop(limit);
        }
    }

    /** The failure that stops a codec at the limit; without a stack trace, as it is expected. */
    private static final class Stop extends IOException {
        private static final long serialVersionUID = 1L;

        Stop(int limit) {
            super("the explorer's resources view reads at most " + limit + " bytes of a resource's encoding "
                    + "(its size and first bytes); the rest is not needed there");
        }

        @Override
        public synchronized Throwable fillInStackTrace() {
            return this;
        }
    }
}
