package dev.orrery.examples;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The state machine goes from the lobby to play after half a second, drops the balls on
 * entering, runs the 50 Hz physics phase only while playing, ends play after 100 physics steps
 * and freezes the balls on leaving; the same on 1 and 2 workers.
 */
class FlowTest {
    @Test
    void shouldMoveThroughTheStatesOnCondition() throws Exception {
        List<String> lines = Programs.run(Flow::main, "200");
        assertEquals(5, lines.size(), String.join("\n", lines));
        assertEquals("after tick 0: LOBBY, 0 balls moving, 0 physics steps", lines.get(0));
        assertTrue(lines.get(1).matches("after tick \\d+: PLAYING, 500 balls moving, [01] physics steps"),
                lines.get(1));
        assertEquals(" OVER, 0 balls moving, 100 physics steps", lines.get(2).substring(lines.get(2).indexOf(':') + 1));
        int started = tick(lines.get(1)), ended = tick(lines.get(2));
        // 100 steps of 20 ms fed 1/60 s a tick: 120 ticks of play, give or take the one the request waits
        assertTrue(ended - started >= 119 && ended - started <= 122, started + " to " + ended);
        assertEquals(1, Programs.hashes(lines).size(), "one hash on 1 and 2 workers:\n" + String.join("\n", lines));
    }

    private static int tick(String line) {
        return Integer.parseInt(line.substring("after tick ".length(), line.indexOf(':')));
    }
}
