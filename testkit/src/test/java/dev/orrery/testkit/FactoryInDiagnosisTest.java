package dev.orrery.testkit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.orrery.engine.Simulation;
import dev.orrery.testkit.Garden.Mistake;
import dev.orrery.testkit.Market.Bug;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The kit's diagnoses call the game's factory too (the runs that name a pair of systems or a
 * system's jobs, the re-runs of a recording, the end snapshot restored): a factory that returns
 * null, a simulation on another worker count or a world it returned before only there was met
 * by a confusing error (a NullPointerException inside a report, "simulation is closed", a run
 * silently on the wrong count). Every call of the factory is now refused the way the check's own
 * runs refuse it: an IllegalStateException naming SimulationFactory.create and the fix.
 */
class FactoryInDiagnosisTest {
    @TempDir
    Path dir;

    /** Whether the factory was called from inside the kit class {@code c}. */
    private static boolean calledFrom(Class<?> c) {
        return StackWalker.getInstance().walk(frames -> frames.anyMatch(f -> f.getClassName().equals(c.getName())));
    }

    @Test
    void shouldRefuseAFactoryThatReturnsNullToTheDiagnosisOfTheFlippedRun() {
        SimulationFactory game = (w, p) -> calledFrom(TieOrderOrigin.class) ? null : Market.build(w, p, Bug.BANK_CAPTURED);
        // before: a DeterminismFailure whose diagnosis read "the diagnostic runs on 1 worker failed: NullPointerException"
        IllegalStateException e = assertThrows(IllegalStateException.class,
                () -> DeterminismCheck.of(game).ticks(60).workers(1).run());
        assertTrue(e.getMessage().startsWith("SimulationFactory.create(1, true) returned null to DeterminismCheck.run")
                && e.getMessage().contains("Simulation.builder(world)"), e.getMessage());
    }

    @Test
    void shouldRefuseAFactoryThatBuildsOnAnotherCountForTheDiagnosisOfTheReversedRun() {
        SimulationFactory game = (w, p) -> Market.build(calledFrom(JobOrderOrigin.class) ? 2 : w, p,
                Bug.FLOAT_SUM_IN_JOB_ORDER);
        // before: the diagnosis ran on 2 workers without a word, and the check failed as a determinism failure
        IllegalStateException e = assertThrows(IllegalStateException.class,
                () -> DeterminismCheck.of(game).ticks(60).workers(1).run());
        assertTrue(e.getMessage().startsWith("SimulationFactory.create(1, true) returned a simulation on 2 workers to "
                + "DeterminismCheck.run") && e.getMessage().contains("workers(workers)"), e.getMessage());
    }

    @Test
    void shouldRefuseAFactoryThatReturnsAWorldAgainToTheDiagnosisOfAGoldenReplay() {
        Path golden = dir.resolve("golden");
        GoldenRecording.record(Garden.factory(Mistake.NONE), Garden.GARDENER, 10, golden);
        Simulation[] kept = new Simulation[1];
        SimulationFactory changed = (w, p) -> {
            if (p) {
                return Garden.build(w, true, Mistake.CHANGED_RULE);
            }
            if (kept[0] == null) {
                kept[0] = Garden.build(w, false, Mistake.CHANGED_RULE); // kept in a field: the mistake
            }
            return kept[0];
        };
        // before: a DeterminismFailure ending "(the diagnostic replay failed: ... closed)"
        IllegalStateException e = assertThrows(IllegalStateException.class,
                () -> GoldenRecording.assertReplays(golden, changed));
        assertTrue(e.getMessage().startsWith("SimulationFactory.create(1, false) returned a simulation on a World that "
                + "an earlier call returned") && e.getMessage().contains("new World()"), e.getMessage());
    }

    /** A factory that returns null, as a class the command line can load by name. */
    public static final class ReturnsNull implements SimulationFactory {
        /** Needed by {@code CompareRecordings --game}. */
        public ReturnsNull() {
        }

        @Override
        public Simulation create(int workers, boolean populate) {
            return null;
        }
    }

    @Test
    void shouldRefuseAGameThatReturnsNullToCompareRecordingsAsAUsageError() {
        Path plain = dir.resolve("plain");
        Path changed = dir.resolve("changed");
        GoldenRecording.record(Garden.factory(Mistake.NONE), Garden.GARDENER, 5, plain);
        GoldenRecording.record(Garden.factory(Mistake.CHANGED_RULE), Garden.GARDENER, 5, changed);
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        int status = CompareRecordings.run(new String[] {"--game", ReturnsNull.class.getName(), plain.toString(),
            changed.toString()}, new PrintStream(out, true, StandardCharsets.UTF_8),
                new PrintStream(err, true, StandardCharsets.UTF_8));
        String e = err.toString(StandardCharsets.UTF_8);
        // before: exit 1 and "entities: the end snapshots could not be restored into the game: Cannot invoke ..."
        assertEquals(2, status, out + "\n" + e);
        assertEquals(1, e.strip().lines().count(), "one line: " + e);
        assertTrue(e.startsWith("compare-recordings: --game " + ReturnsNull.class.getName() + ": SimulationFactory"
                + ".create(1, false) returned null to CompareRecordings --game"), e);
    }
}
