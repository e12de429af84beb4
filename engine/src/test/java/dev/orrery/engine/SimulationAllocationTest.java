package dev.orrery.engine;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.orrery.engine.AllocationWorkload.Feature;
import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.EnumSet;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Once warm, a whole {@code Simulation.tick()} allocates nothing on the tick thread, nor on
 * the workers, beyond what the systems' own code allocates (here nothing): with every feature
 * a game turns on together (commands spawning through a shape and despawning, tag adds and
 * removes, events, resources, a run condition, a fixed-step phase, a state machine that
 * changes state, changed and added filters, per-row change tracking, observers, a removal
 * log, ChildOf pairs with a level system, a sparse component, inputs through the pipeline,
 * CounterRandom, a tick watchdog), and with the state hash every tick (the default), the sparse component's
 * members sorted in arrays the world keeps. Measured in bytes with HotSpot's per-thread counters, never in time: the
 * quietest of many windows of ticks, since a window now and then pays for the JIT or a GC
 * (a kilobyte or two), while allocation per tick shows in every window.
 */
class SimulationAllocationTest {
    private static final int WARM_TICKS = 3_000;
    private static final int WINDOWS = 20;
    private static final int TICKS_PER_WINDOW = 50;
    /** Bytes a quiet window of 50 ticks may show: 16 bytes a tick would be 800. */
    private static final long QUIET = 256;

    private static com.sun.management.ThreadMXBean threads() {
        java.lang.management.ThreadMXBean mx = ManagementFactory.getThreadMXBean();
        assumeTrue(mx instanceof com.sun.management.ThreadMXBean, "needs HotSpot's per-thread allocation counter");
        com.sun.management.ThreadMXBean t = (com.sun.management.ThreadMXBean) mx;
        assumeTrue(t.isThreadAllocatedMemorySupported(), "the JVM counts no per-thread allocation");
        return t;
    }

    /** The quietest window's bytes: [0] on the tick thread, [1] on the workers together. */
    private static long[] quietestWindow(AllocationWorkload w, int workers, boolean withInputs) {
        InputPipeline pipe = withInputs ? InputPipeline.builder().ringSize(1024).maxPayloadBytes(8).build() : null;
        try (Simulation sim = w.build(workers, pipe)) {
            return quietestWindow(sim, pipe, workers);
        } finally {
            if (pipe != null) {
                pipe.close();
            }
        }
    }

    /** {@link #quietestWindow(AllocationWorkload, int, boolean)} of a built simulation, inputs published to {@code pipe}. */
    private static long[] quietestWindow(Simulation sim, InputPipeline pipe, int workers) {
        com.sun.management.ThreadMXBean threads = threads();
        byte[] payload = new byte[8];
        {
            for (int i = 0; i < WARM_TICKS; i++) {
                tick(sim, pipe, payload);
            }
            long[] workerIds = Thread.getAllStackTraces().keySet().stream()
                    .filter(t -> t.getName().startsWith("orrery-worker-")).mapToLong(Thread::getId).toArray();
            assertEquals(workers - 1, workerIds.length, "the executor's worker threads");
            long tickThread = Thread.currentThread().getId();
            long[] least = {Long.MAX_VALUE, Long.MAX_VALUE};
            for (int win = 0; win < WINDOWS; win++) {
                long before = threads.getThreadAllocatedBytes(tickThread);
                long workersBefore = sum(threads, workerIds);
                for (int i = 0; i < TICKS_PER_WINDOW; i++) {
                    tick(sim, pipe, payload);
                }
                least[0] = Math.min(least[0], threads.getThreadAllocatedBytes(tickThread) - before);
                least[1] = Math.min(least[1], sum(threads, workerIds) - workersBefore);
            }
            assertEquals(WARM_TICKS + WINDOWS * TICKS_PER_WINDOW, sim.currentTick());
            return least;
        }
    }

    private static long sum(com.sun.management.ThreadMXBean threads, long[] ids) {
        long s = 0;
        for (long id : ids) {
            s += threads.getThreadAllocatedBytes(id);
        }
        return s;
    }

    private static void tick(Simulation sim, InputPipeline pipe, byte[] payload) {
        if (pipe != null) {
            for (int i = 0; i < AllocationWorkload.INPUTS_PER_TICK; i++) {
                payload[0] = (byte) i;
                assertTrue(pipe.tryPublish(i, 1, payload, 0, payload.length), "ring full");
            }
        }
        sim.tick();
    }

