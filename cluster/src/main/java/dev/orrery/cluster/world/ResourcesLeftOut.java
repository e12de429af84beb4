package dev.orrery.cluster.world;

import dev.orrery.engine.Simulation;
import dev.orrery.scheduler.ResourceKey;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;

/**
 * The resources a world's snapshots leave out: those its blueprint puts without a codec
 * (the clock, the inputs and the random source aside, which the engine rebuilds from the tick
 * and the seed). A move rebuilds them as the blueprint puts them, so they must be
 * configuration, or be rebuilt from the world every tick; a counter or a cache a system keeps
 * in one across ticks is lost. A node names them when it restores a world from a snapshot,
 * and a replay that does not reproduce a journaled hash names them among the causes.
 */
public final class ResourcesLeftOut {
    private static final Set<ResourceKey<?>> BUILT_INS = Set.of(Simulation.CLOCK, Simulation.INPUTS, Simulation.RANDOM);

    private ResourcesLeftOut() {
    }

    /**
     * The names of the resources {@code sim} holds without a snapshot codec, in the order
     * put: those a move rebuilds from the blueprint (read between ticks, on the tick thread).
     */
    public static List<String> of(Simulation sim) {
        List<String> names = new ArrayList<>();
        for (ResourceKey<?> key : sim.resources().keys()) {
            if (!BUILT_INS.contains(key) && sim.resourceCodecs().of(key) == null) {
                names.add(key.name());
            }
        }
        return List.copyOf(names);
    }

    /**
     * The causes of a replay that did not reproduce a journaled hash, the resources a snapshot
     * leaves out named among them, with the fix for each.
     */
    static String replayMismatchCauses(List<String> leftOut) {
        String causes = "the blueprint differs from the one the world ran with, or a system is not deterministic";
        if (leftOut.isEmpty()) {
            return causes;
        }
        return causes + ", or a system keeps state across ticks in a resource put without a codec, which a snapshot "
                + "leaves out and a move rebuilds as the blueprint puts it (this world's: " + String.join(", ", leftOut)
                + "); give such a resource a codec in the blueprint (SimulationBuilder.resource(key, value, codec)), "
                + "and check a blueprint before it runs in a cluster with orrery-testkit's DeterminismCheck, which "
                + "restores a snapshot mid-run";
    }
}
