package dev.orrery.engine;

import com.lmax.disruptor.BusySpinWaitStrategy;
import com.lmax.disruptor.EventPoller;
import com.lmax.disruptor.InsufficientCapacityException;
import com.lmax.disruptor.RingBuffer;
import com.lmax.disruptor.Sequence;
import java.io.UncheckedIOException;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.util.Objects;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.LongAdder;
import java.util.concurrent.locks.LockSupport;

/**
 * Carries external inputs from any thread to the tick loop through an LMAX Disruptor ring
 * buffer, stamps each with the tick that consumes it, and (optionally) hands the stamped
 * stream to an {@link InputRecorder} on a journal thread of its own.
 *
 * <pre>{@code
 * InputPipeline inputs = InputPipeline.builder()
 *         .ringSize(4096).maxPayloadBytes(64)
 *         .recorder(journal)                   // an InputRecorder; RunRecorder.start gives it a journal file
 *         .build();
 * // network threads:
 * boolean taken = inputs.tryPublish(clientId, MOVE, bytes, 0, 12);   // false: the ring is full, reply "busy"
 * // tick thread, each tick:
 * InputBatch batch = inputs.beginTick(tick);   // systems read batch during the tick
 * inputs.recordHash(tick, world.stateHash());  // every N ticks
 * // at shutdown, on the tick thread:
 * inputs.close();
 * }</pre>
 *
 * <p><b>Back-pressure policy.</b> The ring holds {@link Builder#ringSize} inputs that are
 * published but not yet drained (and, with a recorder, not yet journaled). When it is full:
 * {@link #tryPublish} returns {@code false} at once, and {@link #publish} waits up to its
 * timeout for room and then returns {@code false}. Either way the input is not taken, the
 * caller knows it (reply "busy" to the client, or retry) and {@link #rejectedCount()} counts
 * it. An input that was accepted is never dropped: it is drained by a later
 * {@link #beginTick} and, with a recorder, journaled. Inputs still in the ring when the
 * pipeline closes are not stamped or journaled; {@link #pendingCount()} says how many
 * (drain a last tick before closing to keep them). A slow recorder slows the tick thread
 * rather than losing data: when the marker queue to the journal thread is full,
 * {@code beginTick} and {@code recordHash} wait for it.
 *
 * <p><b>Ordering.</b> Inputs are drained in ring order, which keeps each producer's inputs
 * in the order it published them. A tick takes what had been published when it began (at
 * most {@link Builder#maxInputsPerTick}); an input published during the drain may wait for
 * the next tick. Stamped ticks therefore never decrease, and sequences within a tick run
 * 0, 1, 2, ...
 *
 * <p><b>Threading:</b> {@link #tryPublish} and {@link #publish} may be called from any
 * number of threads at once. {@link #beginTick}, {@link #recordHash}, {@link #tickSkipped}
 * and {@link #close} are for the one tick thread: the first thread to call {@code beginTick}
 * becomes it (or the thread that calls {@link #bindTickThread()}), and a call from another
 * thread fails an assertion; but once the tick thread has terminated, {@code close} may come
 * from any thread, and of several closes at once exactly one closes it while the others wait
 * for it (see there). The counters may be read from any thread (each a snapshot). The
 * journal thread is started by the builder and stopped by {@code close}; it alone calls the
 * recorder until {@code close} has joined it. What happens-before what:
 * <ul>
 *   <li>a producer's writes to its slot (client, type, payload) happen-before the
 *       {@code beginTick} that drains it: the ring's publish is a release, and the drain reads
 *       the slot only after an acquire read of the published sequence;
 *   <li>with a recorder, the tick thread's stamps happen-before the journal thread reads the
 *       slots: the tick's marker is published (a release) after the stamps, and the journal
 *       thread reads it with an acquire; without one, the drain's reads happen-before the slot
 *       is reused, through the drain sequence that gates producers;
 *   <li>with a recorder, the journal thread's copy of a slot happens-before a producer reuses
 *       it: the journaled sequence that gates producers is advanced (a release) after the copy;
 *   <li>{@code close} sets a volatile flag, read by each publish before it claims a slot: a
 *       publish that read it before the close is still accepted and counted in
 *       {@link #pendingCount()}, never stamped or journaled.
 * </ul>
 *
 * <p>(Over 500 lines on purpose: the producers' side, the tick thread's side and the builder
 * share one ring and one threading contract, kept together with its tags; the journal thread
 * sits in its own class.)
 */
