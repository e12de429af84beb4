package dev.orrery.explorer;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.orrery.engine.InputBatch;
import dev.orrery.engine.InputSource;
import java.net.http.HttpResponse;
import java.time.Duration;
import org.junit.jupiter.api.Test;

/**
 * Whether the simulation "has not ticked since the explorer was attached" is decided by an
 * explicit fact (a tick ran since the attach: the explorer's hook saw one end, or the
 * simulation's tick count moved), not by the figures' ring being empty. A first tick that ran
 * its systems and then threw before its end (a replay's hash check, here an input source's
 * {@code recordHash}) records no figures, and was called unticked. (Nothing clears the figures
 * today, and a restore is refused after the first tick, so this is the case the old test of the
 * ring's count got wrong.)
 */
class TickedSinceAttachTest {

    @Test
    void aFirstTickThatRanButThrewBeforeItsEndIsNotCalledUnticked() throws Exception {
        try (Fixture f = new Fixture(10, 1, 0, (fx, o) -> o.withRequestTimeout(Duration.ofMillis(200)))) {
            HttpResponse<String> before = f.client.get("/api/archetypes");
            assertEquals(503, before.statusCode(), before.body());
            assertTrue(before.body().contains("has not ticked since the explorer was attached"), before.body());

            InputBatch empty = new InputBatch();
            f.sim.inputs(new InputSource() {
                @Override
                public InputBatch beginTick(long tick) {
                    empty.reset(tick);
                    return empty;
                }

                @Override
                public boolean wantsHash(long tick) {
                    return true;
                }

                @Override
                public void recordHash(long tick, long stateHash) {
                    throw new IllegalStateException("replay diverged at tick " + tick);
                }
            });
            assertThrows(IllegalStateException.class, f.sim::tick);
            assertEquals(1, f.sim.currentTick(), "the tick ran its systems");

            HttpResponse<String> after = f.client.get("/api/archetypes");
            assertEquals(503, after.statusCode(), after.body());
            assertFalse(after.body().contains("has not ticked"), "it ticked: " + after.body());
            // What stopped it is named (it read "the run is stopped", as if sim.stop() had ended it).
            assertTrue(after.body().contains("tick 0 ran its systems and counts")
                    && after.body().contains("recordHash") && !after.body().contains("the run is stopped"), after.body());
            String summary = f.client.getOk("/api/summary");
            assertTrue(summary.contains("\"live\":false") && summary.contains("tick 0 ran its systems and counts")
                    && !summary.contains("has not ticked"), summary);
        }
    }
}
