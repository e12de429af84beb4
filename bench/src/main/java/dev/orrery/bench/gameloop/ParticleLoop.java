package dev.orrery.bench.gameloop;

import java.util.Locale;

/**
 * One implementation of the particle scenario (see {@link Particles}): built with its
 * population, then advanced one tick at a time; the count and checksum are read between ticks,
 * outside the timed code.
 *
 * <p><b>Threading:</b> one thread drives a loop (an Orrery loop's executor may run jobs on
 * its own workers inside {@link #tick}).
 */
public abstract class ParticleLoop implements AutoCloseable {
    /** Orrery written from the README (records in the respawn), 1 worker. */
    public static final String ORRERY_1 = "orrery-1";
    /** The same on 2 workers. */
    public static final String ORRERY_2 = "orrery-2";
    /** Orrery with the fastest spawn path (no records: {@code add(h, column)} + {@code setFloat}), 1 worker. */
    public static final String ORRERY_FAST_1 = "orrery-fast-1";
    /** The same on 2 workers. */
    public static final String ORRERY_FAST_2 = "orrery-fast-2";
    /** Artemis-odb 2.3.0. */
    public static final String ARTEMIS = "artemis";
    /** Dominion 0.9.0. */
    public static final String DOMINION = "dominion";
    /** The hand-written flat-array loop. */
    public static final String FLAT = "flat";

    /** The seed of the particles' values. */
    protected final long seed;
    /** The ticks run so far; the tick in progress inside {@link #tick}. */
    protected int tick;

    /** A loop whose values come from {@code seed}. */
    protected ParticleLoop(long seed) {
        this.seed = seed;
    }

    /**
     * A loop of kind {@code name} (one of the constants above) holding {@code particles}
     * initial particles.
     *
     * @throws IllegalArgumentException for an unknown name, naming the known ones
     */
    public static ParticleLoop of(String name, int particles, long seed) {
        ParticleLoop loop = switch (name) {
            case ORRERY_1 -> new OrreryParticles(seed, 1, false);
            case ORRERY_2 -> new OrreryParticles(seed, 2, false);
            case ORRERY_FAST_1 -> new OrreryParticles(seed, 1, true);
            case ORRERY_FAST_2 -> new OrreryParticles(seed, 2, true);
            case ARTEMIS -> new ArtemisParticles(seed);
            case DOMINION -> new DominionParticles(seed);
            case FLAT -> new FlatParticles(seed);
            default -> throw new IllegalArgumentException(String.format(Locale.ROOT,
                    "unknown particle loop '%s'; use one of %s, %s, %s, %s, %s, %s, %s", name, ORRERY_1, ORRERY_2,
                    ORRERY_FAST_1, ORRERY_FAST_2, ARTEMIS, DOMINION, FLAT));
        };
        loop.populate(particles);
        return loop;
    }

    /** Creates the initial particles, particle {@code i} with the values {@link Particles} gives it. */
    protected abstract void populate(int particles);

    /** Runs the five systems once: move, damage, reap, respawn, count. */
    public final void tick() {
        step();
        tick++;
    }

    /** One tick's work for tick number {@link #tick}. */
    protected abstract void step();

    /** The living count the count system found in the last tick. */
    public abstract int living();

    /** The sum of {@link Particles#checksum} over the living particles (read between ticks). */
    public abstract long checksum();

    /** What this loop is, for reports. */
    public abstract String describe();

    /** Releases worker threads and storage. */
    @Override
    public void close() {
    }
}
