package dev.orrery.engine;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.orrery.ecs.SnapshotException;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class SimulationTest {
    /** Inputs made from the tick number alone: a spawn every 7 ticks, damage every 11. */
    static final class ScriptedInputs implements InputSource {
        private final InputBatch batch = new InputBatch();
        final long[] hashes;

        ScriptedInputs(int ticks) {
            hashes = new long[ticks];
        }

        @Override
        public InputBatch beginTick(long tick) {
            batch.reset(tick);
            if (tick % 7 == 3) {
                byte[] p = ByteBuffer.allocate(12).putInt(20).putFloat(tick).putFloat(-tick).array();
                batch.add(1, ArenaWorkload.SPAWN, p, 0, p.length);
            }
            if (tick % 11 == 5) {
                byte[] p = ByteBuffer.allocate(4).putInt(9).array();
                batch.add(2, ArenaWorkload.DAMAGE, p, 0, p.length);
            }
            return batch;
        }

        @Override
        public void recordHash(long tick, long stateHash) {
            hashes[(int) tick] = stateHash;
        }
    }

    static long[] run(int workers, int ticks) {
        ScriptedInputs inputs = new ScriptedInputs(ticks);
        try (Simulation sim = ArenaWorkload.build(7, workers, true, 1)) {
            sim.inputs(inputs);
            for (int t = 0; t < ticks; t++) {
                assertEquals(t, sim.tick());
            }
            assertEquals(ticks, sim.currentTick());
            assertEquals(ticks, sim.clock().tick() + 1);
        }
        return inputs.hashes;
    }

    @Test
    void shouldGiveTheSameHashAfterEveryTickOnAnyWorkerCount() {
        long[] one = run(1, 150);
        assertNotEquals(one[10], one[11], "the world changes from tick to tick");
        assertArrayEquals(one, run(2, 150));
        assertArrayEquals(one, run(4, 150));
    }

    @Test
    void shouldApplyInputsAndDespawnThroughCommandBuffers() {
        try (Simulation sim = ArenaWorkload.build(1, 2, true, 0)) {
            sim.inputs(new ScriptedInputs(40));
            int before = sim.world().entityCount();
            for (int t = 0; t < 4; t++) {
                sim.tick(); // tick 3 spawns 20
            }
            assertEquals(before + 20, sim.world().entityCount());
            for (int t = 4; t < 40; t++) {
                sim.tick();
            }
            // damage 9 at ticks 5, 16, 27, 38: the 50-hp spawns die at the 6th hit, not yet;
            // nobody has died, and the stats resource counted every hit
            assertEquals(36, sim.resources().get(ArenaWorkload.STATS).damage);
        }
    }

    @Test
    void shouldRestoreASnapshotAndContinueIdentically() {
        ScriptedInputs a = new ScriptedInputs(120);
        long[] damageAt60 = new long[1];
        byte[] mid;
        try (Simulation sim = ArenaWorkload.build(3, 2, true, 1)) {
            sim.inputs(a);
            for (int t = 0; t < 60; t++) {
                sim.tick();
            }
            mid = sim.snapshot();
            damageAt60[0] = sim.resources().get(ArenaWorkload.STATS).damage;
            assertTrue(damageAt60[0] > 0);
            for (int t = 60; t < 120; t++) {
                sim.tick();
            }
        }
        ScriptedInputs b = new ScriptedInputs(120);
        try (Simulation copy = ArenaWorkload.build(3, 4, false, 1)) {
            copy.restore(mid);
            assertEquals(60, copy.currentTick());
            assertEquals(a.hashes[59], copy.world().stateHash(), "restored state is the state after tick 59");
            assertEquals(damageAt60[0], copy.resources().get(ArenaWorkload.STATS).damage, "resource restored");
            copy.inputs(b);
            for (int t = 60; t < 120; t++) {
                copy.tick();
            }
        }
        for (int t = 60; t < 120; t++) {
            assertEquals(a.hashes[t], b.hashes[t], "tick " + t);
        }
    }

    @Test
    void shouldRefuseSnapshotOfAnotherSeedAndLeaveTheSimulationUntouched() {
        byte[] snap;
        try (Simulation sim = ArenaWorkload.build(3, 1, true, 0)) {
            sim.tick();
            snap = sim.snapshot();
        }
        try (Simulation other = ArenaWorkload.build(4, 1, false, 0)) {
            SnapshotException e = assertThrows(SnapshotException.class, () -> other.restore(snap));
            assertTrue(e.getMessage().contains("seed"), e.getMessage());
            assertEquals(0, other.world().entityCount());
            assertEquals(0, other.currentTick());
        }
    }

    @Test
    void shouldReadASnapshotsSeedWithoutRestoringIt() {
        // a replay tool learned the recorded seed only by matching the text of restore's refusal
        byte[] snap;
        try (Simulation sim = ArenaWorkload.build(3, 1, true, 0)) {
            sim.tick();
            snap = sim.snapshot();
        }
        assertEquals(3, Simulation.snapshotSeed(snap));
        byte[] negative;
        try (Simulation sim = ArenaWorkload.build(-5, 1, true, 0)) {
            negative = sim.snapshot();
        }
        assertEquals(-5, Simulation.snapshotSeed(negative));
        try (Simulation other = ArenaWorkload.build(Simulation.snapshotSeed(snap), 1, false, 0)) {
            other.restore(snap); // the seed it names is the one restore takes
            assertEquals(1, other.currentTick());
        }

        byte[] worldOnlySnapshot;
        try (Simulation sim = ArenaWorkload.build(3, 1, true, 0)) {
            worldOnlySnapshot = new dev.orrery.ecs.WorldSnapshot().write(sim.world());
        }
        SnapshotException worldOnly = assertThrows(SnapshotException.class,
                () -> Simulation.snapshotSeed(worldOnlySnapshot));
        assertTrue(worldOnly.getMessage().contains("no simulation sections"), worldOnly.getMessage());
        byte[] damaged = snap.clone();
        damaged[damaged.length / 2] ^= 0x40;
        SnapshotException corrupt = assertThrows(SnapshotException.class, () -> Simulation.snapshotSeed(damaged));
        assertTrue(corrupt.getMessage().contains("checksum"), corrupt.getMessage());
    }

    @Test
    void shouldRefuseANegativeTraceSizeAsABadArgument() {
        // a negative size failed with a bare NegativeArraySizeException from the trace's arrays
        try (Simulation sim = ArenaWorkload.build(1, 2, true, 0)) {
            IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> sim.newTrace(-1));
            assertTrue(e.getMessage().contains("-1") && e.getMessage().contains("newTrace(4096)"), e.getMessage());
        }
    }

    @Test
    void shouldTraceEveryJobOnItsWorkerTrack() throws Exception {
        try (Simulation sim = ArenaWorkload.build(1, 2, true, 0)) {
            dev.orrery.engine.ChromeTrace trace = sim.newTrace(1000);
            sim.trace(trace);
            for (int t = 0; t < 3; t++) {
                sim.tick();
            }
            sim.trace(null);
            sim.tick(); // not traced
            java.io.StringWriter out = new java.io.StringWriter();
            trace.write(out);
            String json = out.toString();
            long slices = json.lines().filter(l -> l.contains("\"ph\":\"X\"")).count();
            assertEquals(trace.jobCount() + 3, slices, "one slice per job plus one per tick");
            assertTrue(trace.jobCount() >= 3 * 4, "four systems a tick, got " + trace.jobCount());
            assertTrue(json.contains("\"name\":\"move\"") && json.contains("\"exclusive\":true"), json);
            assertTrue(json.contains("worker 0 (tick thread)") && json.contains("\"tick 2\""), json);
            assertTrue(json.startsWith("{") && json.trim().endsWith("}"));
            assertEquals(0, trace.droppedCount());
        }
    }

    @Test
    void shouldRefuseAWorkerCountPast256AtTheCallNotAtBuildInsideTheExecutor() {
        // workers(300) was taken and build() failed naming a command buffer id; workers(Integer.MAX_VALUE)
        // failed at build with a bare NegativeArraySizeException
        for (int workers : new int[] {0, 257, Integer.MAX_VALUE}) {
            SimulationBuilder builder = Simulation.builder(new dev.orrery.ecs.World());
            IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> builder.workers(workers));
            assertEquals("workers must be 1 to 256 (each needs its own command buffer id), got " + workers,
                    e.getMessage());
        }
    }

    @Test
    void shouldRefuseANegativeTickCountOrRateAndANullSnapshotBeforeRunning() {
        try (Simulation sim = ArenaWorkload.build(3, 1, true, 0)) {
            IllegalArgumentException ticks = assertThrows(IllegalArgumentException.class, () -> sim.run(-5, 0));
            assertTrue(ticks.getMessage().contains("-5 ticks") && ticks.getMessage().contains("0 to run until stop()"),
                    ticks.getMessage());
            for (double hz : new double[] {-1, Double.NaN, Double.POSITIVE_INFINITY}) {
                IllegalArgumentException rate = assertThrows(IllegalArgumentException.class, () -> sim.run(1, hz));
                assertTrue(rate.getMessage().contains(hz + " ticks per second"), rate.getMessage());
            }
            assertEquals(0, sim.currentTick(), "a refused run ran nothing");
            NullPointerException none = assertThrows(NullPointerException.class, () -> sim.restore(null));
            assertTrue(none.getMessage().startsWith("snapshot is null"), none.getMessage());
            sim.run(2, 0);
            assertEquals(2, sim.currentTick());
        }
    }

    private static void refusedAsClosed(Runnable call, String what) {
        IllegalStateException e = assertThrows(IllegalStateException.class, call::run, what);
        assertEquals("simulation is closed; build a new one with Simulation.builder(world)", e.getMessage(), what);
    }

    @Test
    void shouldRefuseToTickRunSnapshotOrRestoreAfterCloseInTheSimulationsTerms(@TempDir Path dir) {
        byte[] snapshot;
        try (Simulation other = ArenaWorkload.build(3, 1, true, 0)) {
            snapshot = other.snapshot();
        }
        Simulation sim = ArenaWorkload.build(3, 2, false, 0);
        sim.close();
        refusedAsClosed(sim::tick, "tick");
        refusedAsClosed(() -> sim.run(3, 0), "run");
        refusedAsClosed(() -> sim.run(3, 0, null), "run with a listener");
        refusedAsClosed(sim::snapshot, "snapshot");
        refusedAsClosed(() -> sim.restore(snapshot), "restore");
        assertEquals(0, sim.currentTick());
        Path folder = dir.resolve("rec");
        IllegalStateException rec = assertThrows(IllegalStateException.class,
                () -> RunRecorder.start(sim, folder, InputPipeline.builder()));
        assertEquals("simulation is closed; build a new one with Simulation.builder(world)", rec.getMessage());
        assertFalse(Files.exists(folder), "a refused recording makes no folder");
        sim.close(); // closing twice is harmless
    }

    @Test
    void shouldRefuseToStartAWatchdogOnAClosedSimulationWhichWouldLeakItsThread() {
        // once taken: the watchdog's thread started after close() had stopped everything, and nothing stopped it
        Simulation sim = ArenaWorkload.build(3, 1, false, 0);
        sim.close();
        long before = watchdogThreads();
        refusedAsClosed(() -> sim.watchdog(5, (tick, nanos, system, job) -> { }), "watchdog");
        long after = watchdogThreads(); // at most as many: an earlier test's watchdog may end meanwhile
        assertTrue(after <= before, "a watchdog thread was started for a closed simulation: " + before + " -> " + after);
        sim.watchdog(0, null); // stopping one is always taken
    }

    @Test
    void shouldRefuseAWatchdogWhenAnotherThreadClosesTheSimulationAsItStarts() {
        // once taken: watchdog(5) checked that the simulation was open, a close on another thread
        // (a shutdown hook) then released everything, and the watchdog started after it ran on for good
        Simulation sim = ArenaWorkload.build(3, 1, false, 0);
        sim.watchdogSeam = () -> {
            Thread closer = new Thread(sim::close, "closer");
            closer.start();
            try {
                closer.join(); // no tick runs, so the close releases at once, before watchdog goes on
            } catch (InterruptedException e) {
                throw new AssertionError(e);
            }
        };
        long before = watchdogThreads();
        IllegalStateException e = assertThrows(IllegalStateException.class,
                () -> sim.watchdog(5, (tick, nanos, system, job) -> { }),
                "a watchdog started after a close on another thread; its thread would outlive the simulation");
        assertEquals("simulation is closed (by thread 'closer'); build a new one with Simulation.builder(world)",
                e.getMessage());
        long after = watchdogThreads(); // at most as many: an earlier test's watchdog may end meanwhile
        assertTrue(after <= before, "a watchdog thread was started for a closed simulation: " + before + " -> " + after);
        sim.watchdogSeam = null;
        sim.watchdog(0, null); // stopping one is always taken
    }

    private static long watchdogThreads() {
        return Thread.getAllStackTraces().keySet().stream()
                .filter(t -> t.isAlive() && t.getName().equals("orrery-tick-watchdog")).count();
    }

    @Test
    void shouldRefuseNullResourceKeysAndReplayArgumentsNamingThem(@TempDir Path dir) {
        NullPointerException key = assertThrows(NullPointerException.class,
                () -> Simulation.builder(new dev.orrery.ecs.World()).resource(null, "v"));
        assertEquals("resource key", key.getMessage());
        NullPointerException withCodec = assertThrows(NullPointerException.class,
                () -> Simulation.builder(new dev.orrery.ecs.World()).resource(null, "v", null));
        assertEquals("resource key", withCodec.getMessage());
        NullPointerException fresh = assertThrows(NullPointerException.class, () -> RunReplayer.replay(dir, null));
        assertEquals("simulation to replay into", fresh.getMessage());
        NullPointerException fresh2 = assertThrows(NullPointerException.class,
                () -> RunReplayer.replay(dir, new byte[0], null));
        assertEquals("simulation to replay into", fresh2.getMessage());
        try (Simulation sim = ArenaWorkload.build(3, 1, false, 0)) {
            NullPointerException folder = assertThrows(NullPointerException.class, () -> RunReplayer.replay(null, sim));
            assertEquals("recording folder", folder.getMessage());
            assertEquals(0, sim.currentTick());
        }
    }
}