    private static void assertQuiet(long[] least, String what) {
        assertTrue(least[0] < QUIET, least[0] + " bytes allocated on the tick thread in the quietest "
                + TICKS_PER_WINDOW + " ticks of " + what);
        assertTrue(least[1] < QUIET, least[1] + " bytes allocated on the workers in the quietest "
                + TICKS_PER_WINDOW + " ticks of " + what);
    }

    @Test
    void shouldAllocateNothingForABareTickOnceWarm() {
        // Was 64 bytes a tick: the JFR tick event made every tick (48) and Resources.put's
        // message lambda capturing the key (16), the INPUTS re-put.
        AllocationWorkload w = new AllocationWorkload(EnumSet.noneOf(Feature.class));
        assertQuiet(quietestWindow(w, 1, false), "a bare tick");
    }

    @Test
    void shouldAllocateNothingWithEveryFeatureButTheHashOnOneWorker() {
        everyFeatureButTheHash(1);
    }

    @Test
    void shouldAllocateNothingWithEveryFeatureButTheHashOnTwoWorkers() {
        everyFeatureButTheHash(2);
    }

    private static void everyFeatureButTheHash(int workers) {
        Set<Feature> features = EnumSet.complementOf(EnumSet.of(Feature.HASH));
        AllocationWorkload w = new AllocationWorkload(features);
        assertQuiet(quietestWindow(w, workers, true), "every feature on " + workers + " worker(s)");
        long ticks = WARM_TICKS + WINDOWS * TICKS_PER_WINDOW;
        // the features ran: as many spawned as died each tick, a tag added (an observer heard it)
        // per spawn, the state machine entered FIGHT every 20 ticks and stayed 10
        assertEquals(w.roots.length + AllocationWorkload.SPAWNS * AllocationWorkload.LIFE, w.world.entityCount());
        assertEquals(AllocationWorkload.SPAWNS * ticks, w.counts[0], "onAdd hooks");
        assertEquals(ticks / 20, w.counts[4], "FIGHT entered");
        assertEquals(ticks / 2, w.counts[6], "ticks in FIGHT");
    }

    @Test
    void shouldAllocateNothingForTheStateHashEveryTick() {
        // Was 328 bytes a tick here (16 400 in the quietest window): a StateHasher, the free
        // list copied, the sparse columns listed (a list, its array, a read-only view, an
        // iterator), an empty sparse column's sorted copy, the relations iterated and a lambda
        // over the pairs capturing the hasher.
        Set<Feature> features = EnumSet.complementOf(EnumSet.of(Feature.SPARSE));
        AllocationWorkload w = new AllocationWorkload(features);
        assertQuiet(quietestWindow(w, 1, true), "every feature but the sparse component, hashed every tick");
        assertTrue(w.world.relations().pairCount(w.childOf) > 0, "pairs hashed");
    }

    @Test
    void shouldAllocateNothingForTheStateHashOfASparseColumnWithMembers() {
        // Was about 1 KB a tick here: each hash sorted the column's members into a new array
        // (and Arrays.sort a run buffer of its own); the world's hash scratch sorts them now.
        AllocationWorkload w = new AllocationWorkload(EnumSet.allOf(Feature.class));
        assertQuiet(quietestWindow(w, 1, true), "every feature, the sparse component's members hashed every tick");
        assertTrue(w.world.query().with(w.burning).build().count() > 0, "sparse members hashed");
    }

    @Test
    void shouldAllocateNothingWhileRecordingWithTheHashEveryTick(@TempDir Path dir) throws IOException {
        // Was about 500 bytes a tick more than the same run unrecorded: the per-component hashes
        // written to columns.hashes at every hashed tick took a hasher per component and a new
        // array; the recorder reuses the world's hashers and its own array now.
        AllocationWorkload w = new AllocationWorkload(EnumSet.allOf(Feature.class));
        try (Simulation sim = w.build(1, null);
                RunRecorder rec = RunRecorder.start(sim, dir.resolve("run"),
                        InputPipeline.builder().ringSize(1024).maxPayloadBytes(8), Durability.NONE)) {
            assertQuiet(quietestWindow(sim, rec.inputs(), 1), "every feature, recorded, hashed every tick");
        }
        assertTrue(Files.size(dir.resolve("run").resolve("columns.hashes")) > (long) WARM_TICKS * Long.BYTES,
                "a hash line per tick written");
    }
}
