package dev.orrery.engine;

import dev.orrery.surface.ModuleSurfaceContract;
import java.util.Map;
import java.util.Set;

/**
 * Module {@code dev.orrery.engine}: the simulation, inputs, record and replay, randomness and codecs, and the host of many worlds, to everyone; the journal format only to the explorer, the cluster and the test kit, the internals door only to the test kit, the cluster and the explorer, and the JFR events only to {@code jdk.jfr}; the pacing loop ({@code engine.tick}) to no one; see {@link ModuleSurfaceContract}.
 */
class ModuleSurfaceTest extends ModuleSurfaceContract {
    @Override
    protected Class<?> anchor() {
        return Simulation.class;
    }

    @Override
    protected Set<String> exportedToAll() {
        return Set.of("dev.orrery.engine", "dev.orrery.engine.host");
    }

    @Override
    protected Map<String, Set<String>> qualifiedExports() {
        return Map.of(
                "dev.orrery.engine.internal", Set.of("dev.orrery.testkit", "dev.orrery.cluster", "dev.orrery.explorer"),
                "dev.orrery.engine.jfr", Set.of("jdk.jfr"),
                "dev.orrery.engine.journal", Set.of("dev.orrery.explorer", "dev.orrery.cluster", "dev.orrery.testkit"));
    }
}
