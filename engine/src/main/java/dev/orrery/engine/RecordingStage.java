package dev.orrery.engine;

import com.lmax.disruptor.BatchEventProcessor;
import com.lmax.disruptor.BatchEventProcessorBuilder;
import com.lmax.disruptor.BlockingWaitStrategy;
import com.lmax.disruptor.EventHandler;
import com.lmax.disruptor.ExceptionHandler;
import com.lmax.disruptor.InsufficientCapacityException;
import com.lmax.disruptor.RingBuffer;
import com.lmax.disruptor.Sequence;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.concurrent.locks.LockSupport;

/**
 * The journal side of an {@link InputPipeline}: a single-producer ring of
 * {@link RecordingMarker}s from the tick thread, and the journal thread that consumes it,
 * writing each ended tick's stamped input slots to the {@link InputRecorder} before
 * releasing them to producers through {@link #journaled()}.
 *
 * <p>It lives with the pipeline, not in the journal package: it reads the pipeline's ring
 * slots and knows nothing of the file format (it talks to any {@link InputRecorder}), and
 * the journal package depends on this one, so the reverse dependency would make a cycle.
 *
 * <p><b>Threading:</b> {@link #tickEnded}, {@link #tickSkipped}, {@link #tickHash},
 * {@link #awaitDurable} and {@link #close} are called by the tick thread (the marker ring has
 * a single producer); {@link #onEvent} runs on the journal thread, which alone calls the
 * recorder until {@code close} has joined it (then the tick thread may abandon it).
 * {@link #checkFailure} may be called from either. Hand-offs: a marker's fields, and the
 * input stamps written before it, happen-before the journal thread reads them (the ring's
 * publish is a release, the processor's read of the cursor an acquire); the journal thread's
 * copy of the input slots happens-before producers reuse them ({@link #journaled()} is
 * advanced with a release store after the copy), and its flush happens-before
 * {@code awaitDurable} returns (the {@code flushed} sequence, likewise); a failure is a
 * volatile field, written before the journal thread halts.
 */
final class RecordingStage implements EventHandler<RecordingMarker>, ExceptionHandler<RecordingMarker> {
    private static final long PARK_NANOS = 50_000;

    private final RingBuffer<InputSlot> inputs;
    private final InputRecorder recorder;
    private final String recorderName;
    private final Sequence journaled = new Sequence();
    private final RingBuffer<RecordingMarker> markers;
    private final BatchEventProcessor<RecordingMarker> processor;
    private final Thread thread;
    private volatile Throwable failure;
    /** Marker sequence up to which the recorder has flushed (journal thread writes, tick thread reads). */
    private final Sequence flushed = new Sequence();
    /** The last marker sequence published (tick thread only). */
    private long lastPublished = -1;
    private final boolean durableEachFlush;

    RecordingStage(RingBuffer<InputSlot> inputs, InputRecorder recorder, int markerQueueSize, String threadName) {
        this.inputs = inputs;
        this.recorder = recorder;
        this.recorderName = recorder.toString();
        this.markers = RingBuffer.createSingleProducer(RecordingMarker::new, markerQueueSize,
                new BlockingWaitStrategy());
        this.processor = new BatchEventProcessorBuilder().build(markers, markers.newBarrier(), this);
        this.processor.setExceptionHandler(this);
        markers.addGatingSequences(processor.getSequence());
        this.thread = new Thread(processor, threadName);
        this.thread.setDaemon(true);
        this.durableEachFlush = recorder.durableEachFlush();
    }

    /** The input ring sequence up to which slots are journaled and may be reused. */
    Sequence journaled() {
        return journaled;
    }

    void start() {
        thread.start();
    }

    /** Whether the calling thread is the journal thread (a recorder's call back into the pipeline). */
    boolean onJournalThread() {
        return Thread.currentThread() == thread;
    }

    // ---- tick thread -----------------------------------------------------------------

    /** Queues "tick {@code tick} ended after input ring sequence {@code lastInput}". */
    void tickEnded(long tick, long lastInput, int inputCount) {
        long seq = claim();
        RecordingMarker m = markers.get(seq);
        m.kind = RecordingMarker.TICK_END;
        m.tick = tick;
        m.lastInput = lastInput;
        m.inputCount = inputCount;
        publish(seq); // release: the tick thread's stamps happen-before the journal's reads
    }

