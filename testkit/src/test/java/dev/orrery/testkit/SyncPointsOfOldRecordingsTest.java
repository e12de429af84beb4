package dev.orrery.testkit;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.orrery.engine.Simulation;
import dev.orrery.scheduler.FixedTimestep;
import dev.orrery.scheduler.Phase;
import dev.orrery.scheduler.ResourceKey;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Two recordings of one game in an older kit's format (a hash after each system only), where
 * the first run applied a spawner's commands at a sync point and the second applied none (the
 * spawner is gated by state outside the simulation), compared with {@code --game}: the re-runs
 * spawn in neither, so they see no sync point there, and the report must name the spawner's
 * commands among what made the difference, wherever the sync point fell: between two fixed steps
 * of one phase (where the system after it is the phase's own first, and the sync point before it
 * applies the commands of the step before), or at the end of the tick (after the last system,
 * where no system's hash shows it). {@link SyncPointInOneRecordingTest} shows the sync point
 * before the next phase's first system.
 */
class SyncPointsOfOldRecordingsTest {
    /** Whether the spawner spawns: outside the simulation, so each run may see another value. */
    static volatile boolean spawning;

    static final Phase FIXED = Phase.named("Physics");
    static final ResourceKey<FixedTimestep> STEP = ResourceKey.of("physics step", FixedTimestep.class);

    /** "move" then "spawner", in a fixed-step phase that runs {@code steps} steps a tick. */
    abstract static class FixedStepGame implements SimulationFactory {
        private final int steps;

        FixedStepGame(int steps) {
            this.steps = steps;
        }

        @Override
        public Simulation create(int workers, boolean populate) {
            GrowingWorld g = new GrowingWorld(populate);
            return g.builder(workers).resource(STEP, new FixedTimestep(1, steps, steps))
                    .systems(s -> {
                        s.phases(Phase.PRE_UPDATE, FIXED, Phase.UPDATE).fixedTimestep(FIXED, STEP);
                        s.system("move").inPhase(FIXED).query(g.growing).writes(g.growth).forEachChunk(job -> {
                            float[] v = job.chunk().writeFloats(g.size);
                            for (int i = 0, n = job.chunk().size(); i < n; i++) v[i] += 1;
                        });
                        spawner(s.system("spawner").inPhase(FIXED), g);
                    })
                    .build();
        }
    }

    /** Two steps a tick. */
    public static final class TwoStepGame extends FixedStepGame {
        /** Needed by {@code CompareRecordings --game}. */
        public TwoStepGame() {
            super(2);
        }
    }

    /** Four steps a tick: more points in a tick than one pass through two systems makes. */
    public static final class FourStepGame extends FixedStepGame {
        /** Needed by {@code CompareRecordings --game}. */
        public FourStepGame() {
            super(4);
        }
    }

    /** "grow", then "spawner" in the last phase: its commands are applied at the end of the tick. */
    public static final class LastPhaseGame implements SimulationFactory {
        /** Needed by {@code CompareRecordings --game}. */
        public LastPhaseGame() {
        }

        @Override
        public Simulation create(int workers, boolean populate) {
            GrowingWorld g = new GrowingWorld(populate);
            return g.builder(workers)
                    .systems(s -> {
                        s.system("grow").query(g.growing).writes(g.growth).forEachChunk(job -> {
                            float[] v = job.chunk().writeFloats(g.size);
                            for (int i = 0, n = job.chunk().size(); i < n; i++) v[i] += 1;
                        });
                        spawner(s.system("spawner").inPhase(Phase.POST_UPDATE), g);
                    })
                    .build();
        }
    }

    private static void spawner(dev.orrery.scheduler.Schedule.SystemBuilder spec, GrowingWorld g) {
        spec.spawns(g.growth).forEachRange(() -> 1, (job, from, to) -> {
            if (spawning) {
                job.commands().add(job.commands().spawn(), g.growth, new GrowingWorld.Growth(7));
            }
        });
    }

    /** What CompareRecordings prints for old-format recordings of {@code game}, spawning in the first only. */
    private static String[] compare(SimulationFactory game, Path dir) {
        Path spawned = dir.resolve("spawned");
        Path plain = dir.resolve("plain");
        try {
            spawning = true;
            GoldenRecording.record(game, InputScript.NONE, 3, spawned);
            spawning = false;
            GoldenRecording.record(game, InputScript.NONE, 3, plain);
        } finally {
            spawning = false;
        }
        Path spawnedV1 = OldSystemHashes.copy(spawned, dir.resolve("spawned-v1"));
        Path plainV1 = OldSystemHashes.copy(plain, dir.resolve("plain-v1"));
        String[] outs = new String[2];
        String[][] orders = {{spawnedV1.toString(), plainV1.toString()}, {plainV1.toString(), spawnedV1.toString()}};
        for (int k = 0; k < 2; k++) {
            ByteArrayOutputStream out = new ByteArrayOutputStream();
            ByteArrayOutputStream err = new ByteArrayOutputStream();
            int status = CompareRecordings.run(new String[] {"--game", game.getClass().getName(), orders[k][0],
                    orders[k][1]}, new PrintStream(out, true, StandardCharsets.UTF_8),
                    new PrintStream(err, true, StandardCharsets.UTF_8));
            outs[k] = out.toString(StandardCharsets.UTF_8);
            assertEquals(1, status, outs[k] + err.toString(StandardCharsets.UTF_8));
            assertTrue(outs[k].contains("state: first differs at tick 0"), outs[k]);
        }
        return outs;
    }

    @Test
    void aTickInWhichAFixedStepPhaseRanFourStepsIsReadInBothFormats(@TempDir Path dir) throws IOException {
        Path rec = dir.resolve("rec");
        try {
            spawning = true;
            GoldenRecording.record(new FourStepGame(), InputScript.NONE, 2, rec);
        } finally {
            spawning = false;
        }
        SystemHashes now = SystemHashes.readIfPresent(rec); // on the old code: "tick 0 lists 12 points for 2 systems"
        assertEquals(12, now.points.get(0L).size(), "4 steps of 2 systems, each step's sync point applying the spawn");
        assertEquals(8, now.ticks.get(0L).length);
        SystemHashes old = SystemHashes.readIfPresent(OldSystemHashes.copy(rec, dir.resolve("rec-v1")));
        assertArrayEquals(now.ticks.get(1L), old.ticks.get(1L)); // on the old code: "tick 0 lists 8 hashes for 2 systems"
    }

    @Test
    void commandsAppliedBetweenTwoFixedStepsAreNamedBesideThePhasesFirstSystem(@TempDir Path dir) {
        for (String o : compare(new TwoStepGame(), dir)) {
            assertFalse(o.contains("system: first difference after system 'move' at tick 0 ("), o);
            assertTrue(o.contains("system: first difference after system 'move' at tick 0, or in the commands of system "
                    + "'spawner' applied at the sync point before it"), o);
        }
    }

    @Test
    void commandsAppliedAtTheEndOfTheTickAreNamed(@TempDir Path dir) {
        for (String o : compare(new LastPhaseGame(), dir)) {
            assertFalse(o.contains("did not tell which"), o);
            assertTrue(o.contains("system: first difference at the end of tick 0, in the commands of system 'spawner' "
                    + "applied at the sync point after the last system in the recorded run, where this run applied none"),
                    o);
        }
    }

    /** The failure of replaying an old-format golden recording of {@code game} made spawning, with the game not spawning. */
    private static DeterminismFailure replayed(SimulationFactory game, Path dir) {
        Path golden = dir.resolve("golden");
        try {
            spawning = true;
            GoldenRecording.record(game, InputScript.NONE, 3, golden);
        } finally {
            spawning = false;
        }
        Path v1 = OldSystemHashes.copy(golden, dir.resolve("golden-v1"));
        return assertThrows(DeterminismFailure.class, () -> GoldenRecording.assertReplays(v1, game));
    }

    @Test
    void aGoldenRecordingsReplayNamesTheCommandsAppliedBetweenTwoFixedSteps(@TempDir Path dir) {
        DeterminismFailure f = replayed(new TwoStepGame(), dir);
        String m = f.getMessage();
        assertNull(f.system(), m); // on the old code: "move", the system after the sync point, which did nothing wrong
        assertTrue(m.contains("first difference after system 'move' at tick 0, or in the commands of system 'spawner' "
                + "applied at the sync point before it in the recorded run"), m);
    }

    @Test
    void aGoldenRecordingsReplayNamesTheCommandsAppliedAtTheEndOfTheTick(@TempDir Path dir) {
        DeterminismFailure f = replayed(new LastPhaseGame(), dir);
        String m = f.getMessage();
        assertEquals("spawner", f.system(), m); // on the old code: null, and no line naming a system
        assertTrue(m.contains("first difference at the end of tick 0, in the commands of system 'spawner' applied at "
                + "the sync point after the last system in the recorded run"), m);
    }
}
