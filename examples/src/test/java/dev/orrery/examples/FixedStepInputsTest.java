package dev.orrery.examples;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.orrery.ecs.World;
import dev.orrery.engine.InputPipeline;
import dev.orrery.engine.Simulation;
import dev.orrery.scheduler.FixedTimestep;
import dev.orrery.scheduler.Phase;
import dev.orrery.scheduler.ResourceKey;
import org.junit.jupiter.api.Test;

/**
 * Fixed steps x inputs, the figures docs/reacting-to-change.md gives ("Inputs do not belong in
 * a fixed-step phase"): a system in a fixed-step phase sees the tick's {@code Simulation.INPUTS}
 * once per sub-step, so 30 inputs sent one a tick over 30 ticks of 7 units with 10-unit steps
 * are applied 21 times (not at all in the 9 ticks of no step), and over ticks of 17 units 51
 * times (twice in a tick of two steps), while the same system in {@code PreUpdate} applies
 * each once.
 */
class FixedStepInputsTest {
    static final ResourceKey<FixedTimestep> STEP = ResourceKey.of("step", FixedTimestep.class);
    static final ResourceKey<int[]> APPLIED = ResourceKey.of("applied", int[].class);

    private static long[] run(long unitsPerTick, boolean inFixedStep) {
        Phase physics = Phase.named("Physics");
        try (Simulation sim = Simulation.builder(new World()).seed(1)
                .resource(STEP, new FixedTimestep(10, unitsPerTick, 4)).resource(APPLIED, new int[1])
                .systems(s -> s.phases(Phase.PRE_UPDATE, physics, Phase.UPDATE).fixedTimestep(physics, STEP)
                        .system("apply inputs").inPhase(inFixedStep ? physics : Phase.PRE_UPDATE)
                        .readsResource(Simulation.INPUTS).writesResource(APPLIED)
                        .exclusive((w, job) -> job.resourceForWrite(APPLIED)[0] += job.resource(Simulation.INPUTS).size()))
                .build();
                InputPipeline inputs = InputPipeline.builder().build()) {
            sim.inputs(inputs);
            for (int t = 0; t < 30; t++) {
                inputs.tryPublish(0, 1, new byte[4], 0, 4);
                sim.tick();
            }
            return new long[] {sim.resources().get(APPLIED)[0], sim.resources().get(STEP).steps()};
        }
    }

    @Test
    void shouldApplyTheTicksInputsOncePerSubStepInAFixedStepPhaseAndOnceATickOutsideIt() {
        assertEquals(21, run(7, true)[1], "sub-steps in 30 ticks of 7 units with 10-unit steps");
        assertEquals(21, run(7, true)[0], "inside the fixed step: once per sub-step, none in a tick of no step");
        assertEquals(51, run(17, true)[0], "17-unit ticks: twice in a tick of two steps");
        assertEquals(30, run(7, false)[0], "in PreUpdate: each input once");
        assertEquals(30, run(17, false)[0], "in PreUpdate: each input once");
    }
}
