package dev.orrery.scheduler;

import dev.orrery.scheduler.check.CheckedMode;

/**
 * A count that the jobs of a system add to at once with no lock and no false sharing: each
 * worker adds into its own slot, 128 bytes from the next (a cache line and its prefetched
 * pair), and {@link #total()} folds the slots into one sum. A long sum is the same in any
 * order, so the total is identical on any worker count and any job split.
 *
 * <p>Declare the reduction on the system ({@code .reducesResource(KILLS)}, ordered like a
 * write, so every reader of the key runs after the system finishes) and add through the job,
 * which checks the declaration. Read the total through the job or the store, as the count
 * supplier below does, never through a {@code LongSum} a lambda captured: a simulation's
 * restore puts a new object under a resource with a codec, and the captured one would be
 * stale:
 *
 * <pre>{@code
 * ResourceKey<LongSum> DEAD = ResourceKey.of("dead", LongSum.class);
 * Schedule.Builder b = Schedule.builder(world).resource(DEAD, new LongSum());
 * b.system("reap").query(living).reads(hp).despawns().reducesResource(DEAD).forEachChunk(job -> {
 *         int[] h = job.chunk().readInts(hpValue);
 *         int n = 0;
 *         for (int i = 0; i < job.chunk().size(); i++) {
 *             if (h[i] <= 0) {
 *                 job.commands().despawn(job.chunk().entity(i));
 *                 n++;
 *             }
 *         }
 *         job.add(DEAD, n);                                          // once per chunk, not per row
 *     })
 *     .system("respawn").readsResource(DEAD).spawns(hp)
 *         .forEachRange(() -> (int) b.resources().get(DEAD).total(), (job, from, to) -> {   // the store's
 *             for (int i = from; i < to; i++) job.commands().add(job.commands().spawn(), hp, new Health(100));
 *         })
 *     .system("reset").inPhase(Phase.POST_UPDATE).writesResource(DEAD)
 *         .forEachRange(() -> 1, (job, from, to) -> job.resourceForWrite(DEAD).reset())
 * }</pre>
 *
 * <p><b>Threading:</b> {@link #add} from the jobs of the declared reducers only, each with
 * its own worker id (a worker runs one job at a time, so a slot has one writer); {@link #total},
 * {@link #set} and {@link #reset} from a system ordered after the reducers (a declared read or
 * write of the key) or from the owner thread between runs: the executor's job completion is
 * the happens-before edge. Not for concurrent use otherwise.
 *
 * <p><b>Checked mode</b> (under {@code -ea}): {@link #set} and {@link #reset} from a job whose
 * system declared no write of a key the sum is stored under (for example only
 * {@code readsResource(key)}, then {@code job.resource(key).reset()}) throw an
 * {@link UndeclaredResourceAccessException} naming the system, the sum and the fix
 * ({@code .writesResource(key)}): the graph orders such a system only as a reader, so the reset
 * could land beside the reducers. Likewise {@link #add} from a job whose system declared no
 * reduction into (nor write of) any such key, for example {@code job.resource(key).add(0, n)}
 * after only {@code readsResource(key)}: an add is a write, and a reader may run beside the
 * other readers of the total, which would then depend on timing; the fix is
 * {@code .reducesResource(key)} and {@code job.add(key, n)}. Through {@code job.add} the
 * reduction is checked once, by the job (in every mode, for the key it is given), and the add
 * skips this look-up. Exclusive systems may write every resource; calls outside jobs are not
 * checked.
 */
public final class LongSum {
    /** Longs per worker slot: 128 bytes, so two workers never share a cache line (or its adjacent-line prefetch). */
    static final int STRIDE = 16;
    private long[] slots = new long[STRIDE * 2];
    private long base;
    /** The keys this sum is stored under ({@link Resources#put} records them), for the checked-mode refusal. */
    private final StoredKeys keys = new StoredKeys();

