package dev.orrery.engine;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

class InputPipelineTest {
    private static byte[] ints(int... values) {
        ByteBuffer b = ByteBuffer.allocate(values.length * 4);
        for (int v : values) {
            b.putInt(v);
        }
        return b.array();
    }

    @Test
    void shouldStampDrainedInputsWithTheTickAndASequence() {
        try (InputPipeline p = InputPipeline.builder().ringSize(16).build()) {
            assertTrue(p.tryPublish(1, 10, ints(100), 0, 4));
            assertTrue(p.tryPublish(2, 20, ints(200, 201), 0, 8));
            InputBatch b = p.beginTick(5);
            assertEquals(5, b.tick());
            assertEquals(2, b.size());
            assertEquals(1, b.client(0));
            assertEquals(10, b.type(0));
            assertEquals(100, b.payloadInt(0, 0));
            assertEquals(2, b.client(1));
            assertEquals(201, b.payloadInt(1, 4));
            assertEquals(8, b.payloadLength(1));
            assertThrows(IndexOutOfBoundsException.class, () -> b.payloadInt(0, 4));
            assertThrows(IndexOutOfBoundsException.class, () -> b.client(2));

            assertTrue(p.tryPublish(3, 30, null, 0, 0));
            InputBatch next = p.beginTick(6);
            assertSame(b, next, "the batch is reused tick after tick");
            assertEquals(1, next.size());
            assertEquals(3, next.client(0));
            assertEquals(0, next.payloadLength(0));
            assertTrue(p.beginTick(7).isEmpty());
            assertEquals(3, p.acceptedCount());
            assertEquals(3, p.drainedCount());
            assertEquals(0, p.pendingCount());
        }
    }

    @Test
    void shouldRejectWithoutWaitingWhenTheRingIsFullAndCountIt() {
        try (InputPipeline p = InputPipeline.builder().ringSize(4).build()) {
            for (int i = 0; i < 4; i++) {
                assertTrue(p.tryPublish(i, 0, ints(i), 0, 4), "input " + i);
            }
            assertFalse(p.tryPublish(9, 0, ints(9), 0, 4), "fifth input into a ring of four");
            assertEquals(1, p.rejectedCount());
            assertEquals(4, p.pendingCount());
            assertEquals(4, p.beginTick(0).size());
            assertTrue(p.tryPublish(9, 0, ints(9), 0, 4), "room again after a drain");
            InputBatch b = p.beginTick(1);
            assertEquals(1, b.size());
            assertEquals(9, b.client(0));
            assertEquals(1, p.rejectedCount());
        }
    }

    @Test
    void shouldRefuseAPayloadRangeOutsideItsArrayAsAnIndexAndANullPayloadWithALength() throws InterruptedException {
        // the types the @throws tags now list (thrown before too): nothing is claimed or counted
        try (InputPipeline p = InputPipeline.builder().build()) {
            assertThrows(IndexOutOfBoundsException.class, () -> p.tryPublish(0, 0, new byte[1], 0, 5));
            assertThrows(IndexOutOfBoundsException.class,
                    () -> p.publish(0, 0, new byte[4], 3, 2, 1, TimeUnit.MILLISECONDS));
            assertThrows(NullPointerException.class, () -> p.tryPublish(0, 0, null, 0, 1));
            assertEquals(0, p.rejectedCount());
            assertEquals(0, p.beginTick(0).size(), "nothing was published");
        }
    }

    @Test
    void shouldGiveUpABlockingPublishAfterItsTimeout() throws InterruptedException {
        try (InputPipeline p = InputPipeline.builder().ringSize(2).build()) {
            assertTrue(p.tryPublish(0, 0, null, 0, 0));
            assertTrue(p.tryPublish(0, 0, null, 0, 0));
            assertFalse(p.publish(1, 0, null, 0, 0, 5, TimeUnit.MILLISECONDS));
            assertEquals(1, p.rejectedCount());
        }
    }

