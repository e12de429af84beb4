package dev.orrery.ecs.hash;

/**
 * The 32-bit hash of a component instance name ("Fog", "Vignette"). As in the Stingray
 * entity index, the name's hash is the caller-chosen instance id. The registry refuses two
 * different names with one hash, so within a world the hash names exactly one string.
 */
public final class NameHash {
    private NameHash() {
    }

    /**
     * FNV-1a over the UTF-8 bytes, finished with the murmur3 avalanche step. The bytes are
     * those of {@code name.getBytes(UTF_8)} (an unpaired surrogate is {@code '?'}), encoded
     * on the fly: nothing is allocated, so a look-up by name ({@code findComponent}, a
     * property) allocates nothing either.
     */
    public static int of(String name) {
        int h = 0x811C9DC5;
        for (int i = 0, n = name.length(); i < n; i++) {
            char c = name.charAt(i);
            if (c < 0x80) {
                h = step(h, c);
            } else if (c < 0x800) {
                h = step(step(h, 0xC0 | c >> 6), 0x80 | c & 0x3F);
            } else if (!Character.isSurrogate(c)) {
                h = step(step(step(h, 0xE0 | c >> 12), 0x80 | c >> 6 & 0x3F), 0x80 | c & 0x3F);
            } else if (Character.isHighSurrogate(c) && i + 1 < n && Character.isLowSurrogate(name.charAt(i + 1))) {
                int cp = Character.toCodePoint(c, name.charAt(++i));
                h = step(step(step(step(h, 0xF0 | cp >> 18), 0x80 | cp >> 12 & 0x3F), 0x80 | cp >> 6 & 0x3F),
                        0x80 | cp & 0x3F);
            } else {
                h = step(h, '?'); // what the UTF-8 encoder writes for an unpaired surrogate
            }
        }
        return fmix(h);
    }

    /** One FNV-1a step over one byte ({@code b}'s low 8 bits). */
    private static int step(int h, int b) {
        return (h ^ (b & 0xFF)) * 0x01000193;
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
