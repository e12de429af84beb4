package dev.orrery.explorer;

/**
 * Paces the large answers (the live map of every entity, a long history): a token bucket of
 * bytes a second shared by every request. A large answer whose bytes the bucket does not hold
 * waits its turn, sleeping on its request thread, so clients that loop the largest read get a
 * few answers a second each instead of using the machine's cores to copy and parse them, and
 * the simulation keeps its cores. One that would wait longer than {@link #MAX_WAIT_MILLIS} is
 * refused (503) instead.
 *
 * <p><b>Threading:</b> {@link #acquire} on any thread (synchronized on the bucket; the wait is
 * outside the lock).
 */
final class Pacer {
    /** Answers smaller than this are not paced. */
    static final int THRESHOLD = 64 * 1024;
    /** The most a large answer waits for its turn. */
    static final long MAX_WAIT_MILLIS = 5_000;

    private final double bytesPerNano;
    private final double burst;
    private double tokens;
    private long last = System.nanoTime();

    Pacer(long bytesPerSecond, long burstBytes) {
        this.bytesPerNano = bytesPerSecond / 1e9;
        this.burst = burstBytes;
        this.tokens = burstBytes;
    }

    /**
     * Takes {@code bytes} from the bucket, waiting until they are due.
     *
     * @return false (and nothing taken) when the wait would be longer than {@link #MAX_WAIT_MILLIS}
     */
    boolean acquire(long bytes) throws InterruptedException {
        if (bytes < THRESHOLD) {
            return true;
        }
        long waitNanos;
        synchronized (this) {
            long now = System.nanoTime();
            tokens = Math.min(burst, tokens + (now - last) * bytesPerNano);
            last = now;
            double after = tokens - bytes;
            waitNanos = after >= 0 ? 0 : (long) (-after / bytesPerNano);
            if (waitNanos > MAX_WAIT_MILLIS * 1_000_000L) {
                return false;
            }
            tokens = after; // in debt until the wait is over: later answers queue behind this one
        }
        if (waitNanos > 0) {
            Thread.sleep(waitNanos / 1_000_000L, (int) (waitNanos % 1_000_000L));
        }
        return true;
    }
}
