package dev.orrery.bench.peers;

import java.util.Locale;

/**
 * One library's world, driven through the peer workloads: create entities one by one with a
 * {@code Position} and a {@code Velocity}, add an {@code Extra} to each then remove it, and
 * move every entity by {@code p += v * dt}. Each subclass writes its workloads in that
 * library's own fastest documented idiom, so the loops that JMH times are ordinary code of
 * that library; this class only holds what they share: the values every entity must hold
 * and the checks, run outside the timed code, that every entity holds exactly them.
 *
 * <p>Entity {@code i} (in creation order) gets {@code Position(i, i + 0.5, -i)} and
 * {@code Velocity((i % 5) - 2, (i % 3) - 1, 1)}; {@code Extra} holds {@code 3i + 1}. With
 * {@link #DT} = 0.5 every value after any number of moves is a multiple of 0.5 below
 * 2<sup>22</sup>, so float arithmetic is exact and the check compares with {@code ==}
 * (it refuses to run once that would no longer hold).
 *
 * <p><b>Threading:</b> one thread (JMH's benchmark thread); no library here is shared.
 */
public abstract class PeerWorld {
    /** The time step of the move workload: a power of two, so every sum stays exact. */
    public static final float DT = 0.5f;

    /** Bound below which every value this class produces is exact in a float (ulp at most 0.5). */
    private static final double EXACT_BOUND = 1 << 22;

    /** Entities created by the last {@link #create}. */
    protected int size;
    private long moves;

    /** The benchmark parameter values, one per world kind (see {@link #of}). */
    public static final String ORRERY = "orrery";
    /** Orrery, spawning through a prepared {@code Shape} with records. */
    public static final String ORRERY_SHAPE = "orreryShape";
    /** Orrery, spawning through a prepared {@code Shape}'s row, writing fields with no records. */
    public static final String ORRERY_ROW = "orreryRow";
    /**
     * Orrery creating in bulk through a prepared {@code Shape}: {@code spawnMany(n, writer)}
     * writing each chunk's new rows, after {@code reserve(n)} outside the timed code (the flat
     * baseline's arrays are allocated outside it too). Create workload only.
     */
    public static final String ORRERY_BULK = "orreryBulk";
    /** Orrery with the extra component in sparse storage (add and remove never move the row). */
    public static final String ORRERY_SPARSE = "orrerySparse";
    /** Dominion 0.9.0. */
    public static final String DOMINION = "dominion";
    /** Artemis-odb 2.3.0. */
    public static final String ARTEMIS = "artemis";
    /** One {@code float[]} per field: the floor. */
    public static final String FLAT = "flat";

    /**
     * A fresh world of the named kind.
     *
     * @param library one of {@link #ORRERY}, {@link #ORRERY_SHAPE}, {@link #ORRERY_ROW},
     *     {@link #ORRERY_SPARSE}, {@link #ORRERY_BULK}, {@link #DOMINION},
     *     {@link #ARTEMIS}, {@link #FLAT}
     * @throws IllegalArgumentException for any other name
     */
    public static PeerWorld of(String library) {
        return switch (library) {
            case ORRERY -> new OrreryPeer(OrreryPeer.Variant.VALUES);
            case ORRERY_SHAPE -> new OrreryPeer(OrreryPeer.Variant.SHAPE);
            case ORRERY_ROW -> new OrreryPeer(OrreryPeer.Variant.ROW);
            case ORRERY_SPARSE -> new OrreryPeer(OrreryPeer.Variant.SPARSE);
            case ORRERY_BULK -> new OrreryPeer(OrreryPeer.Variant.BULK);
            case DOMINION -> new DominionPeer();
            case ARTEMIS -> new ArtemisPeer();
            case FLAT -> new FlatPeer();
            default -> throw new IllegalArgumentException("unknown peer library '" + library + "'; use one of "
                    + String.join(", ", ORRERY, ORRERY_SHAPE, ORRERY_ROW, ORRERY_SPARSE, ORRERY_BULK, DOMINION,
                    ARTEMIS, FLAT));
        };
    }

    /** The library's name and the idiom its create path uses, for reports. */
    public abstract String describe();

    // ------------------------------------------------------------------ the workloads

    /**
     * Drops everything and starts an empty world with room for {@code capacity} entity
     * handles (the handle array only; the library's own storage grows as it does for users).
     * Not timed.
     */
    public final void reset(int capacity) {
        size = 0;
        moves = 0;
        clear(capacity);
    }

    /** What {@link #reset} does for this library: a new, empty world. */
    protected abstract void clear(int capacity);

    /**
     * Workload 1 (timed): creates entities {@code 0 .. n-1} one at a time, each with its
     * position and velocity, in the library's fastest documented way.
     */
    public final void create(int n) {
        createAll(n);
        size = n;
    }

    /** The body of {@link #create}. */
    protected abstract void createAll(int n);

    /** Workload 2, first half (timed): adds {@code Extra(3i + 1)} to every entity, one at a time. */
    public abstract void addExtra();

