package dev.orrery.engine;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.orrery.engine.journal.SkipComparison;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * How a skipped tick's failure is worded, by {@link SkipComparison} and every message that
 * names it. Three leftovers: a divergence where one side ran the tick
 * ({@link ReplayDivergenceException}, the cluster's {@code SkipCheck}) said "system 'sync point
 * ...' threw" of a sync point, where {@code SkipComparison.failed} says "the sync point ...
 * failed"; a system whose name merely began with "sync point" was described as a sync point
 * (and never as renamed); and the renamed-system clause listed every system of the game.
 */
class SkipWordingTest {
    private static final String SYNC = "sync point ending phase Update";

    @Test
    void aDivergenceWhereOneSideRanTheTickWordsASyncPointAsSkipComparisonDoes() {
        String recorded = new ReplayDivergenceException(Path.of("run.journal"), 4, SYNC, null).getMessage();
        assertTrue(recorded.contains("the recording skipped the tick (the " + SYNC + " failed) but the replay ran it"),
                recorded); // was: "(system 'sync point ending phase Update' threw)"
        String replayed = new ReplayDivergenceException(Path.of("run.journal"), 4, null,
                "sync point before system 'b'").getMessage();
        assertTrue(replayed.contains("the recording ran the tick but the replay skipped it (the sync point before "
                + "system 'b' failed)"), replayed);
        String system = new ReplayDivergenceException(Path.of("run.journal"), 4, "fragile", null).getMessage();
        assertTrue(system.contains("the recording skipped the tick (system 'fragile' threw) but the replay ran it"),
                system);
    }

    @Test
    void aSystemWhoseNameBeginsWithSyncPointIsASystem() {
        assertEquals("system 'sync point 3' threw", SkipComparison.failed("sync point 3")); // was: "the sync point 3 failed"
        assertEquals("the " + SYNC + " failed", SkipComparison.failed(SYNC));
        String missing = SkipComparison.missing("sync point 3", List.of("alpha", "beta"));
        assertNotNull(missing, "a renamed system 'sync point 3' is reported as one"); // was: null, as a sync point
        assertTrue(missing.startsWith("the replaying game has no system 'sync point 3' (its systems: [alpha, beta])"),
                missing);
        assertEquals(null, SkipComparison.missing(SYNC, List.of("alpha")), "a sync point names no system");
    }

    @Test
    void theRenamedSystemClauseNamesTheFirstTenSystemsAndCountsTheRest() {
        List<String> systems = new ArrayList<>();
        for (int i = 0; i < 40; i++) {
            systems.add("system" + i);
        }
        String m = SkipComparison.missing("gone", systems);
        assertTrue(m.startsWith("the replaying game has no system 'gone' (its 40 systems: [system0, system1, "
                + "system2, system3, system4, system5, system6, system7, system8, system9] and 30 more), so it was "
                + "renamed or removed since the recording"), m);
        assertFalse(m.contains("system10"), m);
        String few = SkipComparison.missing("gone", systems.subList(0, 10));
        assertTrue(few.contains("(its systems: [system0, system1, system2, system3, system4, system5, system6, "
                + "system7, system8, system9]), so"), few);
    }
}
