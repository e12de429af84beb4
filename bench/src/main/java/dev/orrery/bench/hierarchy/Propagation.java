package dev.orrery.bench.hierarchy;

/**
 * One implementation of transform propagation over a {@link Forest}: each tick, every
 * entity's world transform becomes its parent's composed with its local one (a root's is its
 * local one). Every implementation computes the same floats in the same operation order, so
 * their {@link #checksum}s after a tick are equal (the report and the tests check it).
 *
 * <p>Composing parent {@code (px, py, pc, ps)} with local {@code (x, y, c, s)}:
 * {@code (px + pc*x - ps*y, py + ps*x + pc*y, pc*c - ps*s, ps*c + pc*s)}.
 *
 * <p><b>Threading:</b> driven by one thread; Orrery's executors use their own workers.
 */
public abstract class Propagation implements AutoCloseable {
    /** (c) A recursive walk over flat arrays and children lists by index: the baseline. */
    public static final String FLAT = "flat";
    /** (a) Orrery's level system reading and writing by id through its job, on 1 worker. */
    public static final String LEVEL_1 = "level-1";
    /** (a) The same on 2 workers. */
    public static final String LEVEL_2 = "level-2";
    /**
     * (a') The level system on 1 worker, after the children's rows were sorted into hierarchy
     * (slot) order once with {@code world.sortRows}: the same code, the rows laid out in the
     * order the levels are walked.
     */
    public static final String LEVEL_1_SORTED = "level-1-sorted";
    /**
     * (d) Orrery in slot space, 1 worker: local transforms gathered into arrays indexed by
     * hierarchy slot, the level walk on those arrays, world transforms scattered back.
     */
    public static final String SLOT_1 = "slot-1";
    /** (d) The same on 2 workers. */
    public static final String SLOT_2 = "slot-2";
    /** (b) Orrery: an exclusive system walking the {@code Hierarchy} serially, by id through the world. */
    public static final String SERIAL = "serial";

    /** The implementation called {@code name} (one of the constants) over {@code forest}. */
    public static Propagation of(String name, Forest forest) {
        return switch (name) {
            case FLAT -> new FlatPropagation(forest);
            case LEVEL_1 -> new LevelPropagation(forest, 1);
            case LEVEL_2 -> new LevelPropagation(forest, 2);
            case LEVEL_1_SORTED -> new LevelPropagation(forest, 1).sortRowsInHierarchyOrder();
            case SERIAL -> new SerialPropagation(forest);
            case SLOT_1 -> new SlotPropagation(forest, 1);
            case SLOT_2 -> new SlotPropagation(forest, 2);
            default -> throw new IllegalArgumentException("unknown propagation '" + name + "'; use " + FLAT + ", "
                    + LEVEL_1 + ", " + LEVEL_2 + ", " + LEVEL_1_SORTED + ", " + SERIAL + ", " + SLOT_1 + " or "
                    + SLOT_2);
        };
    }

    /** Propagates every world transform once. */
    public abstract void tick();

    /** A mix of every entity's world transform bits, in the forest's creation order. */
    public abstract long checksum();

    /** What this implementation is, for reports. */
    public abstract String describe();

    /** Stops any worker threads. */
    @Override
    public void close() {
    }

    /** Mixes one entity's world transform into {@code h}. */
    static long mix(long h, float x, float y, float c, float s) {
        h = h * 31 + Float.floatToRawIntBits(x);
        h = h * 31 + Float.floatToRawIntBits(y);
        h = h * 31 + Float.floatToRawIntBits(c);
        return h * 31 + Float.floatToRawIntBits(s);
    }
}
