package dev.orrery.engine;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.orrery.ecs.World;
import dev.orrery.ecs.component.Component;
import dev.orrery.engine.ArenaWorkload.Pos;
import dev.orrery.engine.journal.SkipComparison;
import dev.orrery.scheduler.Resources;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A tick both the recording and the replay skipped (FailurePolicy.SKIP_TICK) must be skipped
 * because the same system failed: a replay where another system threw at that tick behaved
 * otherwise, though the state hashes agree (both systems only read, and the phase runs to its end
 * whichever throws). Before, the replay passed; now it is a divergence naming the tick, both
 * systems, what the replay's threw and the fix, and, for a recorded system the replaying game no
 * longer has, that it was renamed. Names are compared as the journal keeps them, cut to 1 024 bytes.
 */
class SkippedBySameSystemTest {
    private static final long FAILING_TICK = 3;
    private static final int TICKS = 6;

    /** Systems {@code a} and {@code b}, both only reading; {@code thrower} (a or b) throws at tick 3. */
    static SimulationBuilder game(String a, String b, String thrower, boolean populate) {
        World world = new World();
        Component<Pos> pos = world.component(Pos.class);
        if (populate) {
            world.entity().with(pos, new Pos(1, 2)).spawnMany(10);
        }
        SimulationBuilder builder = Simulation.builder(world).seed(3).workers(1).hashEvery(1)
                .onSystemFailure(FailurePolicy.SKIP_TICK);
        Resources res = builder.resources();
        return builder.systems(s -> s
                .system(a).query(world.query().with(pos).build()).reads(pos).readsResource(Simulation.CLOCK)
                .forEachChunk(job -> fail(a, thrower, res.get(Simulation.CLOCK).tick()))
                .system(b).query(world.query().with(pos).build()).reads(pos).readsResource(Simulation.CLOCK)
                .forEachChunk(job -> fail(b, thrower, res.get(Simulation.CLOCK).tick())));
    }

    private static void fail(String system, String thrower, long tick) {
        if (system.equals(thrower) && tick == FAILING_TICK) {
            throw new IllegalStateException(system + " fails at tick " + tick);
        }
    }

    private static void record(Path dir, String a, String b, String thrower) throws Exception {
        try (Simulation sim = game(a, b, thrower, true).build();
             RunRecorder rec = RunRecorder.start(sim, dir, InputPipeline.builder(), Durability.EVERY_TICK)) {
            sim.failureListener((t, failure, first) -> { });
            for (int t = 0; t < TICKS; t++) {
                sim.tick();
            }
            assertEquals(1, sim.skippedTicks());
        }
    }

    @Test
    void aReplayWhereAnotherSystemThrewAtTheSkippedTickDiverges(@TempDir Path dir) throws Exception {
        record(dir, "alpha", "beta", "alpha");
        try (Simulation fresh = game("alpha", "beta", "beta", false).build()) {
            fresh.failureListener((t, failure, first) -> { });
            ReplayDivergenceException e = assertThrows(ReplayDivergenceException.class,
                    () -> RunReplayer.replay(dir, fresh));
            assertEquals(FAILING_TICK, e.tick());
            assertEquals(0, e.recordedHash());
            String m = e.getMessage();
            assertTrue(m.contains("diverged at tick 3: the recording skipped the tick because system 'alpha' threw "
                    + "(the journal keeps the name of what failed, not what it threw) but the replay skipped it because "
                    + "system 'beta' threw (java.lang.IllegalStateException: beta fails at tick 3): the game's systems "
                    + "throw differently than when recorded"), m);
            assertTrue(m.contains("replay with the game that made the recording"), m);
        }
        try (Simulation same = game("alpha", "beta", "alpha", false).build()) {
            same.failureListener((t, failure, first) -> { });
            RunReplayer.Result r = RunReplayer.replay(dir, same);
            assertEquals(1, r.skippedTicks(), "the same system throwing replays as before");
            assertEquals(TICKS, r.ticks());
        }
    }

    @Test
    void aRecordedSystemTheReplayingGameNoLongerHasIsSaidToBeRenamed(@TempDir Path dir) throws Exception {
        record(dir, "alpha", "beta", "alpha");
        // a replay into a game built from scratch, fed the journal: a renamed system passes no snapshot check
        try (Simulation renamed = game("alphaRenamed", "beta", "alphaRenamed", true).build();
             JournalInputSource journal = JournalInputSource.open(dir.resolve(RunRecorder.JOURNAL))) {
            renamed.failureListener((t, failure, first) -> { });
            renamed.onSystemFailure(journal.failurePolicy());
            renamed.inputs(journal);
            ReplayDivergenceException e = assertThrows(ReplayDivergenceException.class, () -> {
                while (journal.hasNextTick()) {
                    renamed.tick();
                }
            });
            assertEquals(FAILING_TICK, e.tick());
            String m = e.getMessage();
            assertTrue(m.contains("because system 'alpha' threw") && m.contains("because system 'alphaRenamed' threw"),
                    m);
            assertTrue(m.contains("the replaying game has no system 'alpha' (its systems: [alphaRenamed, beta]), so it "
                    + "was renamed or removed since the recording"), m);
            assertTrue(m.contains("give it its recorded name again to replay this recording, or record the run again"),
                    m);
        }
    }

    @Test
    void aNameTheJournalCutIsComparedCut(@TempDir Path dir) throws Exception {
        String longName = "x" + "é".repeat(700) + "-tail"; // 1 406 bytes, cut at 1 024 inside an 'é'
        assertEquals("x" + "é".repeat(511) + "\uFFFD", SkipComparison.journaled(longName), "the split 'é' as U+FFFD");
        record(dir, longName, "beta", longName);
        try (Simulation same = game(longName, "beta", longName, false).build()) {
            same.failureListener((t, failure, first) -> { });
            RunReplayer.Result r = RunReplayer.replay(dir, same);
            assertEquals(1, r.skippedTicks(), "the cut recorded name is the replay's name cut the same way");
        }
        try (Simulation other = game(longName, "beta", "beta", false).build()) {
            other.failureListener((t, failure, first) -> { });
            ReplayDivergenceException e = assertThrows(ReplayDivergenceException.class,
                    () -> RunReplayer.replay(dir, other));
            assertTrue(e.getMessage().contains("but the replay skipped it because system 'beta' threw"), e.getMessage());
            assertTrue(!e.getMessage().contains("has no system"), "the cut name is the game's own: " + e.getMessage());
        }
    }
}