    /** A sum of 0, with slots for one worker (an executor grows them to its worker count before it runs). */
    public LongSum() {
    }

    /**
     * A sum starting at {@code initial}.
     *
     * @param initial the starting total, any value
     */
    public LongSum(long initial) {
        this.base = initial;
    }

    /**
     * Adds {@code amount} into worker {@code workerId}'s slot. Call it through
     * {@code JobContext.add(key, amount)}, which checks the system declared the reduction and
     * passes the worker id; add once per chunk or job, not per row, where you can.
     *
     * @param workerId the calling job's worker id ({@code job.workerId()})
     * @param amount the amount to add, negative to subtract
     * @throws ArrayIndexOutOfBoundsException naming the worker id and the workers prepared, for
     *     a worker id the executor did not prepare (a negative one included); nothing is added
     * @throws UndeclaredResourceAccessException in checked mode, from a job whose system
     *     declared no reduction into (nor write of) the sum's key, naming the system, the key and
     *     the fix
     */
    public void add(int workerId, long amount) {
        if (CheckedMode.ENABLED) { // a static final: unchecked, the JIT drops the look-up
            keys.checkWrite(StoredKeys.Write.SUM_ADD, amount);
        }
        addDeclared(workerId, amount);
    }

    /**
     * {@link #add} for a caller that has checked the declared reduction itself:
     * {@code JobContext.add}, through {@code SchedulerInternals.addDeclared}, whose check of the
     * job's key already refuses what the checked-mode look-up in {@link #add} would (the key
     * resolves to this sum, so the sum is stored under it). The worker id is checked as in
     * {@link #add}, with the same exception. Threading: as {@link #add}.
     */
    void addDeclared(int workerId, long amount) {
        long[] s = slots;
        if (Integer.compareUnsigned(workerId, s.length / STRIDE - 1) >= 0) { // one compare: negative ids are large
            throw badWorker(workerId, s.length / STRIDE - 1); // -1 would land in slot 0, which total() skips
        }
        s[(workerId + 1) * STRIDE] += amount; // slot 0's line is left to the array header
    }

    private static ArrayIndexOutOfBoundsException badWorker(int workerId, int workers) {
        return new ArrayIndexOutOfBoundsException("LongSum.add: worker id " + workerId + " is not one this sum was "
                + "prepared for (0 to " + (workers - 1) + "); add through job.add(key, n), which passes the job's own "
                + "worker id");
    }

    /**
     * The sum of everything added since the last {@link #set} or {@link #reset}, plus that value.
     *
     * @return the total; read it after the adding systems finished (a later system, or between
     *     runs)
     */
    public long total() {
        long t = base;
        for (int i = STRIDE; i < slots.length; i += STRIDE) {
            t += slots[i];
        }
        return t;
    }

    /**
     * Sets the total to {@code value} (clearing every worker's slot).
     *
     * @param value the new total
     * @throws UndeclaredResourceAccessException in checked mode, from a job whose system
     *     declared no write of the sum's key, naming the system, the key and the fix
     */
    public void set(long value) {
        if (CheckedMode.ENABLED) { // a static final: unchecked, the JIT drops the look-up
            keys.checkWrite(StoredKeys.Write.SUM_SET, value);
        }
        for (int i = STRIDE; i < slots.length; i += STRIDE) {
            slots[i] = 0;
        }
        base = value;
    }

    /** Sets the total to 0; checked as {@link #set} is. */
    public void reset() {
        set(0);
    }

    /** {@link Resources#put}: this sum is stored under {@code key}. */
    void storedUnder(ResourceKey<?> key) {
        keys.add(key);
    }

    /** Makes room for workers {@code 0 .. workers-1}, keeping the total; between runs (allocates only when it grows). */
    void prepare(int workers) {
        int need = (workers + 1) * STRIDE;
        if (slots.length < need) {
            long t = total();
            slots = new long[need];
            base = t;
        }
    }

    @Override
    public String toString() {
        return Long.toString(total());
    }
}
