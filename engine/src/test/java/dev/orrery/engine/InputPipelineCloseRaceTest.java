package dev.orrery.engine;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.concurrent.CountDownLatch;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Two threads close one pipeline at once after its tick thread has terminated (a shutdown
 * hook and the main thread, say, both closing after the loop ended). The close took the
 * pipeline over from the ended thread with a plain write and then checked a plain
 * {@code closed} flag: both closers could take it over, both pass the check and close the
 * journal twice, or the second found the first the (live) tick thread and failed the
 * tick-thread assertion, or returned while the first was still closing the recorder. Now
 * exactly one closes; the other waits for that close to finish and then returns, doing
 * nothing.
 *
 * <p>No waits on time: the threads meet at a barrier or a latch, and the test waits for the
 * second closer to block (its {@link Thread#getState()}), not for a period.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS) // a hang guard only
class InputPipelineCloseRaceTest {
    /** Counts the recorder's closes; its close may wait for a latch, to hold the first closer inside. */
    static final class CountingRecorder implements InputRecorder {
        final AtomicInteger closes = new AtomicInteger();
        final CountDownLatch inClose = new CountDownLatch(1);
        volatile CountDownLatch release;
        /** When set, the recorder's close closes this pipeline too (its own, from the journal thread). */
        volatile InputPipeline closesToo;
        /** When set, the recorder's record of a tick's end closes this pipeline (its own, from the journal thread). */
        volatile InputPipeline closesAtTickEnd;
        final CountDownLatch tickEndRecorded = new CountDownLatch(1);

        @Override
        public void recordInput(long tick, int sequence, int client, int type, byte[] payload, int offset,
                int length) {
        }

        @Override
        public void recordTickEnd(long tick, int inputCount) {
            InputPipeline p = closesAtTickEnd;
            try {
                if (p != null) {
                    p.close();
                }
            } finally {
                tickEndRecorded.countDown();
            }
        }

        @Override
        public void recordTickHash(long tick, long stateHash) {
        }

        @Override
        public void flush() {
        }

        @Override
        public void close() {
            closes.incrementAndGet();
            InputPipeline p = closesToo;
            if (p != null) {
                p.close();
            }
            inClose.countDown();
            CountDownLatch r = release;
            if (r != null) {
                Latches.await(r);
            }
        }
    }

    /** A pipeline whose tick thread drained one tick and terminated (joined). */
    private static InputPipeline drainedByAnEndedThread(CountingRecorder recorder) throws InterruptedException {
        InputPipeline pipeline = InputPipeline.builder().ringSize(8).recorder(recorder).build();
        AtomicReference<Throwable> threw = new AtomicReference<>();
        Thread loop = new Thread(() -> {
            try {
                pipeline.beginTick(0);
            } catch (Throwable t) {
                threw.set(t);
            }
        }, "game-loop");
        loop.start();
        loop.join();
        assertNull(threw.get(), "the loop drained a tick");
        return pipeline;
    }

    /** Runs {@code close} on a new thread; the thread records what it threw and the closes it saw on return. */
    private static Thread closer(String name, InputPipeline pipeline, CountingRecorder recorder,
            CyclicBarrier start, AtomicReference<Throwable> threw, AtomicInteger closesSeen) {
        Thread t = new Thread(() -> {
            try {
                if (start != null) {
                    start.await();
                }
                pipeline.close();
                closesSeen.set(recorder.closes.get());
            } catch (Throwable e) {
                threw.set(e);
            }
        }, name);
        t.start();
        return t;
    }

    @Test
    void twoClosesRacingAfterTheTickThreadEndedCloseTheRecorderOnceAndBothReturnAfterIt() throws Exception {
        for (int round = 0; round < 300; round++) {
            CountingRecorder recorder = new CountingRecorder();
            InputPipeline pipeline = drainedByAnEndedThread(recorder);
            CyclicBarrier start = new CyclicBarrier(2);
            AtomicReference<Throwable> threwA = new AtomicReference<>();
            AtomicReference<Throwable> threwB = new AtomicReference<>();
            AtomicInteger seenA = new AtomicInteger(-1);
            AtomicInteger seenB = new AtomicInteger(-1);
            Thread a = closer("closer-a", pipeline, recorder, start, threwA, seenA);
            Thread b = closer("closer-b", pipeline, recorder, start, threwB, seenB);
            a.join();
            b.join();
            assertNull(threwA.get(), "round " + round + ": closer-a's close threw " + threwA.get());
            assertNull(threwB.get(), "round " + round + ": closer-b's close threw " + threwB.get());
            assertEquals(1, recorder.closes.get(), "round " + round + ": the recorder closed exactly once");
            assertEquals(1, seenA.get(), "round " + round + ": closer-a returned after the recorder's close");
            assertEquals(1, seenB.get(), "round " + round + ": closer-b returned after the recorder's close");
            assertTrue(pipeline.isClosed());
        }
    }

    @Test
    void aSecondCloseWhileTheFirstIsClosingTheRecorderWaitsForItAndDoesNothing() throws Exception {
        CountingRecorder recorder = new CountingRecorder();
        recorder.release = new CountDownLatch(1);
        InputPipeline pipeline = drainedByAnEndedThread(recorder);
        AtomicReference<Throwable> threwA = new AtomicReference<>();
        AtomicReference<Throwable> threwB = new AtomicReference<>();
        AtomicInteger seenA = new AtomicInteger(-1);
        AtomicInteger seenB = new AtomicInteger(-1);
        Thread a = closer("closer-a", pipeline, recorder, null, threwA, seenA);
        Latches.await(recorder.inClose); // closer-a took the pipeline over and is inside the recorder's close
        Thread b = closer("closer-b", pipeline, recorder, null, threwB, seenB);
        Thread.State s;
        while ((s = b.getState()) != Thread.State.BLOCKED && s != Thread.State.WAITING
                && s != Thread.State.TIMED_WAITING && s != Thread.State.TERMINATED) {
            Thread.onSpinWait();
        }
        // Was: closer-b found closer-a the tick thread, alive, and failed the assertion (with -ea).
        assertNull(threwB.get(), "the second close waits for the first, it is not refused: " + threwB.get());
        assertFalse(s == Thread.State.TERMINATED, "closer-b returned while closer-a was still closing the recorder");
        recorder.release.countDown();
        a.join();
        b.join();
        assertNull(threwA.get(), "closer-a's close threw " + threwA.get());
        assertNull(threwB.get(), "closer-b's close threw " + threwB.get());
        assertEquals(1, recorder.closes.get(), "the recorder closed exactly once");
        assertEquals(1, seenB.get(), "closer-b returned after the recorder's close");
    }

    @Test
    // The failure this guards against is a deadlock: on a thread of its own, so that it fails the
    // test instead of hanging the build (the same thread's time-out waits for the method to return).
    @Timeout(value = 20, unit = TimeUnit.SECONDS, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
    void aRecorderThatClosesItsOwnPipelineFromItsCloseDoesNotWaitForTheCloseItIsIn() throws Exception {
        CountingRecorder recorder = new CountingRecorder();
        InputPipeline pipeline = InputPipeline.builder().ringSize(8).recorder(recorder).build();
        recorder.closesToo = pipeline;
        pipeline.beginTick(0);
        pipeline.close(); // the journal thread's close of the pipeline returns at once: the close is under way
        assertEquals(1, recorder.closes.get(), "the recorder closed once");
        assertTrue(pipeline.isClosed());
    }

    @Test
    // Without the refusal, and without -ea, the journal thread's close waited for itself and the
    // tick thread's close then waited for ever on the close lock: on a thread of its own, so that
    // a hang fails the test instead of the build.
    @Timeout(value = 20, unit = TimeUnit.SECONDS, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
    void aRecorderThatClosesItsPipelineFromARecordCallFailsTheJournalNamingTheFix() {
        CountingRecorder recorder = new CountingRecorder();
        InputPipeline pipeline = InputPipeline.builder().ringSize(8).recorder(recorder).build();
        recorder.closesAtTickEnd = pipeline;
        pipeline.beginTick(0);
        java.io.UncheckedIOException e;
        try {
            pipeline.beginTick(1); // tick 0 ended: the journal thread records it, and the recorder closes the pipeline
            Latches.await(recorder.tickEndRecorded); // before the tick thread's close below, which would take the other path
            e = assertThrows(java.io.UncheckedIOException.class, pipeline::close);
        } catch (java.io.UncheckedIOException early) { // the journal failed before beginTick(1) returned: it says so
            e = early;
            Latches.await(recorder.tickEndRecorded);
            try {
                pipeline.close();
            } catch (java.io.UncheckedIOException again) {
                // the same failure, reported by the close that closes it
            }
        }
        Throwable cause = e.getCause();
        while (cause != null && !(cause instanceof IllegalStateException)) {
            cause = cause.getCause();
        }
        assertNotNull(cause, "the journal's failure names the recorder's close: " + e);
        assertTrue(cause.getMessage().contains("from the journal thread") && cause.getMessage().contains(
                "close the pipeline from the tick thread"), cause.getMessage());
        assertTrue(pipeline.isClosed());
        assertEquals(0, recorder.closes.get(), "the failed recorder is abandoned, not closed (not marked complete)");
    }
}
