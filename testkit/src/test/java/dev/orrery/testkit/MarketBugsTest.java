package dev.orrery.testkit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.orrery.engine.Simulation;
import dev.orrery.testkit.Market.Bug;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * A newcomer proves {@link Market} deterministic with the check docs/determinism.md recommends,
 * then plants, one at a time, the mistakes users make; each fails the check with the run that
 * shows it, the planted system, what differs and a likely cause in the newcomer's words.
 */
class MarketBugsTest {
    private static DeterminismCheck check(Bug bug) {
        return DeterminismCheck.of(Market.factory(bug)).ticks(60).workers(1, 2, 4);
    }

    @Test
    void shouldPassTheMarketWrittenByTheRules() {
        List<String> runs = check(Bug.NONE).run();
        assertEquals(15, runs.size(), runs.toString());
        try (Simulation sim = Market.build(1, true, Bug.NONE)) {
            long first = sim.world().query().with(sim.world().component(Market.Cargo.class)).build().count();
            for (int t = 0; t < 60; t++) {
                sim.tick();
            }
            Market.Bank bank = sim.resources().get(Market.BANK);
            assertTrue(bank.sales > 0 && bank.carried > 0 && bank.gold > 100, "the traders sold and the bank grew: " + bank.sales + " " + bank.carried + " " + bank.gold);
            assertEquals(Market.TRADERS, first);
            assertEquals(Market.TRADERS + Market.GUIDES, sim.world().entityCount(), "every retired trader was replaced");
        }
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource(delimiter = '|', value = {
        "IDENTITY_HASH_MAP      | 1 worker, the game's own batching | Cargo  | a HashMap or HashSet iterated",
        "NANO_TIME              | 1 worker, the game's own batching | Cargo  | another wall clock",
        "THREAD_LOCAL_RANDOM    | 1 worker, the game's own batching | Pos    | ThreadLocalRandom",
        "FLOAT_SUM_IN_JOB_ORDER | 1 worker, jobs in reverse order   |        | a float total they add to",
        "LEADER_BY_ID           | 1 worker, jobs in reverse order   | Pos    | a by-id read (job.get, job.getFloat)"})
    void shouldNameThePlantedSystemWhatDiffersAndALikelyCause(Bug bug, String run, String component, String cause) {
        assertNamesThePlantedSystem(bug, run, component, cause);
    }

    /**
     * The identity-hashed map differs from build to build only by chance: with six stalls two
     * builds iterated the ones that matter alike about one check in ten, and the case above
     * then named a later run or showed no component. Sixty checks in a row, each building the
     * reference, the runs and the report's reference anew, all name it as the case above does.
     */
    @Test
    void shouldNameTheIdentityHashedMapInEveryCheckNotOnlyMostOfThem() {
        for (int i = 0; i < 60; i++) {
            assertNamesThePlantedSystem(Bug.IDENTITY_HASH_MAP, "1 worker, the game's own batching", "Cargo",
                    "a HashMap or HashSet iterated");
        }
    }

    private static void assertNamesThePlantedSystem(Bug bug, String run, String component, String cause) {
        DeterminismFailure f = assertThrows(DeterminismFailure.class, () -> check(bug).run());
        String m = f.getMessage();
        assertEquals(run, f.run(), m);
        assertEquals(bug.system, f.system(), m);
        assertTrue(m.contains("first difference after system '" + bug.system + "' at tick "), m);
        if (component != null) {
            assertTrue(m.contains("components whose values differ: [") && m.contains(component + "]")
                    || m.contains(component + ","), m);
        } else {
            assertTrue(m.contains("resource 'bank'") && m.contains("only the resources above differ"), m);
        }
        assertTrue(m.contains("likely cause") && m.contains(cause), m);
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource(delimiter = '|', value = {
        "STATIC_SHARED | retire | tax",
        "BANK_CAPTURED | tax    | interest"})
    void shouldNameBothSystemsOfAnUnorderedPairSharingState(Bug bug, String earlier, String later) {
        DeterminismFailure f = assertThrows(DeterminismFailure.class, () -> check(bug).run());
        String m = f.getMessage();
        assertEquals("1 worker, unordered systems in reverse order", f.run(), m);
        assertTrue(m.contains("systems '" + earlier + "' and '" + later + "', which the graph leaves unordered"), m);
        assertTrue(List.of(earlier, later).contains(f.system()) && List.of(earlier, later).contains(bug.system), m);
        assertTrue(m.contains("likely cause: state shared between systems the graph leaves unordered"), m);
    }
}
