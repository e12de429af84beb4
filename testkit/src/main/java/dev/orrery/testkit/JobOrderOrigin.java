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
 * whose order alone makes the runs differ, unless the game keeps state that outlives a simulation
 * ({@link OutlivingState}), which would make every such run differ.
 *
 * <p><b>Threading:</b> builds and ticks its simulations on the calling thread and closes them.
 */
final class JobOrderOrigin {
    private JobOrderOrigin() {
    }

    /**
     * The diagnosis of the run with jobs in reverse order differing from the reference at tick
     * {@code tick}, given {@code trail}, the diagnosis naming the system after which the state first
     * differs (not null): {@code trail} with the first system, in the schedule's order up to that one, whose
     * jobs alone run in reverse order make a run on one worker differ from the reference by
     * {@code tick}, when that is another system; {@code trail} itself when it is that system, or
     * when none does on its own (the difference needs several systems reversed). When a run in the
     * usual order, built anew, differs from the reference too, no system's job order is to blame
     * and the diagnosis names the state that outlives a simulation instead (see
     * {@link OutlivingState}). {@code factory} is the check's checked factory
     * ({@link FactoryCall#checked}), so a factory that misbehaves only here is refused as the
     * check's own runs refuse it.
     */
    static Diagnosis find(SimulationFactory factory, InputScript script, Diagnosis trail, long tick) {
        String culprit = trail.system();
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
        long left = OutlivingState.firstDifference(factory, script, reference);
        if (left >= 0) { // every run below would differ too, and the first system tried would take the blame
            return OutlivingState.diagnosis(culprit, trail.text(), "system's jobs", left, null);
        }
        for (String system : systems) {
            if (differs(factory, script, system, reference)) {
                return system.equals(culprit) ? trail : new Diagnosis(system, trail.text() + explain(system, culprit));
            }
            if (system.equals(culprit)) {
                return trail;
            }
        }
        return trail;
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
    private static String explain(String origin, String culprit) {
        return "; the jobs of system '" + origin + "' alone, run in reverse order, make the runs differ: '" + origin
                + "' builds a result in the order its jobs run, outside the world (a float total they add to, a queue "
                + "drained in arrival order), which '" + culprit + "' reads";
    }
}
