package dev.orrery.cluster.world;

import dev.orrery.engine.Simulation;
import dev.orrery.engine.internal.EngineInternals;
import java.util.ArrayList;
import java.util.List;

/**
 * The resources a world's snapshots leave out that can matter: those its blueprint puts
 * without a codec and a system declares it writes or reduces into ({@code writesResource},
 * {@code reducesResource}; the clock, the inputs and the random source aside, which the engine
 * rebuilds from the tick and the seed). A move rebuilds them as the blueprint puts them: right
 * for one rebuilt from the world every tick, wrong for a counter or a cache a system keeps in
 * one across ticks, which is lost. Read-only configuration without a codec is left out too, and
 * rightly, since the blueprint puts it the same on every node: it is not named, unless the
 * world has an exclusive system, which may write any resource whatever it declares (then every
 * resource without a codec is named, with that reason). A node names
 * them when it restores a world from a snapshot, and a replay that does not reproduce a
 * journaled hash names them among the causes; the test kit's {@code DeterminismCheck} names
 * the same ones, by the same rule, when its restored run differs (the engine's
 * {@code EngineInternals.resourcesWritableWithoutCodec} is that rule, for both).
 */
public final class ResourcesLeftOut {
    private ResourcesLeftOut() {
    }

    /**
     * The names of the resources {@code sim} holds without a snapshot codec that a system
     * writes or reduces into (or, with an exclusive system, may), in the order put: those a
     * move rebuilds from the blueprint and that may have held state (read between ticks, on
     * the tick thread).
     *
     * @param sim the world's simulation, between ticks
     * @return an unmodifiable list of resource names, empty when none can hold lost state
     */
    public static List<String> of(Simulation sim) {
        return named(sim, false);
    }

    /**
     * {@link #of} with the reason for each: {@code Counter (written by 'count')}, or
     * {@code Settings (exclusive system 'inputs' may write any resource)}.
     *
     * @param sim the world's simulation, between ticks
     * @return an unmodifiable list, one entry per name {@link #of} gives, in the same order
     */
    public static List<String> described(Simulation sim) {
        return named(sim, true);
    }

    private static List<String> named(Simulation sim, boolean why) {
        List<String> out = new ArrayList<>();
        EngineInternals.resourcesWritableWithoutCodec(sim)
                .forEach((name, reason) -> out.add(why ? name + " (" + reason + ")" : name));
        return List.copyOf(out);
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
