package dev.orrery.examples;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Set;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * The README's program prints the same state hash on 1 and 2 workers, after a restore and after a
 * replay, and leaves no recording behind in the temporary folder.
 */
class HelloWorldTest {
    @Test
    void shouldPrintOneHashFourTimes() throws Exception {
        Set<Path> before = recordings();
        List<String> lines = Programs.run(HelloWorld::main);
        Set<Path> left = recordings();
        left.removeAll(before);
        assertEquals(Set.of(), left, "the program left its recording behind");
        assertEquals(4, lines.size(), String.join("\n", lines));
        Set<String> hashes = Programs.hashes(lines);
        assertEquals(1, hashes.size(), "one hash on 1 and 2 workers, restored and replayed:\n" + String.join("\n", lines));
        assertTrue(lines.get(0).startsWith("1 worker:  alive=20000"), lines.get(0));
    }

    private static Set<Path> recordings() throws Exception {
        try (Stream<Path> all = Files.list(Path.of(System.getProperty("java.io.tmpdir")))) {
            return all.filter(p -> p.getFileName().toString().startsWith("hello-orrery")).collect(Collectors.toSet());
        }
    }
}
