package dev.orrery.ecs.storage;

import dev.orrery.ecs.component.Entity;
import dev.orrery.ecs.component.StaleEntityException;
import java.util.Arrays;

/**
 * The dense location table: for every entity index its generation and where the entity
 * lives (archetype, chunk, row). Freed indices are recycled first-in first-out, so the
 * same sequence of spawns and despawns always hands out the same ids.
 *
 * <p><b>Retired slots.</b> An index serves generations 1 to {@code 0xFFFF_FFFF} (the
 * {@code int} runs on into its negative range). When the entity of its last generation
 * ({@link #LAST_GENERATION}) is released, the index is retired: it never returns to the free
 * list, so its generation never wraps and no id of an earlier use of the slot can name a live
 * entity again. A retired index stays dead (16 bytes of table) for the life of the world and
 * its snapshots; it takes 2<sup>32</sup> - 1 reuses of one slot, and with first-in first-out
 * reuse at least that many despawns times the free list's length, so in practice none retires.
 *
 * <p><b>Threading:</b> not thread-safe. Only the thread that applies structural changes
 * may mutate it; any thread may read it while no structural change is running.
 */
public final class EntityTable {
    private static final int DEAD = -1;
    /** The last generation an index serves; releasing its entity retires the index. */
    public static final int LAST_GENERATION = -1; // 0xFFFF_FFFF
    /**
     * The most entity indices a table holds: four {@code int}s per index in one array, so
     * {@code Integer.MAX_VALUE / 4}. Spawns and reservations that would pass it are refused.
     */
    public static final int MAX_INDICES = Integer.MAX_VALUE >> 2;

    // One record of four ints per entity index (generation, archetype, chunk, row), so a
    // structural change that reads and rewrites an entity's location touches one cache
    // line, not four arrays' worth. The archetype is stored plus one, so a zeroed record
    // (a new slot) reads as dead with no fill when the table grows.
    private static final int GEN = 0;
    private static final int ARCH = 1;
    private static final int CHUNK = 2;
    private static final int ROW = 3;
    private static final int SHIFT = 2;

    private int[] slots = new int[1024 << SHIFT];
    private int capacity = 1024;
    private int highWater;
    private int alive;
    // The free indices, oldest first, in a ring that only ever grows: a queue that shrinks
    // when it empties (fastutil's does) would reallocate on every spawn-despawn wave.
    private int[] free = new int[1024];
    private int freeHead;
    private int freeCount;

    /** Creates an empty table. */
    public EntityTable() {
    }

    /**
     * The id the next {@link #allocate} will return, without allocating it: allocation
     * order is deterministic (the oldest freed index first, else a new one, at the next
     * generation), so a caller that allocates nothing in between may rely on it.
     */
    public long nextId() {
        int index = freeCount == 0 ? highWater : free[freeHead];
        int gen = index < capacity ? slots[(index << SHIFT) + GEN] + 1 : 1;
        if (gen == 0) {
            gen = 1;
        }
        return Entity.of(index, gen);
    }

    /**
     * The ids the next {@code n} calls of {@link #allocate} would return if nothing is freed in
     * between, in order: the free list in reuse order, each at its next generation, then new
     * indices from the high-water mark. For reports (the test kit names the ids two worlds
     * would hand out when only their free lists differ); allocates the array.
     */
    public long[] nextIds(int n) {
        long[] out = new long[n];
        for (int i = 0; i < n; i++) {
            int index = i < freeCount ? freeInOrder(i) : highWater + (i - freeCount);
            int gen = index < capacity ? slots[(index << SHIFT) + GEN] + 1 : 1;
            out[i] = Entity.of(index, gen == 0 ? 1 : gen);
        }
        return out;
    }

    /** Allocates an id for a new entity; its location must be set with {@link #place}. */
    public long allocate() {
        int index;
        if (freeCount != 0) {
            index = free[freeHead];
            freeHead = (freeHead + 1) & (free.length - 1);
            freeCount--;
        } else {
            index = highWater++;
            ensureCapacity(highWater);
        }
        int gen = slots[(index << SHIFT) + GEN] + 1;
        if (gen == 0) {
            gen = 1; // only for a free index restored at its last generation (an older snapshot); 0 is Entity.NULL
        }
        slots[(index << SHIFT) + GEN] = gen;
        alive++;
        return Entity.of(index, gen);
    }

