package dev.orrery.engine;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.orrery.engine.journal.JournalReader;
import dev.orrery.engine.journal.JournalTick;
import dev.orrery.engine.journal.JournalWriter;
import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import java.util.concurrent.atomic.LongAdder;
import java.util.concurrent.locks.LockSupport;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * Several producer threads against one tick thread and the journal thread: every input
 * arrives exactly once, each producer's inputs in its own order, ticks never decrease, and
 * the journal holds exactly what the ticks saw.
 */
class InputPipelineConcurrencyTest {
    private static final int PRODUCERS = 4;
    private static final int PER_PRODUCER = 5_000;
    private static final int CLIENT = 0;

    @TempDir
    Path dir;

    @Test
    @Timeout(60) // a hang guard only; nothing here measures time
    void shouldDeliverEveryInputOnceInProducerOrderWithBlockingPublish() throws Exception {
        run(false);
    }

    @Test
    @Timeout(60)
    void shouldCountEveryRejectionWhenProducersRetryTryPublish() throws Exception {
        run(true);
    }

    private void run(boolean retryTryPublish) throws Exception {
        Path journal = dir.resolve("concurrent.journal");
        InputPipeline pipeline = InputPipeline.builder()
                .ringSize(64) // small, so producers meet a full ring often
                .maxPayloadBytes(8)
                .recorder(JournalWriter.create(journal))
                .build();
        LongAdder ownRejections = new LongAdder();
        AtomicReference<Throwable> producerFailure = new AtomicReference<>();
        CountDownLatch start = new CountDownLatch(1);
        List<Thread> producers = new ArrayList<>();
        for (int p = 0; p < PRODUCERS; p++) {
            final int producer = p;
            Thread t = new Thread(() -> {
                ByteBuffer buf = ByteBuffer.allocate(8);
                try {
                    start.await();
                    for (int i = 0; i < PER_PRODUCER; i++) {
                        buf.clear();
                        buf.putInt(producer).putInt(i);
                        if (retryTryPublish) {
                            while (!pipeline.tryPublish(CLIENT + producer, 1, buf.array(), 0, 8)) {
                                ownRejections.increment();
                                Thread.yield();
                            }
                        } else if (!pipeline.publish(CLIENT + producer, 1, buf.array(), 0, 8, 30, TimeUnit.SECONDS)) {
                            throw new AssertionError("producer " + producer + " input " + i + " timed out");
                        }
                    }
                } catch (Throwable e) {
                    producerFailure.compareAndSet(null, e);
                }
            }, "producer-" + p);
            t.start();
            producers.add(t);
        }

        int total = PRODUCERS * PER_PRODUCER;
        int[] nextIndex = new int[PRODUCERS];
        List<InputBatch> seen = new ArrayList<>();
        long tick = 0;
        long received = 0;
        start.countDown();
        while (received < total) {
            InputBatch batch = pipeline.beginTick(tick);
            assertEquals(tick, batch.tick());
            for (int i = 0; i < batch.size(); i++) {
                int producer = batch.payloadInt(i, 0);
                int index = batch.payloadInt(i, 4);
                assertEquals(CLIENT + producer, batch.client(i));
                assertEquals(nextIndex[producer], index,
                        "producer " + producer + "'s inputs out of order or duplicated at tick " + tick);
                nextIndex[producer]++;
            }
            received += batch.size();
            if (tick % 10 == 0) {
                pipeline.recordHash(tick, tick * 0x9E37_79B9L);
            }
            seen.add(batch.copy());
            if (batch.isEmpty()) {
                if (producerFailure.get() != null) {
                    break;
                }
                LockSupport.parkNanos(100_000); // idle like a tick loop ahead of time
            }
            tick++;
        }
        for (Thread t : producers) {
            t.join();
        }
        if (producerFailure.get() != null) {
            throw new AssertionError("a producer failed", producerFailure.get());
        }
        pipeline.close();

        for (int p = 0; p < PRODUCERS; p++) {
            assertEquals(PER_PRODUCER, nextIndex[p], "inputs of producer " + p);
        }
        assertEquals(total, pipeline.acceptedCount());
        assertEquals(total, pipeline.drainedCount());
        assertEquals(0, pipeline.pendingCount());
        assertEquals(ownRejections.sum(), pipeline.rejectedCount(), "every refusal is counted, no more");
        if (!retryTryPublish) {
            assertEquals(0, pipeline.rejectedCount());
        }

        // The journal holds exactly the ticks the tick thread saw, in order, with the hashes.
        try (JournalReader reader = JournalReader.open(journal)) {
            JournalTick t = new JournalTick();
            int i = 0;
            while (reader.nextTick(t)) {
                assertTrue(i < seen.size(), "journal has more ticks than were run");
                InputBatch live = seen.get(i);
                assertTrue(live.sameContentAs(t.inputs()), "tick " + live.tick() + " differs in the journal");
                assertEquals(live.tick() % 10 == 0, t.hasHash(), "hash presence at tick " + live.tick());
                if (t.hasHash()) {
                    assertEquals(live.tick() * 0x9E37_79B9L, t.stateHash());
                }
                i++;
            }
            assertEquals(seen.size(), i, "ticks in the journal");
            assertFalse(reader.nextTick(t));
        }
    }
}
