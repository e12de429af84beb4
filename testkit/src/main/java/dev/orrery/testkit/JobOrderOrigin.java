package dev.orrery.testkit;

import dev.orrery.engine.Simulation;
import dev.orrery.scheduler.executor.JobOrderOverride;
import java.util.List;

/**
 * Finds which system's job order a difference follows, for a failure of the run with every
 * system's jobs in reverse order: the diagnosis names the system after which the state first
 * differs, but when jobs build a result outside the world (a float total they add to, a queue
 * drained later in arrival order), that is the later system that reads it, not the one whose
 * jobs built it. Reversing one system's jobs at a time, in the schedule's order, names the first
 * whose order alone makes the runs differ.
 *
 * <p><b>Threading:</b> builds and ticks its simulations on the calling thread and closes them.
 */
final class JobOrderOrigin {
    private JobOrderOrigin() {
    }

    /**
     * The first system, in the schedule's order up to {@code culprit}, whose jobs alone run in
     * reverse order make a run on one worker differ from the reference by tick {@code tick};
     * {@code null} when none does on its own (the difference needs several systems reversed).
     */
    static String find(SimulationFactory factory, InputScript script, String culprit, long tick) {
        long[] reference = new long[(int) tick + 1];
        List<String> systems;
        try (Simulation ref = factory.create(1, true)) {
            systems = ref.schedule().systemNames();
            ref.inputs(new ScriptInputs(script));
            for (int k = 0; k <= tick; k++) {
                ref.tick();
                reference[k] = ResourceState.hash(ref);
            }
        }
        for (String system : systems) {
            if (differs(factory, script, system, reference)) {
                return system;
            }
            if (system.equals(culprit)) {
                return null;
            }
        }
        return null;
    }

    private static boolean differs(SimulationFactory factory, InputScript script, String system, long[] reference) {
        JobOrderOverride.reverseOnly(system);
        Simulation sim;
        try {
            sim = factory.create(1, true);
        } finally {
            JobOrderOverride.clear();
        }
        return ResourceState.firstDifference(sim, script, reference) >= 0;
    }

    /** The sentence a report adds when {@code origin}, not {@code culprit}, is the system whose job order shows. */
    static String explain(String origin, String culprit) {
        return "; the jobs of system '" + origin + "' alone, run in reverse order, make the runs differ: '" + origin
                + "' builds a result in the order its jobs run, outside the world (a float total they add to, a queue "
                + "drained in arrival order), which '" + culprit + "' reads";
    }
}
