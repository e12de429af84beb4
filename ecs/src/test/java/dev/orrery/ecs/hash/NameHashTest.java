package dev.orrery.ecs.hash;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;

import java.util.HashSet;
import java.util.Set;
import org.junit.jupiter.api.Test;

class NameHashTest {
    @Test
    void shouldBeStableForTheSameName() {
        assertEquals(NameHash.of("Fog"), NameHash.of(new String("Fog".toCharArray())));
    }

    @Test
    void shouldSpreadSimilarNames() {
        Set<Integer> seen = new HashSet<>();
        for (int i = 0; i < 10_000; i++) {
            seen.add(NameHash.of("Fog" + i));
        }
        assertEquals(10_000, seen.size());
        assertNotEquals(NameHash.of("Fog"), NameHash.of("fog"));
    }

    @Test
    void shouldHashUtf8BytesNotChars() {
        assertNotEquals(NameHash.of("\u00e9"), NameHash.of("e"));
        assertNotEquals(NameHash.of("\u00e9"), NameHash.of("\u00c3\u00a9"));
    }

    @Test
    void shouldFinaliseWithABijection() {
        Set<Integer> seen = new HashSet<>();
        for (int i = -5000; i < 5000; i++) {
            seen.add(NameHash.fmix(i));
        }
        assertEquals(10_000, seen.size());
    }
}