public final class InputPipeline implements InputSource, AutoCloseable {
    private static final long PARK_NANOS = 50_000;
    private static final VarHandle TICK_THREAD;

    static {
        try {
            TICK_THREAD = MethodHandles.lookup().findVarHandle(InputPipeline.class, "tickThread", Thread.class);
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    private final RingBuffer<InputSlot> ring;
    private final EventPoller<InputSlot> poller;
    private final Sequence drained;
    private final int maxPayload;
    private final int maxPerTick;
    private final InputBatch batch = new InputBatch();
    private final Stamper stamper = new Stamper();
    private final LongAdder accepted = new LongAdder();
    private final LongAdder rejected = new LongAdder();
    private volatile boolean closed;
    /** The thread whose {@link #close()} closed it, named when a tick finds it closed; null while open. */
    private volatile Thread closer;

    /**
     * The tick thread; null until the first drain or bind. Volatile, and taken over from a
     * terminated thread by compare-and-set ({@link TickOwner#takeOverIfEnded(VarHandle, Object,
     * Thread, Thread)}): read only by assertions and {@link #close()}, off the ticks' hot path.
     */
    private volatile Thread tickThread;
    /**
     * Held by the one {@link #close()} that closes, from its check of {@link #closed} until the
     * recorder is closed: a second close waits here and then finds the pipeline closed.
     */
    private final Object closeLock = new Object();
    private long lastTick = Long.MIN_VALUE;
    private boolean anyTick;

    private final RecordingStage journal;

    private InputPipeline(Builder b) {
        this.maxPayload = b.maxPayloadBytes;
        this.maxPerTick = b.maxInputsPerTick;
        final int payload = b.maxPayloadBytes;
        // Nobody blocks on this ring's barrier (the tick thread polls), so the wait strategy
        // only matters for its publish-time signal, which busy-spin makes free.
        this.ring = RingBuffer.createMultiProducer(() -> new InputSlot(payload), b.ringSize,
                new BusySpinWaitStrategy());
        this.poller = ring.newPoller();
        this.drained = poller.getSequence();
        if (b.recorder == null) {
            ring.addGatingSequences(drained);
            this.journal = null;
        } else {
            this.journal = new RecordingStage(ring, b.recorder, b.markerQueueSize, b.threadName);
            ring.addGatingSequences(journal.journaled());
            journal.start();
        }
    }

    /**
     * A builder with the defaults: 4096 slots, 64-byte payloads, no recorder.
     *
     * @return a new builder; {@link Builder#build} makes the pipeline
     */
    public static Builder builder() {
        return new Builder();
    }

    // ---- producers: any thread -------------------------------------------------------

    /**
     * Publishes an input if the ring has room, without waiting.
     *
     * @param client  the client (connection, player) that sent it, as {@link InputBatch#client} gives it back
     * @param type    the command type, the producer's own numbering
     * @param payload the bytes of the command, copied into the ring before this returns; may be
     *     null when {@code length} is 0
     * @param offset  where the command starts in {@code payload}
     * @param length  how many bytes it has, at most {@link Builder#maxPayloadBytes}
     * @return {@code true} if the input was accepted; {@code false} if the ring was full or
     *     the pipeline closed (counted in {@link #rejectedCount()}; the caller decides what
     *     to tell the client)
     * @throws IllegalArgumentException if the payload is longer than the configured maximum
     * @throws IndexOutOfBoundsException if {@code offset} and {@code length} do not lie within {@code payload}
     * @throws NullPointerException if {@code payload} is null and {@code length} is not 0
     */
    public boolean tryPublish(int client, int type, byte[] payload, int offset, int length) {
        checkPayload(client, type, payload, offset, length);
        if (closed) {
            rejected.increment();
            return false;
        }
        long seq;
        try {
            seq = ring.tryNext();
        } catch (InsufficientCapacityException full) {
            rejected.increment();
            return false;
        }
        fill(seq, client, type, payload, offset, length);
        return true;
    }

    /**
     * Publishes an input, waiting up to {@code timeout} for room in the ring.
     *
     * @param client  the client (connection, player) that sent it, as {@link InputBatch#client} gives it back
     * @param type    the command type, the producer's own numbering
     * @param payload the bytes of the command, copied into the ring before this returns; may be
     *     null when {@code length} is 0
     * @param offset  where the command starts in {@code payload}
     * @param length  how many bytes it has, at most {@link Builder#maxPayloadBytes}
     * @param timeout how long to wait for room, in {@code unit}s; 0 or less: not at all
     * @param unit    the unit of {@code timeout}
     * @return {@code true} if the input was accepted; {@code false} if no room came in time
     *     or the pipeline closed (counted in {@link #rejectedCount()})
     * @throws InterruptedException if the thread is interrupted while waiting (the input
     *     is then not accepted, and counted as rejected)
     * @throws IllegalArgumentException if the payload is longer than the configured maximum
     * @throws IndexOutOfBoundsException if {@code offset} and {@code length} do not lie within {@code payload}
     * @throws NullPointerException if {@code payload} is null and {@code length} is not 0
     */
    public boolean publish(int client, int type, byte[] payload, int offset, int length, long timeout,
            TimeUnit unit) throws InterruptedException {
        checkPayload(client, type, payload, offset, length);
        long deadline = System.nanoTime() + unit.toNanos(timeout);
        while (true) {
            if (closed) {
                rejected.increment();
                return false;
            }
            try {
                long seq = ring.tryNext();
                fill(seq, client, type, payload, offset, length);
                return true;
            } catch (InsufficientCapacityException full) {
                long left = deadline - System.nanoTime();
                if (left <= 0) {
                    rejected.increment();
                    return false;
                }
                LockSupport.parkNanos(Math.min(left, PARK_NANOS));
                if (Thread.interrupted()) {
                    rejected.increment();
                    throw new InterruptedException("interrupted while waiting for room in the input ring "
                            + "(client " + client + ", type " + type + "); the input was not accepted");
                }
            }
        }
    }

    private void fill(long seq, int client, int type, byte[] payload, int offset, int length) {
        InputSlot slot = ring.get(seq);
        slot.client = client;
        slot.type = type;
        slot.length = length;
        if (length > 0) {
            System.arraycopy(payload, offset, slot.payload, 0, length);
        }
        slot.tick = Long.MIN_VALUE;
        slot.sequence = -1;
        ring.publish(seq);
        accepted.increment();
    }

    private void checkPayload(int client, int type, byte[] payload, int offset, int length) {
        if (length > maxPayload) {
            throw new IllegalArgumentException("input payload of " + length + " bytes from client " + client
                    + " (type " + type + ") exceeds the pipeline's maximum of " + maxPayload
                    + " bytes; raise InputPipeline.Builder.maxPayloadBytes or split the command");
        }
        // Checked here, before a slot is claimed: a claimed slot must always be published,
        // and a bad input must fail its producer, never the tick thread that drains it.
        if (payload == null) {
            if (length != 0) {
                throw new NullPointerException("input payload is null but its length is " + length
                        + " (client " + client + ", type " + type + "); pass length 0 for no payload");
            }
        } else {
            Objects.checkFromIndexSize(offset, length, payload.length);
        }
    }

    // ---- tick thread -----------------------------------------------------------------

    /**
     * Drains the inputs that have arrived, stamps them with {@code tick} and sequences
     * 0, 1, ..., and returns them as this pipeline's batch (the same object every tick,
     * refilled). With a recorder, also queues the tick's end for the journal.
     *
     * @throws IllegalStateException if {@code tick} is not greater than the previous one
     *     (naming the ticks already handed out and the inputs still queued: a simulation
     *     restored from an earlier snapshot needs a new pipeline), or the pipeline is closed
     *     (naming the tick, the thread that closed it and the fixes)
     * @throws UncheckedIOException if the journal thread has failed (the cause says why)
     */
    @Override
    public InputBatch beginTick(long tick) {
        assert isTickThread() : tickThreadMessage("beginTick");
        if (closed) {
            Thread by = closer;
            throw new IllegalStateException("tick " + tick + " reads its inputs from an input pipeline that was closed"
                    + (by != null ? " by thread '" + by.getName() + "'" : "") + " while the simulation still reads "
                    + "it; close a pipeline after the last tick that reads it (after the simulation's close, or once "
                    + "a WorldHost's world has left the host), or give the simulation a new one with "
                    + "Simulation.inputs(InputPipeline.builder().build())");
        }
        checkJournal();
        if (journal != null) {
            journal.awaitDurable(); // with a recorder that forces each flush: earlier ticks are on the device
        }
        if (anyTick && tick <= lastTick) {
            throw tickHandedOut(tick);
        }
        batch.reset(tick);
        stamper.tick = tick;
        try {
            poller.poll(stamper);
        } catch (Exception e) {
            throw new IllegalStateException("draining the input ring for tick " + tick + " failed", e);
        }
        lastTick = tick;
        anyTick = true;
        if (journal != null) {
            journal.tickEnded(tick, drained.get(), batch.size());
        }
        return batch;
    }

    /**
     * The refusal of {@code beginTick(tick)} after {@link #lastTick}: most often a simulation
     * restored from a snapshot of an earlier tick, given the pipeline its first run used. A
     * snapshot holds no inputs, so the ones handed to those ticks are not handed again.
     */
    private IllegalStateException tickHandedOut(long tick) {
        long pending = pendingCount();
        String took = tick == lastTick ? "tick " + tick + " already took its inputs"
                : "ticks " + tick + " to " + lastTick + " already took their inputs";
        return new IllegalStateException("beginTick(" + tick + ") after tick " + lastTick + ": ticks must increase. A "
                + "simulation restored from an earlier snapshot, or a replay, cannot reuse the pipeline of the run it "
                + "goes back over: " + took + " (a snapshot holds none), and " + pending + " published "
                + (pending == 1 ? "input is" : "inputs are") + " still queued here. Give it a new pipeline, "
                + "sim.inputs(InputPipeline.builder().build()), and publish again what its ticks must take, or replay "
                + "the recording with RunReplayer");
    }

    /**
     * Queues the state hash after {@code tick} for the journal, so replay can check it.
     * Does nothing without a recorder.
     *
     * @throws IllegalStateException if {@code tick} is not the tick last begun
     */
    @Override
    public void recordHash(long tick, long stateHash) {
        assert isTickThread() : tickThreadMessage("recordHash");
        checkOpen("recordHash");
        if (!anyTick || tick != lastTick) {
            throw new IllegalStateException("recordHash(" + tick + ") but the last tick begun is "
                    + (anyTick ? lastTick : "none") + "; record a tick's hash after its beginTick and before the next");
        }
        if (journal != null) {
            checkJournal();
            journal.tickHash(tick, stateHash);
        }
    }

    /**
     * Queues the note that {@code tick} (the tick last begun) was skipped because
     * {@code system} threw on its chunk {@code chunk}, for the journal. Does nothing without a
     * recorder.
     *
     * @throws IllegalStateException if {@code tick} is not the tick last begun
     */
    @Override
    public void tickSkipped(long tick, String system, int chunk) {
        assert isTickThread() : tickThreadMessage("tickSkipped");
        checkOpen("tickSkipped");
        if (!anyTick || tick != lastTick) {
            throw new IllegalStateException("tickSkipped(" + tick + ") but the last tick begun is "
                    + (anyTick ? lastTick : "none") + "; report a skipped tick after its beginTick and before the "
                    + "next");
        }
        if (journal != null) {
            checkJournal();
            journal.tickSkipped(tick, system, chunk);
        }
    }

    /**
     * Stops the pipeline: later publishes are rejected; with a recorder, waits for the
     * journal thread to write everything queued, closes the recorder and stops the thread.
     * Idempotent.
     *
     * <p><b>Threading:</b> the tick thread (the last to drain it), or any thread once that
     * one has terminated: {@code sim.stop(); loop.join(); inputs.close(); sim.close();} works
     * in either order of the two closes, with no {@code bindTickThread()}. A terminated tick
     * thread's last drain happens-before the {@code isAlive()} that sees it ended (JLS
     * 17.4.4), so the calling thread becomes the tick thread here, as {@link #bindTickThread()}
     * would make it (by compare-and-set: the simulation's own take-over rule). A tick thread
     * that is alive, however idle (a pool's thread), may drain again: a close from another
     * thread of a pipeline still open then fails an assertion (with {@code -ea}) naming both;
     * call {@code bindTickThread()} on this pipeline first, once that thread has stopped.
     *
     * <p><b>Closes at once</b> (two threads closing after the tick thread ended, say): exactly
     * one close does the work, the first to take the pipeline's close lock; each other close
     * waits until that one has finished (the recorder closed, or abandoned after a failure)
     * and then returns without doing anything, and without throwing that close's failure,
     * which the first reports. A close on a pipeline already closed returns at once, from any
     * thread, and so does the recorder's own close of this pipeline from the journal thread
     * (inside the close that is waiting for that thread); a recorder's close of it from a record
     * or flush call, on the journal thread, is refused (it would wait for itself), which fails the
     * journal. The lock's release and acquire make everything the closing call did (the journal
     * thread's last writes, the recorder's close) happen-before every other close returns.
     *
     * @throws UncheckedIOException if the journal thread failed (then the journal is
     *     incomplete; the cause says why); only from the close that closed it
     */
    @Override
    public void close() {
        if (journal != null && journal.onJournalThread()) {
            if (closed) {
                // The recorder closing its own pipeline from its close(): the close under way waits for
                // this thread, so waiting for it here would never end. It returns at once, as it did.
                return;
            }
            // From a record or flush call: closing the journal here would wait for this very thread.
            throw new IllegalStateException("the input pipeline's recorder called close() on its pipeline from the "
                    + "journal thread (in a record or flush call), which would wait for itself; close the pipeline "
                    + "from the tick thread after its last tick, or from the recorder's own close()");
        }
        synchronized (closeLock) {
            if (closed) {
                return; // closed by an earlier close, on this thread or another, which did the work
            }
            Thread me = Thread.currentThread();
            // Not inside the assert below: the take-over happens with or without -ea.
            TickOwner.takeOverIfEnded(TICK_THREAD, this, tickThread, me);
            assert isTickThread() : tickThreadMessage("close") + ": close "
                    + "it there after its last tick (after run() returns, or once the simulation left its WorldHost), "
                    + "or stop that thread's ticks and join() it before closing here (a tick thread that has "
                    + "terminated hands the pipeline over), or, for a thread that lives on (a pool's), call this "
                    + "pipeline's bindTickThread() on this thread once that one has stopped ticking";
            closer = me;
            closed = true;
            if (journal != null) {
                journal.close();
            }
        }
    }

    /**
     * Makes the calling thread the tick thread from now on (the first {@link #beginTick}
     * binds it otherwise). The old tick thread must have made its last call before, with a
     * happens-before edge to this call (a {@code Thread.join}, a {@code BlockingQueue}
     * hand-off, a volatile write and read): the batch and the drain position are plain fields.
     */
    @Override
    public void bindTickThread() {
        tickThread = Thread.currentThread();
    }

    /**
     * Whether {@link #close()} has been called.
     *
     * @return true once {@code close} has been called (from then on every publish is rejected)
     */
    public boolean isClosed() {
        return closed;
    }

    /**
     * Inputs accepted so far (any thread; exact once producers are quiet).
     *
     * @return the inputs accepted since the pipeline was built, 0 or more
     */
    public long acceptedCount() {
        return accepted.sum();
    }

    /**
     * Inputs refused because the ring was full, a wait timed out, or the pipeline closed.
     *
     * @return the publishes that returned {@code false} (or were interrupted), 0 or more
     */
    public long rejectedCount() {
        return rejected.sum();
    }

    /**
     * Inputs handed to ticks so far.
     *
     * @return the inputs {@code beginTick} has put into batches, 0 or more, at most
     *     {@link #acceptedCount()}
     */
    public long drainedCount() {
        return drained.get() + 1;
    }

    /**
     * Inputs accepted but not yet drained by a tick.
     *
     * @return the inputs in the ring waiting for a tick, 0 to {@link #ringSize()}; after
     *     {@code close}, those that will never be stamped or journaled
     */
    public long pendingCount() {
        return ring.getCursor() - drained.get();
    }

    /**
     * The ring's capacity in inputs.
     *
     * @return the capacity set by {@link Builder#ringSize}, a power of two
     */
    public int ringSize() {
        return ring.getBufferSize();
    }

    private void checkOpen(String what) {
        if (closed) {
            throw new IllegalStateException(what + " on a closed input pipeline; build a new one");
        }
    }

    private void checkJournal() {
        if (journal != null) {
            journal.checkFailure();
        }
    }

    private boolean isTickThread() {
        Thread current = Thread.currentThread();
        if (tickThread == null) {
            tickThread = current;
        }
        return tickThread == current;
    }

    private String tickThreadMessage(String what) {
        return what + " called from thread '" + Thread.currentThread().getName() + "' but the tick thread is '"
                + tickThread.getName() + "'; only the tick thread may drain and close the input pipeline";
    }

    /** Stamps and copies each drained slot into the batch; runs on the tick thread. */
    private final class Stamper implements EventPoller.Handler<InputSlot> {
        long tick;

        @Override
        public boolean onEvent(InputSlot slot, long sequence, boolean endOfBatch) {
            slot.tick = tick;
            slot.sequence = batch.add(slot.client, slot.type, slot.payload, 0, slot.length);
            return batch.size() < maxPerTick;
        }
    }

    /**
     * Settings for an {@link InputPipeline}.
     *
     * <p><b>Threading:</b> a builder is used by one thread.
     */
    public static final class Builder {
        private int ringSize = 4096;
        private int maxPayloadBytes = 64;
        private int maxInputsPerTick = Integer.MAX_VALUE;
        private int markerQueueSize = 1024;
        private InputRecorder recorder;
        private String threadName = "orrery-input-journal";

        private Builder() {
        }

        /**
         * Ring capacity in inputs, a power of two (default 4096).
         *
         * @param ringSize the capacity, a power of two, 1 or more; the memory taken is this times
         *     the payload size
         * @return this builder
         * @throws IllegalArgumentException naming the value when it is not a power of two
         */
        public Builder ringSize(int ringSize) {
            this.ringSize = powerOfTwo("ringSize", ringSize);
            return this;
        }

        /**
         * Largest payload an input may carry, 0..65536 bytes (default 64).
         *
         * @param bytes the limit, 0 to 65536; each slot of the ring holds this many bytes
         * @return this builder
         * @throws IllegalArgumentException naming the value when it is out of range
         */
        public Builder maxPayloadBytes(int bytes) {
            if (bytes < 0 || bytes > 65536) {
                throw new IllegalArgumentException("maxPayloadBytes " + bytes + " out of range 0..65536");
            }
            this.maxPayloadBytes = bytes;
            return this;
        }

        /**
         * Most inputs one tick takes (default unlimited); the rest wait for later ticks,
         * in order. Bounds the work a burst can add to one tick.
         *
         * @param max the limit per tick, 1 or more
         * @return this builder
         * @throws IllegalArgumentException naming the value when it is below 1
         */
        public Builder maxInputsPerTick(int max) {
            if (max < 1) {
                throw new IllegalArgumentException("maxInputsPerTick must be at least 1, got " + max);
            }
            this.maxInputsPerTick = max;
            return this;
        }

        /**
         * Capacity of the tick-marker queue to the journal thread, a power of two (default 1024).
         *
         * @param size the queue's capacity in tick markers, a power of two; when it is full the
         *     tick thread waits for the journal thread
         * @return this builder
         * @throws IllegalArgumentException naming the value when it is not a power of two
         */
        public Builder markerQueueSize(int size) {
            this.markerQueueSize = powerOfTwo("markerQueueSize", size);
            return this;
        }

        /**
         * Where stamped inputs go, on a journal thread of the pipeline's own (default none).
         *
         * @param recorder the journal, or {@code null} for none; the pipeline's journal thread
         *     alone calls it, and {@code close} closes it
         * @return this builder
         */
        public Builder recorder(InputRecorder recorder) {
            this.recorder = recorder;
            return this;
        }

        /**
         * The journal thread's name (default {@code orrery-input-journal}).
         *
         * @param name the thread's name, not null; unused without a recorder
         * @return this builder
         * @throws NullPointerException if {@code name} is null
         */
        public Builder journalThreadName(String name) {
            this.threadName = Objects.requireNonNull(name, "name");
            return this;
        }

        /**
         * Builds the pipeline and, with a recorder, starts its journal thread.
         *
         * @return a new open pipeline; close it on the tick thread when done
         */
        public InputPipeline build() {
            return new InputPipeline(this);
        }

        private static int powerOfTwo(String what, int n) {
            if (n < 1 || Integer.bitCount(n) != 1) {
                throw new IllegalArgumentException(what + " must be a power of two, got " + n);
            }
            return n;
        }
    }
}
