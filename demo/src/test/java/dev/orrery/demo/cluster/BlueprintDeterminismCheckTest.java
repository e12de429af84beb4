package dev.orrery.demo.cluster;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.orrery.cluster.world.WorldBlueprint;
import dev.orrery.testkit.DeterminismCheck;
import dev.orrery.testkit.SimulationFactory;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * A cluster game checked with the test kit before it is deployed, as the cluster chapter
 * advises: a {@link WorldBlueprint} is {@code (worldId, populate)} and builds one worker, a
 * {@link SimulationFactory} is {@code (workers, populate)}. The adapter that ignores the worker
 * count must not let the kit report runs "on 4 workers" that ran on one: the kit refuses it,
 * naming the fix, and checks the blueprint on the one worker it runs with.
 */
class BlueprintDeterminismCheckTest {
    private static final WorldBlueprint ARENA = ClusterDemo.blueprint(200, 2, 42, 30);
    private static final SimulationFactory FROM_BLUEPRINT = (workers, populate) -> ARENA.build("arena-0", populate);

    @Test
    void aBlueprintIsCheckedOnTheOneWorkerItRunsWith() {
        List<String> runs = DeterminismCheck.of(FROM_BLUEPRINT).ticks(40).workers(1).run();
        assertTrue(runs.contains("restored from the snapshot of tick 20 on 1 worker"), runs.toString());
        assertTrue(runs.stream().noneMatch(r -> r.contains("workers")), "every run on one worker: " + runs);
    }

    @Test
    void runsOnMoreWorkersThanTheFactoryBuiltAreRefusedNotReported() {
        IllegalStateException e = assertThrows(IllegalStateException.class,
                () -> DeterminismCheck.of(FROM_BLUEPRINT).ticks(40).workers(1, 4).run());
        assertTrue(e.getMessage().contains("SimulationFactory.create(4, true) returned a simulation on 1 worker")
                && e.getMessage().contains(".workers(workers)")
                && e.getMessage().contains("workers(1)"), e.getMessage());
        assertEquals(1, ARENA.build("arena-0", false).workers(), "the blueprint builds one worker, as the chapter says");
    }
}
