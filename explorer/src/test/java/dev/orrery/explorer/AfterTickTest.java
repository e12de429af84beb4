package dev.orrery.explorer;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.orrery.ecs.World;
import dev.orrery.engine.Simulation;
import org.junit.jupiter.api.Test;

/**
 * A live read's answer gets {@code "tick"} first (Json.tickFirst, once Routes.afterTick). It was spliced in after the object's opening
 * brace with a comma, so an empty object {@code {}} came out as {@code {"tick":N,}}, which is not
 * JSON; it is now {@code {"tick":N}}, and something that is not an object is refused naming it.
 */
class AfterTickTest {

    @Test
    void anEmptyObjectGetsTheTickWithoutATrailingComma() {
        try (Simulation sim = Simulation.builder(new World()).workers(1).hashEvery(0).build()) {
            sim.tick();
            sim.tick();
            assertEquals("{\"tick\":1}", Json.tickFirst(sim.currentTick() - 1, "{}"));
            assertEquals("{\"tick\":1}", Json.tickFirst(sim.currentTick() - 1, "{ }"));
            assertEquals("{\"tick\":1,\"count\":3}", Json.tickFirst(sim.currentTick() - 1, "{\"count\":3}"));
            IllegalArgumentException notAnObject = assertThrows(IllegalArgumentException.class,
                    () -> Json.tickFirst(sim.currentTick() - 1, "[1]"));
            assertTrue(notAnObject.getMessage().contains("[1]") && notAnObject.getMessage().contains("JSON object"),
                    notAnObject.getMessage());
        }
    }
}
