package dev.orrery.examples;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/**
 * Events, observers, change filters and removal logs see the same things on 1 and 2 workers,
 * and agree with each other: every death in the removal log dropped one pile through the
 * observers, and the dead and the living add up to the monsters spawned.
 */
class ReactingToChangeTest {
    private static final Pattern FIGURE = Pattern.compile("(\\w+)=(\\w+)");

    @Test
    void shouldSeeEveryChangeOnceWhateverTheWorkers() throws Exception {
        List<String> lines = Programs.run(ReactingToChange::main, "40");
        assertEquals(2, lines.size(), String.join("\n", lines));
        String one = lines.get(0), two = lines.get(1);
        assertEquals(one.substring(one.indexOf(':')), two.substring(two.indexOf(':')), "the same on 1 and 2 workers");
        Map<String, String> f = figures(lines.get(0));
        long deaths = Long.parseLong(f.get("deaths"));
        assertTrue(deaths > 0 && Long.parseLong(f.get("hits")) > deaths, lines.get(0));
        assertEquals(f.get("deaths"), f.get("piles"), "one pile dropped by the observers per death in the removal log");
        assertEquals(ReactingToChange.MONSTERS, deaths + Long.parseLong(f.get("monsters")), lines.get(0));
        assertTrue(Long.parseLong(f.get("redrawn")) > 0, lines.get(0));
    }

    private static Map<String, String> figures(String line) {
        Map<String, String> out = new HashMap<>();
        Matcher m = FIGURE.matcher(line);
        while (m.find()) {
            out.put(m.group(1), m.group(2));
        }
        return out;
    }
}
