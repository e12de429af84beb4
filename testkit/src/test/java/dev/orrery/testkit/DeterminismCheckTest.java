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
        assertEquals("1 worker, jobs in reverse order", runs.get(2), "after the runs on 1 worker, before those on more: "
                + runs);
        assertTrue(runs.stream().anyMatch(r -> r.startsWith("restored from the snapshot of tick 20")), runs.toString());
        assertTrue(runs.stream().anyMatch(r -> r.startsWith("the recording replayed on 4 workers")), runs.toString());
        assertEquals("1 worker, unordered systems in reverse order", runs.get(3), runs.toString());
        // the reference, 5 worker/batch runs, jobs in reverse order, unordered systems in reverse order, 2 restores,
        // 1 recording, 2 replays
        assertEquals(13, runs.size(), runs.toString());
        assertFalse(check(Mistake.NONE).reverseJobOrder(false).run().contains("1 worker, jobs in reverse order"));
        assertFalse(check(Mistake.NONE).flipSystemOrder(false).run().contains("1 worker, unordered systems in reverse "
                + "order"));
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

    @ParameterizedTest(name = "{0}")
    @EnumSource(value = Mistake.class, names = {"STATIC_COUNTER_SPAWN", "HOOK_SHARED_STATE"})
    void shouldNameTheSystemWhoseCommandsDifferNotTheNextOne(Mistake mistake) {
        // the spawn waits in the command buffer, so the world after 'mistake' agrees: the difference
        // shows once its commands (and the hook they fire) are applied, and belongs to 'mistake'
        DeterminismFailure f = assertThrows(DeterminismFailure.class, () -> check(mistake).run());
        assertEquals(Garden.MISTAKE, f.system(), f.getMessage());
        assertTrue(f.getMessage().contains("first difference when the commands of system 'mistake' were applied (the "
                + "sync point at the end of tick 0;"), f.getMessage());
        assertTrue(f.getMessage().contains("or an observer hook (world.observe) those commands fired"), f.getMessage());
        assertTrue(f.getMessage().contains("Seed.vigor"), f.getMessage());
    }

    @Test
    void shouldCatchAResourceWithACodecThatDiffersWhileTheWorldAgrees() {
        // the score never reaches the world, so World.stateHash() agrees; a snapshot carries it, so it is state
        DeterminismFailure f = assertThrows(DeterminismFailure.class, () -> check(Mistake.SCORE_ONLY).run());
        assertEquals(Garden.MISTAKE, f.system(), f.getMessage());
        assertEquals(0, f.tick(), f.getMessage());
        assertTrue(f.getMessage().contains("first difference after system 'mistake' at tick 0"), f.getMessage());
        assertTrue(f.getMessage().contains("resource 'score': its codec writes 8 bytes here and 8 in the reference, "
                + "first differing at byte 7 (Score["), f.getMessage());
        assertTrue(f.getMessage().contains("only the resources above differ"), f.getMessage());
        assertTrue(f.differences().isEmpty(), f.getMessage());
    }

    @Test
    void shouldCatchAFloatTotalAddedInTheOrderTheJobsRanEveryTime() {
        // on several workers the jobs finish in chunk order often enough for the total to agree; in reverse it never does
        DeterminismFailure f = assertThrows(DeterminismFailure.class,
                () -> check(Mistake.FLOAT_TOTAL_IN_JOB_ORDER).run());
        assertEquals("1 worker, jobs in reverse order", f.run(), f.getMessage());
        assertEquals(Garden.MISTAKE, f.system(), f.getMessage());
        assertEquals(0, f.tick(), f.getMessage());
        assertTrue(f.getMessage().contains("first difference after system 'mistake' at tick 0"), f.getMessage());
        assertTrue(f.getMessage().contains("the second with every system's jobs in reverse order"), f.getMessage());
        assertTrue(f.getMessage().contains("resource 'total'"), f.getMessage());
        assertTrue(f.getMessage().contains("only the resources above differ"), f.getMessage());
    }

    @Test
    void shouldCatchAListFilledInTheOrderTheJobsRanEveryTime() {
        DeterminismFailure f = assertThrows(DeterminismFailure.class, () -> check(Mistake.LIST_IN_JOB_ORDER).run());
        assertEquals("1 worker, jobs in reverse order", f.run(), f.getMessage());
        assertEquals(Garden.MISTAKE, f.system(), f.getMessage());
        assertEquals(0, f.tick(), f.getMessage());
        assertTrue(f.getMessage().contains("first difference after system 'mistake' at tick 0"), f.getMessage());
        assertTrue(f.getMessage().contains("Wind.gust"), f.getMessage());
        // one worker forward fills the list in chunk order every time: only the reverse order shows the mistake
        List<String> passed = check(Mistake.LIST_IN_JOB_ORDER).workers(1).reverseJobOrder(false).recordAndReplay(false)
                .run();
        assertFalse(passed.contains("1 worker, jobs in reverse order"), passed.toString());
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
        // the snapshot leaves out 'season' (no codec), which systems declare they write: the report names it and the fix
        assertTrue(f.getMessage().contains("likely cause: a resource without a codec that a system writes, which the "
                + "snapshot leaves out and the restored run gets as the factory puts it: 'season' (written by 'mistake', "
                + "'season')"), f.getMessage());
        assertTrue(f.getMessage().contains("SimulationBuilder.resource(key, value, codec)"), f.getMessage());
        assertFalse(f.getMessage().contains("'score' (written by"), "score has a codec: " + f.getMessage());
    }

    @Test
    void shouldNameASystemThatCapturedAResourceObjectWhenTheRestoredRunDiffers() {
        // every run but a restored one agrees: there the store holds the restored score, which the system never changes
        DeterminismFailure f = assertThrows(DeterminismFailure.class, () -> check(Mistake.CAPTURED_RESOURCE).run());
        assertTrue(f.run().startsWith("restored from the snapshot of tick 20"), f.getMessage());
        assertEquals(Garden.MISTAKE, f.system(), f.getMessage());
        assertEquals(20, f.tick(), f.getMessage());
        assertTrue(f.getMessage().contains("likely cause: a system that captured a resource object instead of reading "
                + "job.resource(KEY)"), f.getMessage());
        assertTrue(f.getMessage().contains("after the restore, something went on changing the object the factory put "
                + "under resource 'score'"), f.getMessage());
        assertTrue(f.getMessage().contains("resource 'score': its codec writes"), f.getMessage());
    }

    private static DeterminismCheck small(SimulationFactory factory) {
        return DeterminismCheck.of(factory).ticks(6).inputs(Garden.GARDENER).workers(1, 2).batchSizes();
    }

    @Test
    void shouldRefuseASnapshotTickAtOrPastTheLastTickBeforeRunning() {
        int[] built = {0};
        SimulationFactory counting = (w, p) -> {
            built[0]++;
            return Garden.build(w, p, Mistake.NONE);
        };
        IllegalArgumentException past = assertThrows(IllegalArgumentException.class,
                () -> DeterminismCheck.of(counting).ticks(3).snapshotAt(10).run());
        assertTrue(past.getMessage().startsWith("snapshotAt(10) is not before the last tick: the check runs 3 ticks")
                && past.getMessage().contains("from 1 to 2") && past.getMessage().contains("snapshotAt(0)"),
                past.getMessage());
        IllegalArgumentException atEnd = assertThrows(IllegalArgumentException.class,
                () -> DeterminismCheck.of(counting).snapshotAt(3).ticks(3).run());
        assertTrue(atEnd.getMessage().startsWith("snapshotAt(3) is not before the last tick"), atEnd.getMessage());
        assertEquals(0, built[0], "nothing ran");
        List<String> runs = small(counting).snapshotAt(5).recordAndReplay(false).run();
        assertTrue(runs.contains("restored from the snapshot of tick 5 on 1 worker"), runs.toString());
    }

    @Test
    void shouldRefuseAnEmptyWorkerList() {
        DeterminismCheck check = DeterminismCheck.of(Garden.factory(Mistake.NONE));
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, check::workers);
        assertTrue(e.getMessage().startsWith("workers() needs at least one worker count"), e.getMessage());
    }

    @Test
    void shouldNameTheFactoryWhenItReturnsNull() {
        IllegalStateException e = assertThrows(IllegalStateException.class,
                () -> small((w, p) -> null).run());
        assertTrue(e.getMessage().startsWith("SimulationFactory.create(1, true) returned null to DeterminismCheck.run")
                && e.getMessage().contains("Simulation.builder(world)"), e.getMessage());
    }

    @Test
    void shouldNameTheFactorysPopulateFlagWhenItIgnoresIt() {
        IllegalStateException holds = assertThrows(IllegalStateException.class,
                () -> small((w, p) -> Garden.build(w, true, Mistake.NONE)).run());
        assertTrue(holds.getMessage().startsWith("SimulationFactory.create(1, false) returned a simulation whose world "
                + "holds 3000 entities") && holds.getMessage().contains("with populate false the factory must spawn "
                + "nothing"), holds.getMessage());
        // a world that held an entity and let it go is not new either: refused before any restore or replay
        IllegalStateException held = assertThrows(IllegalStateException.class, () -> small((w, p) -> {
            var sim = Garden.build(w, p, Mistake.NONE);
            if (!p) {
                sim.world().despawn(sim.world().spawn(new Garden.Growth(0)));
            }
            return sim;
        }).run());
        assertTrue(held.getMessage().startsWith("SimulationFactory.create(1, false) returned a simulation whose world "
                + "held entities before (despawned ones keep their ids)"), held.getMessage());
        IllegalStateException replayed = assertThrows(IllegalStateException.class, () -> small((w, p) -> {
            var sim = Garden.build(w, p, Mistake.NONE);
            if (!p) {
                sim.world().despawn(sim.world().spawn(new Garden.Growth(0)));
            }
            return sim;
        }).snapshotAt(0).run());
        assertTrue(replayed.getMessage().contains("held entities before (despawned ones keep their ids)")
                && replayed.getCause() == null, replayed.getMessage());
    }

    /**
     * A factory that returns one Simulation again (kept in a field): every run after the
     * reference got the closed simulation, and the check failed with a determinism report,
     * "1 worker, the game's own batching failed at tick 0: simulation is closed", as if the game
     * were at fault. It is refused naming the factory and the fix. (A factory that builds new
     * simulations on one kept World is refused by the engine already, since the check holds two
     * open at once: "build each simulation on a world of its own (new World())".)
     */
    @Test
    void shouldNameTheFactoryWhenItReturnsASimulationItReturnedBefore() {
        dev.orrery.engine.Simulation once = Garden.build(1, true, Mistake.NONE);
        IllegalStateException same = assertThrows(IllegalStateException.class, () -> small((w, p) -> once).run());
        assertTrue(same.getMessage().startsWith("SimulationFactory.create(1, true) returned a simulation on a World "
                + "that an earlier call returned") && same.getMessage().contains("new World()")
                && same.getMessage().contains("each call"), same.getMessage());
    }
}