    /** Queues "tick {@code tick} was skipped because {@code system} threw on chunk {@code chunk}". */
    void tickSkipped(long tick, String system, int chunk) {
        long seq = claim();
        RecordingMarker m = markers.get(seq);
        m.kind = RecordingMarker.TICK_SKIPPED;
        m.tick = tick;
        m.system = system;
        m.inputCount = chunk;
        publish(seq);
    }

    /**
     * With a recorder whose every flush is durable: waits until everything queued so far is
     * flushed, so a crash loses at most the tick about to begin. Does nothing otherwise.
     */
    void awaitDurable() {
        if (!durableEachFlush) {
            return;
        }
        while (flushed.get() < lastPublished) {
            checkFailure();
            LockSupport.parkNanos(PARK_NANOS / 10);
        }
    }

    private void publish(long seq) {
        lastPublished = seq;
        markers.publish(seq);
    }

    /** Queues the state hash after {@code tick}. */
    void tickHash(long tick, long hash) {
        long seq = claim();
        RecordingMarker m = markers.get(seq);
        m.kind = RecordingMarker.TICK_HASH;
        m.tick = tick;
        m.hash = hash;
        publish(seq);
    }

    /**
     * Queues the close, waits for the journal thread to reach it and stops the thread; after
     * a failure, abandons the recorder instead so the journal is not marked complete.
     */
    void close() {
        if (failure == null) {
            long seq = claim();
            markers.get(seq).kind = RecordingMarker.CLOSE;
            markers.publish(seq);
            while (processor.getSequence().get() < seq && failure == null) {
                LockSupport.parkNanos(PARK_NANOS);
            }
        }
        processor.halt();
        try {
            thread.join();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        Throwable f = failure;
        if (f != null) {
            // The journal thread has ended (joined above), so this thread may use the recorder.
            try {
                recorder.abandon();
            } catch (IOException | RuntimeException e) {
                f.addSuppressed(e);
            }
        }
        checkFailure();
    }

    /** Throws if the journal thread has failed: the journal is incomplete from then on. */
    void checkFailure() {
        Throwable f = failure;
        if (f != null) {
            IOException io = f instanceof IOException ? (IOException) f : new IOException(f.toString(), f);
            throw new UncheckedIOException("the input journal (" + recorderName + ") failed and stopped "
                    + "recording; the journal is incomplete. Fix the cause and start a new recording", io);
        }
    }

    private long claim() {
        while (true) {
            try {
                return markers.tryNext();
            } catch (InsufficientCapacityException full) {
                // a slow journal slows the tick thread; a failed one stops it
                checkFailure();
                LockSupport.parkNanos(PARK_NANOS);
            }
        }
    }

    // ---- journal thread --------------------------------------------------------------

    @Override
    public void onEvent(RecordingMarker m, long sequence, boolean endOfBatch) throws Exception {
        if (failure != null) {
            return;
        }
        InputRecorder r = recorder;
        switch (m.kind) {
            case RecordingMarker.TICK_END -> {
                for (long s = journaled.get() + 1; s <= m.lastInput; s++) {
                    InputSlot slot = inputs.get(s);
                    assert slot.tick == m.tick : "slot " + s + " stamped " + slot.tick + ", marker " + m.tick;
                    r.recordInput(slot.tick, slot.sequence, slot.client, slot.type, slot.payload, 0, slot.length);
                }
                journaled.set(m.lastInput); // the slots are copied: producers may reuse them
                r.recordTickEnd(m.tick, m.inputCount);
            }
            case RecordingMarker.TICK_HASH -> r.recordTickHash(m.tick, m.hash);
            case RecordingMarker.TICK_SKIPPED -> r.recordTickSkipped(m.tick, m.system, m.inputCount);
            case RecordingMarker.CLOSE -> {
                r.close();
                return;
            }
            default -> throw new IllegalStateException("unknown journal marker kind " + m.kind);
        }
        if (endOfBatch) {
            r.flush();
            flushed.set(sequence);
        }
    }

    @Override
    public void handleEventException(Throwable ex, long sequence, RecordingMarker event) {
        // Stop the stage: carrying on would leave a hole in the journal. onEvent skips the
        // rest of the current batch; halt ends the processor's loop after it.
        failure = ex;
        processor.halt();
    }

    @Override
    public void handleOnStartException(Throwable ex) {
        failure = ex;
    }

    @Override
    public void handleOnShutdownException(Throwable ex) {
        failure = ex;
    }
}
