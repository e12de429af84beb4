package dev.orrery.examples;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.junit.jupiter.api.Test;

/** Each arena hosted on a shared pool runs its ticks and ends in the state it reaches alone. */
class ManyWorldsTest {
    @Test
    void shouldEndEveryHostedWorldAsItEndsAlone() throws Exception {
        List<String> lines = Programs.run(ManyWorlds::main, "40");
        assertEquals(4, lines.size(), String.join("\n", lines));
        String[] expected = {"arena-a: 1000 movers, 40 ticks at 240 Hz, FINISHED, same as alone: true, hash=",
            "arena-b: 4000 movers, 20 ticks at 120 Hz, FINISHED, same as alone: true, hash=",
            "arena-c: 250 movers, 10 ticks at 60 Hz, FINISHED, same as alone: true, hash="};
        for (int i = 0; i < expected.length; i++) {
            assertTrue(lines.get(i).startsWith(expected[i]), lines.get(i));
        }
        assertEquals(3, Programs.hashes(lines).size(), "three different arenas:\n" + String.join("\n", lines));
        assertEquals("the host's 2 threads ran 70 ticks", lines.get(3));
    }
}
