package dev.orrery.ecs.hash;

import java.nio.charset.StandardCharsets;

/**
 * The 32-bit hash of a component instance name ("Fog", "Vignette"). As in the Stingray
 * entity index, the name's hash is the caller-chosen instance id. The registry refuses two
 * different names with one hash, so within a world the hash names exactly one string.
 */
public final class NameHash {
    private NameHash() {
    }

    /** FNV-1a over the UTF-8 bytes, finished with the murmur3 avalanche step. */
    public static int of(String name) {
        int h = 0x811C9DC5;
        for (byte b : name.getBytes(StandardCharsets.UTF_8)) {
            h ^= b & 0xFF;
            h *= 0x01000193;
        }
        return fmix(h);
    }

    /** The murmur3 32-bit finaliser: spreads every input bit over the whole word. */
    public static int fmix(int h) {
        h ^= h >>> 16;
        h *= 0x85EBCA6B;
        h ^= h >>> 13;
        h *= 0xC2B2AE35;
        h ^= h >>> 16;
        return h;
    }
}
