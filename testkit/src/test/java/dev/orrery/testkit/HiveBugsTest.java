package dev.orrery.testkit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.orrery.testkit.Hive.Bug;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * A newcomer's audit of the kit: {@link Hive}, written from docs/determinism.md alone, passes
 * the check the chapter recommends, and each determinism mistake planted in it fails the check
 * with the planted system, the tick, what differs and a likely cause named. Regression tests of
 * the kit's reports.
 */
class HiveBugsTest {
    private static DeterminismCheck check(Bug bug) {
        return DeterminismCheck.of(Hive.factory(bug)).ticks(80).workers(1, 2, 4);
    }

    @Test
    void shouldPassTheHiveWrittenByTheRules() {
        List<String> runs = check(Bug.NONE).run();
        assertEquals(15, runs.size(), runs.toString());
        assertTrue(runs.contains("1 worker, unordered systems in reverse order"), runs.toString());
        try (var sim = Hive.build(1, true, Bug.NONE)) {
            for (int t = 0; t < 80; t++) {
                sim.tick();
            }
            Hive.Store store = sim.resources().get(Hive.STORE);
            assertTrue(store.deliveries > 0 && store.carried > 0, "the bees delivered and carried nectar");
            assertTrue(sim.world().entityCount() == Hive.BEES, "every bee that died was replaced");
        }
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource(delimiter = '|', value = {
        "IDENTITY_HASH_SET | 1 worker, the game's own batching | Nectar   | HashSet",
        "MATH_RANDOM       | 1 worker, the game's own batching | Position | Math.random()",
        "NEW_RANDOM        | 1 worker, the game's own batching | Position | Simulation.RANDOM",
        "NANO_TIME         | 1 worker, the game's own batching | Nectar   | System.nanoTime()",
        "STATIC_MEMORY     | 1 worker, the game's own batching | Nectar   | static field",
        "ATOMIC_FLOAT_SUM  | 1 worker, jobs in reverse order   |          | chunk ordinal",
        "QUEUE_DRAIN       | 1 worker, jobs in reverse order   |          | chunk ordinal"})
    void shouldNameThePlantedSystemTheTickAndALikelyCause(Bug bug, String run, String component, String cause) {
        DeterminismFailure f = assertThrows(DeterminismFailure.class, () -> check(bug).run());
        String m = f.getMessage();
        assertEquals(run, f.run(), m);
        assertEquals(0, f.tick(), m);
        assertEquals(bug.system, f.system(), m);
        assertTrue(m.contains("'" + bug.system + "'"), m);
        if (component != null) {
            assertTrue(m.contains("components whose values differ: [" + component), m);
        } else {
            assertTrue(m.contains("resource 'store'"), m);
        }
        assertTrue(m.contains("likely cause") && m.contains(cause), m);
    }

    @Test
    void shouldRepeatTheGameOnOneWorkerBeforeTheReorderedRunsWhenTheWorkerCountsLeaveOutOne() {
        // workers(2, 4) once made the run with jobs in reverse order the first compared: the wall clock read in
        // 'forage' was laid at 'fly', "a result built in the order its jobs run" (reversing any system differs)
        DeterminismFailure f = assertThrows(DeterminismFailure.class,
                () -> DeterminismCheck.of(Hive.factory(Bug.NANO_TIME)).ticks(80).workers(2, 4).run());
        String m = f.getMessage();
        assertEquals("1 worker, the game's own batching", f.run(), m);
        assertEquals("forage", f.system(), m);
        assertTrue(m.contains("likely cause: the same settings gave another result"), m);
        List<String> runs = DeterminismCheck.of(Hive.factory(Bug.NONE)).ticks(20).workers(2).run();
        assertEquals(List.of("reference: 1 worker, the game's own batching", "1 worker, the game's own batching",
                "1 worker, jobs in reverse order", "1 worker, unordered systems in reverse order"), runs.subList(0, 4),
                runs.toString());
        List<String> later = DeterminismCheck.of(Hive.factory(Bug.NONE)).ticks(20).workers(2, 1).run();
        assertEquals(1, later.stream().filter("1 worker, the game's own batching"::equals).count(), later.toString());
    }

    @Test
    void shouldSayHowToSeeTheValuesOfAResourceWhoseTypeDoesNotPrintThem() {
        // Store is a class with arrays, as the chapter's own Standings: its toString is Object's, so the kit
        // cannot show the values; the line names the resource, the byte, and the fix, with no identity hash
        DeterminismFailure f = assertThrows(DeterminismFailure.class, () -> check(Bug.ATOMIC_FLOAT_SUM).run());
        String line = f.getMessage().lines().filter(l -> l.contains("resource 'store'")).findFirst().orElseThrow();
        assertTrue(line.contains("first differing at byte "), line);
        assertTrue(line.contains("Store does not print its values: make it a record, or give it a toString(), and "
                + "this report shows both"), line);
        assertTrue(!line.contains("@") && !line.contains("Hive$"), "no identity hash, no binary class name: " + line);
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource(delimiter = '|', value = {
        "UNDECLARED_COLUMN | 0 | add .reads(Position) to the system's declaration",
        "WORLD_BY_ID       | 2 | a job reads by entity id through its JobContext"})
    void shouldRefuseAnUndeclaredReadAtOnceNamingTheSystemAndTheFix(Bug bug, long tick, String fix) {
        DeterminismFailure f = assertThrows(DeterminismFailure.class, () -> check(bug).run());
        String m = f.getMessage();
        assertEquals("the reference (1 worker)", f.run(), m);
        assertEquals(tick, f.tick(), m);
        assertEquals(bug.system, f.system(), m);
        assertTrue(m.contains(fix), m);
    }

    @Test
    void shouldReplayAGoldenRecordingOfAJobOrderMistakeThatOnlyTheReversedRunCatches(@TempDir Path dir) {
        // docs/determinism.md: a golden recording replays on one worker, jobs forward, so it keeps the mistake
        Path golden = dir.resolve("golden");
        GoldenRecording.record(Hive.factory(Bug.ATOMIC_FLOAT_SUM), InputScript.NONE, 40, golden);
        GoldenRecording.assertReplays(golden, Hive.factory(Bug.ATOMIC_FLOAT_SUM));
        DeterminismFailure f = assertThrows(DeterminismFailure.class,
                () -> DeterminismCheck.of(Hive.factory(Bug.ATOMIC_FLOAT_SUM)).ticks(40).workers(1).run());
        assertEquals("1 worker, jobs in reverse order", f.run(), f.getMessage());
    }

    @Test
    void shouldNameTheSystemWhenAStaticKeptAcrossRunsBreaksAGoldenReplayInTheSameJvm(@TempDir Path dir) {
        Path golden = dir.resolve("golden");
        GoldenRecording.record(Hive.factory(Bug.STATIC_MEMORY), InputScript.NONE, 40, golden);
        DeterminismFailure f = assertThrows(DeterminismFailure.class,
                () -> GoldenRecording.assertReplays(golden, Hive.factory(Bug.STATIC_MEMORY)));
        assertEquals(0, f.tick(), f.getMessage());
        assertEquals("forage", f.system(), f.getMessage());
        assertTrue(f.getMessage().contains("components that differ: [Nectar]"), f.getMessage());
    }
}