    @Test
    @Timeout(20)
    void shouldCompleteABlockingPublishOnceTheTickDrains() throws Exception {
        try (InputPipeline p = InputPipeline.builder().ringSize(2).build()) {
            assertTrue(p.tryPublish(0, 0, null, 0, 0));
            assertTrue(p.tryPublish(1, 0, null, 0, 0));
            CompletableFuture<Boolean> blocked = CompletableFuture.supplyAsync(() -> {
                try {
                    return p.publish(2, 0, null, 0, 0, 30, TimeUnit.SECONDS);
                } catch (InterruptedException e) {
                    throw new IllegalStateException(e);
                }
            });
            assertEquals(2, p.beginTick(0).size());
            assertTrue(blocked.get(), "the waiting publish should succeed once room appears");
            InputBatch b = p.beginTick(1);
            while (b.isEmpty()) { // the publisher may not have filled its slot yet
                Thread.onSpinWait();
                b = p.beginTick(b.tick() + 1);
            }
            assertEquals(2, b.client(0));
            assertEquals(0, p.rejectedCount());
        }
    }

    @Test
    void shouldRefuseOversizedPayloadsNamingTheLimit() {
        try (InputPipeline p = InputPipeline.builder().maxPayloadBytes(8).build()) {
            IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                    () -> p.tryPublish(7, 3, new byte[9], 0, 9));
            assertTrue(e.getMessage().contains("9 bytes") && e.getMessage().contains("client 7")
                    && e.getMessage().contains("maximum of 8"), e.getMessage());
            assertEquals(0, p.acceptedCount());
            assertThrows(IndexOutOfBoundsException.class, () -> p.tryPublish(7, 3, new byte[4], 2, 4));
            assertThrows(IndexOutOfBoundsException.class, () -> p.tryPublish(7, 3, new byte[4], 0, -1));
            assertThrows(NullPointerException.class, () -> p.tryPublish(7, 3, null, 0, 2));
            assertTrue(p.beginTick(0).isEmpty(), "refused inputs never reach a tick");
        }
    }

    @Test
    void shouldLeaveInputsBeyondThePerTickLimitForLaterTicksInOrder() {
        try (InputPipeline p = InputPipeline.builder().ringSize(16).maxInputsPerTick(3).build()) {
            for (int i = 0; i < 7; i++) {
                assertTrue(p.tryPublish(i, 0, null, 0, 0));
            }
            int next = 0;
            int[] sizes = {3, 3, 1};
            for (int t = 0; t < 3; t++) {
                InputBatch b = p.beginTick(t);
                assertEquals(sizes[t], b.size(), "tick " + t);
                for (int i = 0; i < b.size(); i++) {
                    assertEquals(next++, b.client(i));
                }
            }
        }
    }

    @Test
    void shouldRefuseTicksThatDoNotIncrease() {
        try (InputPipeline p = InputPipeline.builder().build()) {
            p.beginTick(3);
            IllegalStateException e = assertThrows(IllegalStateException.class, () -> p.beginTick(3));
            assertTrue(e.getMessage().contains("after tick 3"), e.getMessage());
            assertThrows(IllegalStateException.class, () -> p.recordHash(2, 0), "hash for a tick not last begun");
        }
    }

    @Test
    void shouldAssertThatOnlyTheTickThreadDrains() throws Exception {
        try (InputPipeline p = InputPipeline.builder().build()) {
            p.beginTick(0);
            AtomicReference<Throwable> thrown = new AtomicReference<>();
            Thread other = new Thread(() -> {
                try {
                    p.beginTick(1);
                } catch (Throwable t) {
                    thrown.set(t);
                }
            }, "not-the-tick-thread");
            other.start();
            other.join();
            assertTrue(thrown.get() instanceof AssertionError, "expected an assertion, got " + thrown.get());
            assertTrue(thrown.get().getMessage().contains("not-the-tick-thread"), thrown.get().getMessage());
        }
    }

    @Test
    void shouldMoveTheTickThreadOnlyThroughBindTickThread() throws Exception {
        InputPipeline p = InputPipeline.builder().build();
        p.beginTick(0);
        AtomicReference<Throwable> thrown = new AtomicReference<>();
        Thread next = new Thread(() -> {
            try {
                p.bindTickThread();
                p.beginTick(1);
                p.recordHash(1, 7);
            } catch (Throwable t) {
                thrown.set(t);
            }
        }, "next-tick-thread");
        next.start();
        next.join(); // the hand-over's happens-before edge, both ways
        assertEquals(null, thrown.get(), "the bound thread may drain");
        AssertionError e = assertThrows(AssertionError.class, () -> p.beginTick(2), "the old thread handed over");
        assertTrue(e.getMessage().contains("next-tick-thread"), e.getMessage());
        p.bindTickThread();
        p.close();
    }

    @Test
    void shouldNameTheFixWhenAnotherThreadClosesThePipelineATickThreadDrains() throws Exception {
        InputPipeline p = InputPipeline.builder().build();
        CountDownLatch drained = new CountDownLatch(1);
        CountDownLatch stop = new CountDownLatch(1);
        Thread loop = new Thread(() -> {
            p.beginTick(0);
            drained.countDown();
            Latches.await(stop); // alive and idle: it may drain again (a terminated one hands the pipeline over)
        }, "game-loop");
        loop.start();
        Latches.await(drained);
        // a server's shutdown thread closing its clients' pipeline while the loop may still tick
        AssertionError e = assertThrows(AssertionError.class, p::close);
        String m = e.getMessage();
        assertTrue(m.contains("'game-loop'") && m.contains("after its last tick") && m.contains("bindTickThread()"), m);
        assertFalse(p.isClosed(), "the refused close left it open");
        stop.countDown();
        loop.join();
        p.bindTickThread(); // the loop joined: the hand-over the message names
        p.close();
        assertTrue(p.isClosed());
    }

    @Test
    void shouldRejectPublishesAfterCloseAndReportPendingInputs() {
        InputPipeline p = InputPipeline.builder().build();
        assertTrue(p.tryPublish(1, 1, null, 0, 0));
        p.close();
        assertTrue(p.isClosed());
        assertFalse(p.tryPublish(2, 1, null, 0, 0));
        assertEquals(1, p.rejectedCount());
        assertEquals(1, p.pendingCount(), "the undrained input stays visible");
        assertThrows(IllegalStateException.class, () -> p.beginTick(0));
        p.close(); // idempotent
    }

    @Test
    void shouldRecordStampedInputsTickEndsAndHashesInOrder() {
        ListRecorder rec = new ListRecorder();
        try (InputPipeline p = InputPipeline.builder().ringSize(8).recorder(rec).build()) {
            p.tryPublish(1, 5, ints(11), 0, 4);
            p.tryPublish(2, 6, null, 0, 0);
            p.beginTick(10);
            p.recordHash(10, 0xFEEDL);
            p.beginTick(11);
            p.tryPublish(3, 7, ints(33), 0, 4);
            p.beginTick(12);
        }
        assertEquals(List.of(
                "input 10/0 client 1 type 5 len 4",
                "input 10/1 client 2 type 6 len 0",
                "end 10 count 2",
                "hash 10 feed",
                "end 11 count 0",
                "input 12/0 client 3 type 7 len 4",
                "end 12 count 1",
                "close"), rec.events());
    }

    @Test
    void shouldReportAJournalFailureToTheTickThread() {
        ListRecorder failing = new ListRecorder() {
            @Override
            public void recordTickEnd(long tick, int inputCount) throws IOException {
                throw new IOException("disk full");
            }
        };
        InputPipeline p = InputPipeline.builder().recorder(failing).build();
        p.beginTick(0);
        UncheckedIOException e = assertThrows(UncheckedIOException.class, p::close);
        assertTrue(failing.events().contains("abandon"), "a failed recording is abandoned, not closed: "
                + failing.events());
        assertFalse(failing.events().contains("close"), failing.events().toString());
        assertTrue(e.getMessage().contains("journal") && e.getMessage().contains("incomplete"), e.getMessage());
        assertTrue(String.valueOf(e.getCause()).contains("disk full")
                || String.valueOf(e.getCause().getCause()).contains("disk full"), String.valueOf(e.getCause()));
    }

    /** Records what the journal thread is told, as strings, for order checks. */
    static class ListRecorder implements InputRecorder {
        private final List<String> events = new ArrayList<>();

        synchronized List<String> events() {
            return new ArrayList<>(events);
        }

        @Override
        public synchronized void recordInput(long tick, int sequence, int client, int type, byte[] payload,
                int offset, int length) throws IOException {
            events.add("input " + tick + "/" + sequence + " client " + client + " type " + type + " len " + length);
        }

        @Override
        public synchronized void recordTickEnd(long tick, int inputCount) throws IOException {
            events.add("end " + tick + " count " + inputCount);
        }

        @Override
        public synchronized void recordTickHash(long tick, long stateHash) throws IOException {
            events.add("hash " + tick + " " + Long.toHexString(stateHash));
        }

        @Override
        public void flush() {
        }

        @Override
        public synchronized void close() {
            events.add("close");
        }

        @Override
        public synchronized void abandon() {
            events.add("abandon");
        }
    }
}
