package dev.orrery.examples;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;

/** The README's program prints the same state hash on 1 and 2 workers, after a restore and after a replay. */
class HelloWorldTest {
    @Test
    void shouldPrintOneHashFourTimes() throws Exception {
        List<String> lines = Programs.run(HelloWorld::main);
        assertEquals(4, lines.size(), String.join("\n", lines));
        Set<String> hashes = Programs.hashes(lines);
        assertEquals(1, hashes.size(), "one hash on 1 and 2 workers, restored and replayed:\n" + String.join("\n", lines));
        assertTrue(lines.get(0).startsWith("1 worker:  alive=20000"), lines.get(0));
    }
}
