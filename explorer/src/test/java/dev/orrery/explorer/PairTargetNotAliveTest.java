package dev.orrery.explorer;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.orrery.ecs.component.Entity;
import org.junit.jupiter.api.Test;

/**
 * A newcomer following the chapter's "ChildOf(123): the children of entity 123 (also 123v0)" on
 * a world whose ids start at generation 1 got {@code "count":0} and nothing else: 123 is index
 * 123 at generation 0, never handed out, and nothing said so. A pair term whose target is not a
 * live entity now makes the query's answer carry a {@code message} naming the target, what holds
 * its slot and what to do; a live target's answer has none.
 */
class PairTargetNotAliveTest {

    @Test
    void aPairTermOnADeadTargetSaysSoAndALiveOneDoesNot() throws Exception {
        try (Fixture f = new Fixture(30, 2, 0, (fx, o) -> o).start()) {
            long squad = f.squads[1]; // 1v1: its stale 1v0 is id 1 (0v0 would be id 0, the null entity)
            String stale = Entity.index(squad) + "v0";
            String dead = f.client.getTicking("/api/query?q=" + Client.enc("ChildOf(" + stale + ")")).body();
            assertTrue(dead.contains("\"count\":0,"), dead);
            assertTrue(dead.contains("\"message\":\"ChildOf(" + stale + "): target " + stale + " is not a live entity"),
                    "names the term and the target: " + dead);
            assertTrue(dead.contains(Entity.toString(squad)), "names what holds the slot now: " + dead);

            String never = f.client.getTicking("/api/query?q=" + Client.enc("ChildOf(99999)")).body();
            assertTrue(never.contains("\"message\":\"ChildOf(99999): target 99999v0 is not a live entity")
                    && never.contains("holds no live entity"), never);

            String live = f.client.getTicking("/api/query?q=" + Client.enc("ChildOf(" + Entity.toString(squad) + ")"))
                    .body();
            assertTrue(live.contains("\"count\":15,"), live);
            assertFalse(live.contains("\"message\""), "a live target: " + live);
        }
    }
}
