package dev.orrery.engine;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.orrery.ecs.World;
import dev.orrery.ecs.component.Component;
import org.junit.jupiter.api.Test;

/**
 * A simulation whose input pipeline was closed while it still reads it (a server shutting its
 * clients' pipelines before its worlds) fails its next tick with a message that says which
 * pipeline, who closed it, and the two fixes, not only "build a new one".
 */
class ClosedPipelineTickTest {
    record Hp(int hp) {
    }

    @Test
    void shouldNameTheClosingThreadAndTheFixWhenATickFindsItsPipelineClosed() {
        World world = new World();
        Component<Hp> hp = world.component(Hp.class);
        InputPipeline inputs = InputPipeline.builder().build();
        try (Simulation sim = Simulation.builder(world).inputs(inputs)
                .systems(s -> s.system("heal").query(world.query().with(hp).build()).writes(hp).forEachChunk(job -> { }))
                .build()) {
            sim.tick();
            inputs.close();                                       // too early: the simulation still reads it
            IllegalStateException e = assertThrows(IllegalStateException.class, sim::tick);
            String m = e.getMessage();
            assertTrue(m.contains("tick 1"), m);
            assertTrue(m.contains("closed by thread '" + Thread.currentThread().getName() + "'"), m);
            assertTrue(m.contains("after the last tick that reads it") && m.contains("Simulation.inputs("), m);
            assertEquals(1, sim.currentTick(), "the refused tick did not count");
            sim.inputs(InputPipeline.builder().build());           // the fix the message names
            assertEquals(1, sim.tick());
        }
    }
}
