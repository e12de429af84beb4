package dev.orrery.testkit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.orrery.ecs.Relation;
import dev.orrery.engine.Simulation;
import dev.orrery.scheduler.executor.TieOrderOverride;
import dev.orrery.testkit.Colony.Flaw;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * docs/determinism.md followed end to end on a game that uses many features at once (phases,
 * command-buffer spawns and despawns, a parent relation, a sparse component set by an observer
 * hook, events and a resource with codecs, scripted inputs, the counter random): it passes
 * every run, and each mistake a newcomer would make in it is named with its system.
 */
class NewcomerGameTest {
    private static DeterminismCheck check(Flaw f) {
        return DeterminismCheck.of(Colony.factory(f)).ticks(60).inputs(Colony.PLAYERS).workers(1, 2);
    }

    @Test
    void shouldProveTheColonyDeterministicAcrossWorkersSnapshotAndReplay() {
        try (Simulation sim = Colony.build(1, true, Flaw.NONE)) {
            sim.inputs(new ScriptInputs(Colony.PLAYERS));
            for (int t = 0; t < 60; t++) {
                sim.tick();
            }
            // the features really ran: births with parents, deaths, cures that made colonists immune
            Relation childOf = sim.world().relations().childOf();
            long children = sim.world().query().with(childOf.column()).build().count();
            assertTrue(sim.resources().get(Colony.STATS).births > 0 && children > 0, "births " + children);
            assertTrue(sim.world().entityCount() < 400 + sim.resources().get(Colony.STATS).births, "nobody starved");
            int[] immune = {0};
            sim.world().query().with(sim.world().component(Colony.Immune.class)).build().forEach((v, row) -> immune[0]++);
            assertTrue(immune[0] > 0, "no colonist was cured");
            // the graph leaves systems unordered, so the run with ties flipped really runs another order
            assertFalse(TieOrderOverride.flippedPairs(sim.schedule()).isEmpty(), sim.schedule().toString());
        }
        List<String> runs = check(Flaw.NONE).run();
        assertEquals(List.of("reference: 1 worker, the game's own batching", "1 worker, the game's own batching",
                "1 worker, jobs in reverse order", "1 worker, unordered systems in reverse order", "2 workers, the game's own batching", "2 workers, batch 1", "2 workers, batch 64",
                "restored from the snapshot of tick 30 on 1 worker", "restored from the snapshot of tick 30 on 2 workers",
                "recorded on 2 workers", "the recording replayed on 1 worker", "the recording replayed on 2 workers"), runs);
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource({"HASH_MAP_ORDER, dens, Energy", "NANO_TIME, wander, Position", "UNSEEDED_RANDOM, wander, Position",
        "SHARED_STATIC, metabolism, Energy"})
    void shouldNameTheSystemOfEachMistake(Flaw flaw, String system, String component) {
        DeterminismFailure f = assertThrows(DeterminismFailure.class, () -> check(flaw).run());
        assertEquals(system, f.system(), f.getMessage());
        assertTrue(f.getMessage().contains("components whose values differ: [" + component), f.getMessage());
    }
}