    /**
     * Allocates {@code n} ids into {@code ids[from..from+n)}, in the order {@link #allocate}
     * would give them; one pass with no per-id free-list check once the free list is empty.
     *
     * @return how many of them came from the free list: those are {@code ids[from..from+r)},
     *     and the rest are indices never used before, consecutive and ascending (so a caller
     *     can treat them as one range)
     */
    public int allocateMany(long[] ids, int from, int n) {
        int i = from;
        int end = from + n;
        for (; i < end && freeCount != 0; i++) {
            ids[i] = allocate();
        }
        if (i == end) {
            return n;
        }
        int recycled = i - from;
        ensureCapacity(highWater + (end - i));
        int[] t = slots;
        int index = highWater;
        for (; i < end; i++, index++) {
            int o = (index << SHIFT) + GEN;
            int gen = t[o] + 1;
            if (gen == 0) {
                gen = 1; // generation wrapped; 0 is reserved for Entity.NULL
            }
            t[o] = gen;
            ids[i] = Entity.of(index, gen);
        }
        alive += index - highWater;
        highWater = index;
        return recycled;
    }

    /** Records where a live entity is stored. */
    public void place(int index, int archetype, int chunk, int row) {
        int o = index << SHIFT;
        int[] t = slots;
        t[o + ARCH] = archetype + 1;
        t[o + CHUNK] = chunk;
        t[o + ROW] = row;
    }

    /** Moves an entity to another row of the same archetype (after a swap-with-last removal). */
    public void moveRow(int index, int chunk, int row) {
        int o = index << SHIFT;
        int[] t = slots;
        t[o + CHUNK] = chunk;
        t[o + ROW] = row;
    }

    /**
     * Frees an entity's index; the id becomes stale at once. The index goes to the back of
     * the free list, unless its generation was the {@link #LAST_GENERATION}: then it is
     * retired and never reused (see the class comment).
     */
    public void release(long entity) {
        int index = Entity.index(entity);
        int o = index << SHIFT;
        slots[o + ARCH] = DEAD + 1;
        alive--;
        if (slots[o + GEN] != LAST_GENERATION) {
            enqueueFree(index);
        }
    }

    /** True when {@code index} was handed out, is dead, and will never be reused (see the class comment). */
    public boolean isRetired(int index) {
        return index >= 0 && index < highWater && archetype(index) == DEAD && generation(index) == LAST_GENERATION;
    }

    /**
     * Refuses to {@code operation} {@code n} more entities when the indices they need (the
     * free indices first, then new ones) would pass {@link #MAX_INDICES}: before anything is
     * allocated, with one message for every path (a bulk spawn, a reservation).
     *
     * @param operation what the caller does, for the message ({@code "spawn"}, {@code "reserve room for"})
     * @throws IllegalArgumentException naming the count, the indices in use and the limit
     */
    public void requireRoom(long n, String operation) {
        long fresh = Math.max(0, n - freeCount);
        if (highWater + fresh > MAX_INDICES) {
            throw new IllegalArgumentException("cannot " + operation + " " + n + " more entities: the world would need "
                    + (highWater + fresh) + " entity indices (" + highWater + " handed out, " + freeCount + " of them "
                    + "free to reuse), past the " + MAX_INDICES + " a world holds; spawn fewer, in waves, or "
                    + "despawn first");
        }
    }

    private void enqueueFree(int index) {
        int[] ring = free;
        if (freeCount == ring.length) {
            int[] bigger = new int[ring.length * 2];
            for (int i = 0; i < freeCount; i++) {
                bigger[i] = ring[(freeHead + i) & (ring.length - 1)];
            }
            free = ring = bigger;
            freeHead = 0;
        }
        ring[(freeHead + freeCount) & (ring.length - 1)] = index;
        freeCount++;
    }

    /** True when {@code entity} names a live entity of the current generation. */
    public boolean isAlive(long entity) {
        int index = Entity.index(entity);
        if (index < 0 || index >= highWater) {
            return false;
        }
        int o = index << SHIFT;
        return slots[o + ARCH] != DEAD + 1 && slots[o + GEN] == Entity.generation(entity);
    }

