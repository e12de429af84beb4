package dev.orrery.engine;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.orrery.engine.journal.JournalWriter;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * Records a small input-driven, randomised workload through the live pipeline and replays
 * it from the journal with the same tick code: the hashes match at every recorded tick,
 * and a deliberate change is caught at the first hash after it.
 */
class RecordReplayTest {
    private static final int TICKS = 200;
    private static final int HASH_EVERY = 5;
    private static final long SEED = 99;

    @TempDir
    Path dir;

    /** A toy world: 32 counters moved by inputs and by counter-based randomness. */
    static final class ToyWorld {
        final long[] values = new long[32];
        final RandomCursor rng = new CounterRandom(SEED).cursor();
        long sabotageTick = Long.MIN_VALUE;
        long inputsSeen;

        void tick(long tick, InputBatch inputs) {
            inputsSeen += inputs.size();
            for (int i = 0; i < inputs.size(); i++) {
                values[inputs.client(i) % values.length] += inputs.payloadInt(i, 0) * (long) (i + 1);
            }
            for (int e = 0; e < values.length; e++) {
                rng.reset(tick, e, 1);
                values[e] = values[e] * 31 + rng.nextInt(1000);
            }
            if (tick == sabotageTick) {
                values[3]++;
            }
        }

        long hash() {
            long h = 17;
            for (long v : values) {
                h = h * 0x100000001B3L ^ v;
            }
            return h;
        }
    }

    /** The tick loop, written once against InputSource for both recording and replay. */
    private static List<Long> runTicks(InputSource source, ToyWorld world, long firstTick, int ticks,
            Runnable beforeEachTick) {
        List<Long> hashes = new ArrayList<>();
        for (long t = firstTick; t < firstTick + ticks; t++) {
            beforeEachTick.run();
            world.tick(t, source.beginTick(t));
            long h = world.hash();
            hashes.add(h);
            if (t % HASH_EVERY == 0) {
                source.recordHash(t, h);
            }
        }
        return hashes;
    }

    private Path record(Path journal) throws Exception {
        ToyWorld world = new ToyWorld();
        InputPipeline pipeline = InputPipeline.builder().ringSize(64).maxPayloadBytes(4)
                .recorder(JournalWriter.create(journal)).build();
        // a producer thread publishing while the ticks run: arrival is nondeterministic,
        // the journal pins down which tick saw what
        Thread producer = new Thread(() -> {
            byte[] p = new byte[4];
            try {
                for (int i = 0; i < 2000; i++) {
                    ByteBuffer.wrap(p).putInt(i);
                    pipeline.publish(i % 7, 1, p, 0, 4, 10, TimeUnit.SECONDS);
                    if (i % 50 == 0) {
                        Thread.yield();
                    }
                }
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        });
        producer.start();
        try {
            runTicks(pipeline, world, 1, TICKS, () -> LockSupport.parkNanos(100_000));
        } finally {
            pipeline.close(); // a producer still waiting for room is refused at once
            producer.join();
        }
        return journal;
    }

    @Test
    @Timeout(30) // a hang guard only
    void shouldReplayTheRecordedRunWithMatchingHashesAtEveryRecordedTick() throws Exception {
        Path journal = record(dir.resolve("run.journal"));
        try (JournalInputSource replay = JournalInputSource.open(journal)) {
            assertEquals(1, replay.nextTick());
            ToyWorld world = new ToyWorld();
            runTicks(replay, world, 1, TICKS, () -> { });
            assertTrue(world.inputsSeen > 0, "the recording should hold inputs");
            assertEquals(TICKS / HASH_EVERY, replay.hashesChecked());
            assertFalse(replay.hasNextTick());
        }
        // and twice gives the same per-tick hashes, also at ticks with no recorded hash
        List<Long> first;
        List<Long> second;
        try (JournalInputSource a = JournalInputSource.open(journal)) {
            first = runTicks(a, new ToyWorld(), 1, TICKS, () -> { });
        }
        try (JournalInputSource b = JournalInputSource.open(journal)) {
            second = runTicks(b, new ToyWorld(), 1, TICKS, () -> { });
        }
        assertEquals(first, second);
    }

    @Test
    void shouldStopAtTheFirstRecordedHashAfterADivergence() throws Exception {
        Path journal = record(dir.resolve("diverge.journal"));
        ToyWorld sabotaged = new ToyWorld();
        sabotaged.sabotageTick = 37;
        try (JournalInputSource replay = JournalInputSource.open(journal)) {
            ReplayDivergenceException e = assertThrows(ReplayDivergenceException.class,
                    () -> runTicks(replay, sabotaged, 1, TICKS, () -> { }));
            assertEquals(40, e.tick());
            assertTrue(e.getMessage().contains("tick 40") && e.getMessage().contains("tick 35")
                    && e.getMessage().contains(journal.toString()), e.getMessage());
            assertEquals(7, replay.hashesChecked());
        }
    }

    @Test
    void shouldRefuseTicksThatDifferFromTheRecording() throws Exception {
        Path journal = record(dir.resolve("ticks.journal"));
        try (JournalInputSource replay = JournalInputSource.open(journal)) {
            IllegalStateException e = assertThrows(IllegalStateException.class, () -> replay.beginTick(2));
            assertTrue(e.getMessage().contains("records tick 1 next"), e.getMessage());
            replay.beginTick(1);
            assertThrows(IllegalStateException.class, () -> replay.recordHash(2, 0));
        }
    }

    @Test
    void shouldReportADamagedJournalPartWayThroughTheReplay() throws Exception {
        Path journal = record(dir.resolve("damaged.journal"));
        byte[] bytes = Files.readAllBytes(journal);
        bytes[bytes.length / 2] ^= 0x40;
        Files.write(journal, bytes);
        UncheckedIOException e;
        try (JournalInputSource replay = JournalInputSource.open(journal)) {
            e = assertThrows(UncheckedIOException.class, () -> {
                while (replay.hasNextTick()) {
                    long t = replay.nextTick();
                    replay.beginTick(t);
                }
            });
        }
        CorruptJournalException cause = assertInstanceOf(CorruptJournalException.class, e.getCause());
        assertTrue(cause.offset() <= bytes.length / 2, e.getMessage());
        assertTrue(e.getMessage().contains(journal.toString()), e.getMessage());
    }

    @Test
    void shouldOpenOnlyRealJournals() throws IOException {
        Path notJournal = dir.resolve("x.bin");
        Files.write(notJournal, new byte[40]);
        assertThrows(CorruptJournalException.class, () -> JournalInputSource.open(notJournal));
    }
}
