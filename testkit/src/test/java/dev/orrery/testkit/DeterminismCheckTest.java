package dev.orrery.testkit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.orrery.testkit.Garden.Mistake;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * The kit passes a deterministic game and, for each classic mistake planted in a game's
 * system, fails with a report that names that system, the tick and what differs.
 */
class DeterminismCheckTest {
    private static DeterminismCheck check(Mistake m) {
        return DeterminismCheck.of(Garden.factory(m)).ticks(40).inputs(Garden.GARDENER).workers(1, 2, 4)
                .batchSizes(64);
    }

    @Test
    void shouldPassADeterministicGameThroughEveryRun() {
        List<String> runs = check(Mistake.NONE).run();
        assertTrue(runs.contains("4 workers, batch 64"), runs.toString());
        assertTrue(runs.stream().anyMatch(r -> r.startsWith("restored from the snapshot of tick 20")), runs.toString());
        assertTrue(runs.stream().anyMatch(r -> r.startsWith("the recording replayed on 4 workers")), runs.toString());
        assertEquals(11, runs.size(), runs.toString()); // the reference, 5 worker/batch runs, 2 restores, 1 recording, 2 replays
    }

    @ParameterizedTest(name = "{0}")
    @EnumSource(value = Mistake.class, names = {"HASH_MAP_ORDER", "SHARED_RANDOM", "WALL_CLOCK"})
    void shouldNameTheSystemThatBreaksDeterminism(Mistake mistake) {
        DeterminismFailure f = assertThrows(DeterminismFailure.class, () -> check(mistake).run());
        assertEquals(Garden.MISTAKE, f.system(), f.getMessage());
        assertTrue(f.getMessage().contains("first difference after system 'mistake'"), f.getMessage());
        assertFalse(f.differences().isEmpty(), f.getMessage());
        assertTrue(f.getMessage().contains("Wind.gust"), "the report names the field: " + f.getMessage());
    }

    @Test
    void shouldReportAnUndeclaredChangeTestAsAFailureOfItsSystem() {
        DeterminismFailure f = assertThrows(DeterminismFailure.class, () -> check(Mistake.UNDECLARED_CHANGE_TEST).run());
        assertEquals(Garden.MISTAKE, f.system(), f.getMessage());
        assertTrue(f.getMessage().contains("tested whether component Water changed") && f.getMessage().contains(".reads(Water)"),
                f.getMessage());
    }

    @Test
    void shouldFindAResourceLeftOutOfTheSnapshotAfterTheRestore() {
        DeterminismFailure f = assertThrows(DeterminismFailure.class, () -> check(Mistake.UNSNAPSHOTTED_RESOURCE).run());
        assertTrue(f.run().startsWith("restored from the snapshot"), f.getMessage());
        assertEquals(Garden.MISTAKE, f.system(), f.getMessage());
        assertTrue(f.getMessage().contains("the second restored from the snapshot"), f.getMessage());
    }
}
