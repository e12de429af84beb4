package dev.orrery.ecs.ownership;

/**
 * The thread that owns a single-threaded object (a world, a command buffer), and the
 * assertion that a caller is that thread. Unbound, it accepts every caller, so code that
 * never hands an object between threads needs no binding.
 *
 * <pre>{@code
 * private final OwnerThread owner = new OwnerThread("world");
 * public void spawn() {
 *     assert owner.checkCaller("spawn");
 *     ...
 * }
 * }</pre>
 *
 * <p>{@link #checkCaller} is meant to sit inside an {@code assert}: with assertions off
 * (the default outside tests) the JVM evaluates nothing, so the check costs nothing on the
 * hot path; with {@code -ea} (every test run) a call from another thread fails with an
 * {@link AssertionError} that names the object, the operation and both threads.
 *
 * <p><b>Threading:</b> {@link #bind} writes a plain field. The binding thread and the new
 * owner must be ordered by a happens-before edge (the owner thread's start, a volatile
 * write and read, a concurrent queue's offer and poll, an executor's submit) before the new
 * owner calls; that is the same edge the hand-off of the owned object itself needs, so it
 * is always there in correct code. A racy caller may see a stale owner: the assertion is a
 * debugging aid that catches an unsafe hand-off, not a lock.
 */
public final class OwnerThread {
    private final String what;
    private Thread owner;

    /** An unbound owner record for the object {@code what} describes ("world", "command buffer 3"). */
    public OwnerThread(String what) {
        this.what = what;
    }

    /** Makes {@code thread} the owner; {@code null} unbinds (every caller is accepted again). */
    public void bind(Thread thread) {
        this.owner = thread;
    }

    /** The owner, or {@code null} when unbound. */
    public Thread owner() {
        return owner;
    }

    /** True when unbound or when the calling thread is the owner. */
    public boolean isCallerOwner() {
        Thread o = owner;
        return o == null || o == Thread.currentThread();
    }

    /**
     * Returns true when the calling thread may run {@code operation}; otherwise throws an
     * {@link AssertionError} naming the object, the operation and both threads. Use it as
     * {@code assert owner.checkCaller("spawn")}.
     */
    public boolean checkCaller(String operation) {
        Thread o = owner;
        if (o != null && o != Thread.currentThread()) {
            throw new AssertionError(what + " is owned by thread '" + o.getName() + "' but " + operation
                    + " was called from thread '" + Thread.currentThread().getName() + "'; call it on the owner, "
                    + "record it in the thread's own CommandBuffer, or hand the " + what
                    + " over with bindOwner(thread) first");
        }
        return true;
    }

    @Override
    public String toString() {
        Thread o = owner;
        return what + " owned by " + (o == null ? "no thread (unbound)" : "thread '" + o.getName() + "'");
    }
}
