package dev.orrery.testkit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.orrery.ecs.component.Storage;
import dev.orrery.engine.Simulation;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The kit on {@link Tides}, where events, a state machine, a fixed timestep, run conditions,
 * sparse columns, ChildOf relations, an observer hook and a change filter meet: every run
 * agrees, across worker counts, snapshots taken where a state request and unread events are
 * pending, and a replay.
 */
class TidesDeterminismTest {
    @Test
    void theGameUsesEveryFeatureItClaims() {
        try (Simulation sim = Tides.build(2, true)) {
            for (int t = 0; t < 40; t++) {
                if (t == 4 || t == 13) {
                    sim.resources().get(Tides.SEA).request(t == 4 ? Tides.Sea.STORM : Tides.Sea.CALM);
                }
                sim.tick();
            }
            Tides.Log log = sim.resources().get(Tides.LOG);
            assertTrue(log.bumps > 0 && log.entered == 1 && log.exited == 1 && log.changedRows > 0,
                    "bumps " + log.bumps + ", entered " + log.entered + ", exited " + log.exited + ", changed " + log.changedRows);
            assertTrue(log.physicsSteps > 0 && log.physicsSteps != 40, "physics steps " + log.physicsSteps);
            assertTrue(sim.world().query().with(sim.world().component(Tides.Shell.class, Storage.SPARSE)).build().count() > 0,
                    "shells were spawned");
            assertTrue(sim.world().entityCount() != 600, "the storm spawned and despawned: " + sim.world().entityCount());
        }
    }

    @Test
    void everyRunAgreesAcrossWorkersSnapshotAndReplay() {
        List<String> runs = DeterminismCheck.of(Tides::build).inputs(Tides.PLAYERS).ticks(40).workers(1, 4).run();
        assertTrue(runs.contains("the recording replayed on 4 workers"), runs.toString());
    }

    @Test
    void aSnapshotWithAPendingRequestAndUnreadEventsRestoresTheSameRun() {
        for (long at : new long[] {4, 5, 13, 14, 22}) {
            List<String> runs = DeterminismCheck.of(Tides::build).inputs(Tides.PLAYERS).ticks(30).workers(1, 4)
                    .snapshotAt(at).recordAndReplay(false).reverseJobOrder(false).flipSystemOrder(false)
                    .batchSizes().run();
            assertTrue(runs.stream().anyMatch(r -> r.startsWith("restored from the snapshot of tick " + at)), at + ": " + runs);
        }
    }

    @Test
    void aRunDependentValueInAFixedStepOrAnOnEnterSystemIsLaidAtThatSystem() {
        for (Tides.Flaw flaw : new Tides.Flaw[] {Tides.Flaw.IN_FIXED_STEP, Tides.Flaw.ON_ENTER}) {
            DeterminismFailure f = assertThrows(DeterminismFailure.class,
                    () -> DeterminismCheck.of((workers, populate) -> Tides.build(workers, populate, flaw))
                            .inputs(Tides.PLAYERS).ticks(30).workers(1, 2).run());
            assertEquals(flaw == Tides.Flaw.IN_FIXED_STEP ? "integrate" : "brood", f.system(), f.getMessage());
        }
    }
}