    /**
     * True when this table ever handed out {@code entity}: its index is below the high-water mark
     * and its generation is not past the slot's latest. False for {@link Entity#NULL}, provisional
     * handles and ids of other worlds past this one's; an error message tells those apart.
     */
    public boolean handedOut(long entity) {
        int index = Entity.index(entity);
        int generation = Entity.generation(entity);
        return index >= 0 && index < highWater && generation != 0
                && Integer.compareUnsigned(generation, generation(index)) <= 0;
    }

    /** Throws {@link StaleEntityException} unless {@code entity} is alive; returns its index. */
    public int require(long entity, String operation) {
        if (!isAlive(entity)) {
            throw refusal(entity, operation);
        }
        return Entity.index(entity);
    }

    /**
     * The refusal of {@code operation} on {@code entity}, which is not alive here: a despawned
     * entity's, or ({@link #handedOut} false) an id this table never issued, as the message says.
     */
    public StaleEntityException refusal(long entity, String operation) {
        return handedOut(entity) ? new StaleEntityException(entity, operation)
                : StaleEntityException.neverHandedOut(entity, operation);
    }

    /** The archetype id of a live entity's index. */
    public int archetype(int index) {
        return slots[(index << SHIFT) + ARCH] - 1;
    }

    /** The chunk index of a live entity's index. */
    public int chunk(int index) {
        return slots[(index << SHIFT) + CHUNK];
    }

    /** The row of a live entity's index. */
    public int row(int index) {
        return slots[(index << SHIFT) + ROW];
    }

    /** The current generation stored at an index (the last one handed out). */
    public int generation(int index) {
        return slots[(index << SHIFT) + GEN];
    }

    /** The live id at an index, or {@link Entity#NULL} when the slot is free. */
    public long idAt(int index) {
        if (index < 0 || index >= highWater || archetype(index) == DEAD) {
            return Entity.NULL;
        }
        return Entity.of(index, generation(index));
    }

    /** One past the largest index ever handed out. */
    public int highWater() {
        return highWater;
    }

    /** The number of live entities. */
    public int aliveCount() {
        return alive;
    }

    /** How many indices are free (the length of {@link #freeListInOrder()}). */
    public int freeCount() {
        return freeCount;
    }

    /** The {@code i}th free index in reuse order ({@link #freeListInOrder()}'s {@code [i]}, without the copy). */
    public int freeInOrder(int i) {
        return free[(freeHead + i) & (free.length - 1)];
    }

    /** The free indices in the order they will be reused, copied into a new array. */
    public int[] freeListInOrder() {
        int[] out = new int[freeCount];
        for (int i = 0; i < freeCount; i++) {
            out[i] = free[(freeHead + i) & (free.length - 1)];
        }
        return out;
    }

    /**
     * Restores the allocation state of an empty table from a snapshot: the generation of
     * every index ever handed out, and the free list in reuse order. Every index below
     * {@code generations.length} that is not in {@code free} is left dead until
     * {@link #revive} places its entity.
     *
     * @throws IllegalStateException if the table is not empty
     */
    public void restore(int[] generations, int[] free) {
        if (highWater != 0 || alive != 0) {
            throw new IllegalStateException("restore needs an empty entity table; restore into a new World");
        }
        ensureCapacity(generations.length);
        for (int i = 0; i < generations.length; i++) {
            slots[(i << SHIFT) + GEN] = generations[i];
        }
        highWater = generations.length;
        for (int f : free) {
            enqueueFree(f);
        }
    }

    /** Marks a restored entity live at its location (snapshot restore only). */
    public void revive(long entity, int archetype, int chunk, int row) {
        int index = Entity.index(entity);
        if (index >= highWater || generation(index) != Entity.generation(entity) || archetype(index) != DEAD) {
            throw new IllegalStateException("snapshot names entity " + Entity.toString(entity)
                    + " twice or with a generation the table does not hold");
        }
        place(index, archetype, chunk, row);
        alive++;
    }

    /** Grows the table so that indices below {@code n} are valid (used before bulk allocation). */
    public void ensureCapacity(int n) {
        if (n <= capacity) {
            return;
        }
        int cap = (int) Math.min(Math.max(n, capacity * 2L), MAX_INDICES);
        if (cap < n) {
            throw new IllegalStateException("the entity table cannot hold " + n + " entity indices");
        }
        slots = Arrays.copyOf(slots, cap << SHIFT);
        capacity = cap;
    }
}
