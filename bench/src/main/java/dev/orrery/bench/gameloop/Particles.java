package dev.orrery.bench.gameloop;

/**
 * The rules of the particle scenario, shared by every implementation so that they compute
 * the same thing: the seeded values of each particle, the lifetime, the time step, and the
 * order-independent checksum of a particle's state.
 *
 * <p>Particle {@code i} of the initial population gets health {@code 1 + i % 100}; each tick
 * the damage system takes 1 off and the reaper despawns every particle at 0 or below, so 1%
 * die per tick; the {@code k}-th particle respawned in tick {@code t} gets health
 * {@link #LIFETIME} and the position and velocity {@link #value} gives for
 * {@code (t, k)}. All values are exact in {@code float} arithmetic order, so every
 * implementation ends with bit-identical particles (in its own order).
 *
 * <p><b>Threading:</b> stateless; any thread.
 */
public final class Particles {
    /** The time step of a tick (60 Hz). */
    public static final float DT = 1f / 60f;
    /** The health of a fresh particle, in ticks: a particle lives this many ticks. */
    public static final float LIFETIME = 100f;
    /** The seed every implementation uses unless a test says otherwise. */
    public static final long SEED = 0x5EED_0F_0DDBA11L;
    /** The tick number used for the initial population's values. */
    static final int INITIAL = -1;

    private Particles() {
    }

    /** The health of initial particle {@code i}: 1..100, so a hundredth of them dies each tick. */
    public static float initialHealth(int i) {
        return 1 + i % (int) LIFETIME;
    }

    /**
     * Field {@code field} (0..2 position x, y, z; 3..5 velocity x, y, z) of the {@code k}-th
     * particle made in tick {@code tick} ({@link #INITIAL} for the initial population): a
     * position in [-100, 100), a velocity in [-1, 1), from a SplitMix64 mix of the seed.
     */
    public static float value(long seed, int tick, int k, int field) {
        long z = seed + 0x9E3779B97F4A7C15L * (((long) tick << 40) ^ ((long) k << 3) ^ field);
        z = (z ^ (z >>> 30)) * 0xBF58476D1CE4E5B9L;
        z = (z ^ (z >>> 27)) * 0x94D049BB133111EBL;
        z ^= z >>> 31;
        float unit = (z >>> 40) * 0x1.0p-24f * 2f - 1f; // [-1, 1) in steps of 2^-23
        return field < 3 ? unit * 100f : unit;
    }

    /**
     * One particle's share of the checksum: a mix of its seven fields' exact bits. The
     * checksum of a population is the sum of its particles' shares, so it does not depend on
     * the order an implementation keeps them in.
     */
    public static long checksum(float px, float py, float pz, float vx, float vy, float vz, float hp) {
        long h = 0x243F6A8885A308D3L;
        h = mix(h, px);
        h = mix(h, py);
        h = mix(h, pz);
        h = mix(h, vx);
        h = mix(h, vy);
        h = mix(h, vz);
        return mix(h, hp);
    }

    private static long mix(long h, float v) {
        h ^= Float.floatToRawIntBits(v) & 0xFFFF_FFFFL;
        h *= 0x100000001B3L;
        return h ^ (h >>> 29);
    }
}
