package dev.orrery.ecs.entity;

import it.unimi.dsi.fastutil.ints.IntArrayFIFOQueue;
import java.util.Arrays;

/**
 * The dense location table: for every entity index its generation and where the entity
 * lives (archetype, chunk, row). Freed indices are recycled first-in first-out, so the
 * same sequence of spawns and despawns always hands out the same ids.
 *
 * <p><b>Threading:</b> not thread-safe. Only the thread that applies structural changes
 * may mutate it; any thread may read it while no structural change is running.
 */
public final class EntityTable {
    private static final int DEAD = -1;

    private int[] generations = new int[1024];
    private int[] archetypes = new int[1024];
    private int[] chunks = new int[1024];
    private int[] rows = new int[1024];
    private int highWater;
    private int alive;
    private final IntArrayFIFOQueue free = new IntArrayFIFOQueue();

    /** Creates an empty table. */
    public EntityTable() {
        Arrays.fill(archetypes, DEAD);
    }

    /**
     * The id the next {@link #allocate} will return, without allocating it: allocation
     * order is deterministic (the oldest freed index first, else a new one, at the next
     * generation), so a caller that allocates nothing in between may rely on it.
     */
    public long nextId() {
        int index = free.isEmpty() ? highWater : free.firstInt();
        int gen = index < generations.length ? generations[index] + 1 : 1;
        if (gen == 0) {
            gen = 1;
        }
        return Entity.of(index, gen);
    }

    /** Allocates an id for a new entity; its location must be set with {@link #place}. */
    public long allocate() {
        int index;
        if (!free.isEmpty()) {
            index = free.dequeueInt();
        } else {
            index = highWater++;
            ensureCapacity(highWater);
        }
        int gen = generations[index] + 1;
        if (gen == 0) {
            gen = 1; // generation wrapped; 0 is reserved for Entity.NULL
        }
        generations[index] = gen;
        alive++;
        return Entity.of(index, gen);
    }

    /** Records where a live entity is stored. */
    public void place(int index, int archetype, int chunk, int row) {
        archetypes[index] = archetype;
        chunks[index] = chunk;
        rows[index] = row;
    }

    /** Moves an entity to another row of the same archetype (after a swap-with-last removal). */
    public void moveRow(int index, int chunk, int row) {
        chunks[index] = chunk;
        rows[index] = row;
    }

    /** Frees an entity's index; the id becomes stale at once. */
    public void release(long entity) {
        int index = Entity.index(entity);
        archetypes[index] = DEAD;
        alive--;
        free.enqueue(index);
    }

    /** True when {@code entity} names a live entity of the current generation. */
    public boolean isAlive(long entity) {
        int index = Entity.index(entity);
        return index >= 0 && index < highWater && archetypes[index] != DEAD
                && generations[index] == Entity.generation(entity);
    }

    /** Throws {@link StaleEntityException} unless {@code entity} is alive; returns its index. */
    public int require(long entity, String operation) {
        if (!isAlive(entity)) {
            throw new StaleEntityException(entity, operation);
        }
        return Entity.index(entity);
    }

    /** The archetype id of a live entity's index. */
    public int archetype(int index) {
        return archetypes[index];
    }

    /** The chunk index of a live entity's index. */
    public int chunk(int index) {
        return chunks[index];
    }

    /** The row of a live entity's index. */
    public int row(int index) {
        return rows[index];
    }

    /** The current generation stored at an index (the last one handed out). */
    public int generation(int index) {
        return generations[index];
    }

    /** The live id at an index, or {@link Entity#NULL} when the slot is free. */
    public long idAt(int index) {
        if (index < 0 || index >= highWater || archetypes[index] == DEAD) {
            return Entity.NULL;
        }
        return Entity.of(index, generations[index]);
    }

    /** One past the largest index ever handed out. */
    public int highWater() {
        return highWater;
    }

    /** The number of live entities. */
    public int aliveCount() {
        return alive;
    }

    /** The free indices in the order they will be reused, copied into a new array. */
    public int[] freeListInOrder() {
        int n = free.size();
        int[] out = new int[n];
        for (int i = 0; i < n; i++) {
            int v = free.dequeueInt();
            out[i] = v;
            free.enqueue(v);
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
        System.arraycopy(generations, 0, this.generations, 0, generations.length);
        highWater = generations.length;
        for (int f : free) {
            this.free.enqueue(f);
        }
    }

    /** Marks a restored entity live at its location (snapshot restore only). */
    public void revive(long entity, int archetype, int chunk, int row) {
        int index = Entity.index(entity);
        if (index >= highWater || generations[index] != Entity.generation(entity) || archetypes[index] != DEAD) {
            throw new IllegalStateException("snapshot names entity " + Entity.toString(entity)
                    + " twice or with a generation the table does not hold");
        }
        place(index, archetype, chunk, row);
        alive++;
    }

    /** Grows the table so that indices below {@code n} are valid (used before bulk allocation). */
    public void ensureCapacity(int n) {
        if (n <= generations.length) {
            return;
        }
        int cap = Math.max(n, generations.length * 2);
        generations = Arrays.copyOf(generations, cap);
        chunks = Arrays.copyOf(chunks, cap);
        rows = Arrays.copyOf(rows, cap);
        int old = archetypes.length;
        archetypes = Arrays.copyOf(archetypes, cap);
        Arrays.fill(archetypes, old, cap, DEAD);
    }
}
