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
    void shouldHashTheSameBytesAsTheUtf8Encoder() {
        // NameHash encodes as it hashes (no byte array); the hashes are kept in snapshots and
        // recordings, so they must stay those of String.getBytes(UTF_8), unpaired surrogates included.
        String[] fixed = {"", "Fog", "\u00e9t\u00e9", "\u0800\uffff", "\ud83d\ude00", "a\ud83d", "\ude00b", "\ude00\ud83d",
            "\ud83d\ud83d\ude00", "\u07ff\u0080\u007f"};
        for (String s : fixed) {
            assertEquals(reference(s), NameHash.of(s), s);
        }
        java.util.Random random = new java.util.Random(7);
        for (int k = 0; k < 20_000; k++) {
            char[] cs = new char[random.nextInt(12)];
            for (int i = 0; i < cs.length; i++) {
                int pick = random.nextInt(4);
                cs[i] = (char) (pick == 0 ? random.nextInt(0x80) : pick == 1 ? 0xD800 + random.nextInt(0x800)
                        : random.nextInt(0x10000));
            }
            String s = new String(cs);
            assertEquals(reference(s), NameHash.of(s), () -> "hash of " + s.chars().mapToObj(Integer::toHexString).toList());
        }
    }

    /** The hash as it was first defined: FNV-1a over {@code getBytes(UTF_8)}, then fmix. */
    private static int reference(String name) {
        int h = 0x811C9DC5;
        for (byte b : name.getBytes(java.nio.charset.StandardCharsets.UTF_8)) {
            h ^= b & 0xFF;
            h *= 0x01000193;
        }
        return NameHash.fmix(h);
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
