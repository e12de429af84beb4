package dev.orrery.testkit;

import dev.orrery.engine.Simulation;

/**
 * Where the kit runs against where the engine runs. The engine and the scheduler export the
 * internals the kit uses only to the module {@code dev.orrery.testkit}; a kit on the class path
 * (the unnamed module) beside an engine on the module path cannot reach them, which is what
 * Maven Surefire makes of a game with a {@code module-info.java} and the kit in test scope.
 * Each entry point refuses that before anything runs, naming the fix, rather than failing with
 * an {@code IllegalAccessError} part-way through a run.
 *
 * <p><b>Threading:</b> stateless.
 */
final class KitModule {
    private KitModule() {
    }

    /**
     * Refuses {@code entry} (the kit's call, as a user wrote it) when the kit is on the class
     * path and the engine on the module path.
     *
     * @throws IllegalStateException naming both and the fix
     */
    static void check(String entry) {
        Module kit = KitModule.class.getModule();
        Module engine = Simulation.class.getModule();
        if (kit.isNamed() || !engine.isNamed()) {
            return; // both on the class path, or the kit a module the engine exports to
        }
        throw new IllegalStateException(entry + ": orrery-testkit is on the class path while orrery-engine is on "
                + "the module path (module " + engine.getName() + "), which exports the internals the kit uses only to "
                + "the module dev.orrery.testkit; run the tests on the class path (Maven Surefire: "
                + "<useModulePath>false</useModulePath>), or put orrery-testkit on the module path too "
                + "(--add-modules dev.orrery.testkit); see 'Using Orrery from your build' in docs/README.md");
    }
}