    /** Workload 2, second half (timed): removes {@code Extra} from every entity, one at a time. */
    public abstract void removeExtra();

    /** Workload 3 (timed): {@code p += v * DT} for every entity. */
    public final void move() {
        step(DT);
        moves++;
    }

    /** The body of {@link #move}. */
    protected abstract void step(float dt);

    /** Releases the world (end of a trial), so the next trial's heap starts clean. */
    public final void close() {
        size = 0;
        moves = 0;
        release();
    }

    /** What {@link #close} does for this library: drop every reference to the world. */
    protected abstract void release();

    // ------------------------------------------------------------------ read-back, checks only

    /** Entities holding both Position and Velocity, as the library counts them. */
    protected abstract int count();

    /**
     * One field of entity {@code i} (creation order): 0..2 position x, y, z; 3..5 velocity.
     */
    protected abstract float value(int i, int field);

    /** True when entity {@code i} holds an {@code Extra}. */
    protected abstract boolean hasExtra(int i);

    /** The {@code Extra} value of entity {@code i}. */
    protected abstract int extraValue(int i);

    /** Test hook: writes a wrong position x into entity {@code i}, so a check must fail. */
    abstract void corrupt(int i);

    /** Test hook: writes a wrong {@code Extra} value into entity {@code i} (it must hold one). */
    abstract void corruptExtra(int i);

    /** Whether this world takes part in the add/remove workload. */
    public boolean supportsExtra() {
        return true;
    }

    /** The value field {@code field} of entity {@code i} must hold after {@code moves} moves. */
    static float expected(int i, int field, long moves) {
        return switch (field) {
            case 0 -> (float) (i + moves * (double) vx(i) * DT);
            case 1 -> (float) (i + 0.5 + moves * (double) vy(i) * DT);
            case 2 -> (float) (-i + moves * (double) vz(i) * DT);
            case 3 -> vx(i);
            case 4 -> vy(i);
            case 5 -> vz(i);
            default -> throw new IllegalArgumentException("field " + field + " is not 0..5");
        };
    }

    /** Initial position x of entity {@code i}. */
    protected static float px(int i) {
        return i;
    }

    /** Initial position y of entity {@code i}. */
    protected static float py(int i) {
        return i + 0.5f;
    }

    /** Initial position z of entity {@code i}. */
    protected static float pz(int i) {
        return -i;
    }

    /** Velocity x of entity {@code i}. */
    protected static float vx(int i) {
        return (i % 5) - 2;
    }

    /** Velocity y of entity {@code i}. */
    protected static float vy(int i) {
        return (i % 3) - 1;
    }

    /** Velocity z of entity {@code i}. */
    protected static float vz(int i) {
        return 1;
    }

    /** The {@code Extra} value of entity {@code i}. */
    protected static int extra(int i) {
        return 3 * i + 1;
    }

    /**
     * Checks every entity: the library counts {@link #size} of them, and each holds exactly
     * its position (after the moves so far), its velocity and no {@code Extra}.
     *
     * @throws IllegalStateException naming the library, the entity and the field that differ
     */
    public final void check() {
        checkValues(false);
    }

    /**
     * Checks every entity after {@link #addExtra}: as {@link #check}, and each holds its
     * {@code Extra(3i + 1)}.
     *
     * @throws IllegalStateException naming the library, the entity and the value that differ
     */
    public final void checkWithExtra() {
        checkValues(true);
    }

    private void checkValues(boolean withExtra) {
        if (size + moves * 2.0 * DT >= EXACT_BOUND) {
            throw new IllegalStateException(describe() + ": " + size + " entities after " + moves
                    + " moves leave the exact float range the check relies on; reset the world more often");
        }
        int n = count();
        if (n != size) {
            throw new IllegalStateException(describe() + ": " + n + " entities hold Position and Velocity, expected "
                    + size + " (every created entity)");
        }
        for (int i = 0; i < size; i++) {
            for (int f = 0; f < 6; f++) {
                float got = value(i, f);
                float want = expected(i, f, moves);
                if (got != want || Float.isNaN(got)) {
                    throw new IllegalStateException(String.format(Locale.ROOT,
                            "%s: entity %d (creation order) has %s = %s, expected %s after %d moves",
                            describe(), i, FIELD_NAMES[f], got, want, moves));
                }
            }
            if (supportsExtra() && hasExtra(i) != withExtra) {
                throw new IllegalStateException(describe() + ": entity " + i + (withExtra
                        ? " lacks Extra after addExtra" : " still holds Extra"));
            }
            if (withExtra && extraValue(i) != extra(i)) {
                throw new IllegalStateException(describe() + ": entity " + i + " has Extra " + extraValue(i)
                        + ", expected " + extra(i));
            }
        }
    }

    private static final String[] FIELD_NAMES = {
        "position.x", "position.y", "position.z", "velocity.x", "velocity.y", "velocity.z"};
}
