package dev.orrery.examples;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/**
 * The level system propagates positions down the trees identically on 1 and 2 workers: a
 * moon's world position is the sum of the offsets above it, and a star's despawn takes its
 * planets and their moons along.
 */
class HierarchyTransformsTest {
    private static final Pattern MOON =
            Pattern.compile("a moon at (\\(.*?\\)), its offsets summed up the tree (\\(.*?\\))");

    @Test
    void shouldPropagateTransformsDownTheHierarchy() throws Exception {
        List<String> lines = Programs.run(HierarchyTransforms::main, "30");
        assertEquals(4, lines.size(), String.join("\n", lines));
        assertEquals(1, Programs.hashes(lines).size(), "one hash on 1 and 2 workers:\n" + String.join("\n", lines));
        assertTrue(lines.get(2).startsWith("3 levels, 2440 bodies;"), lines.get(2));
        Matcher m = MOON.matcher(lines.get(2));
        assertTrue(m.find(), lines.get(2));
        assertEquals(m.group(2), m.group(1), "the moon's world position is its offsets summed up the tree");
        assertEquals("despawning a star with 10 planets despawned 61 bodies", lines.get(3));
    }
}
