package dev.orrery.ecs;

import dev.orrery.ecs.component.Entity;
import java.util.Arrays;

/**
 * A forest relation ({@code ChildOf}) laid out for walking: every entity in a tree, breadth
 * first by depth, as slots {@code [0, size())}. Level 0 holds the roots (targets that hold no
 * pair themselves) in ascending entity index; each later level holds the children of the
 * level before, parent by parent in slot order, each parent's children in their order. A
 * parent's slot is therefore always lower than its children's, and within a level no slot
 * depends on another: the level is the unit of parallel work.
 *
 * <p>Transform propagation, the classic use, in one pass:
 *
 * <pre>{@code
 * Hierarchy h = world.relations().hierarchy(childOf);
 * float[] worldX = new float[h.size()];
 * for (int i = 0; i < h.size(); i++) {
 *     int p = h.parentSlot(i);                       // -1 for a root
 *     worldX[i] = (p < 0 ? 0 : worldX[p]) + world.getFloat(h.entity(i), localX);
 * }
 * }</pre>
 * or level by level on several threads with {@link #forEachLevel}. {@link #slotOf} maps an
 * entity back to its slot, so data can move between rows and slots (scratch arrays indexed
 * by slot, filled from a chunk loop, walked, and written back).
 *
 * <p>The order depends only on the pairs, never on timing or thread count. It is rebuilt
 * (in O(entities in trees), reusing its arrays) when {@link Relations#hierarchy} is asked for
 * it after the pairs changed, and stays valid until they change again.
 *
 * <p><b>Threading:</b> built on the world's thread; the read methods may be called from any
 * thread while the pairs do not change (between sync points).
 */
public final class Hierarchy {
    /** The body of a level walk: slots {@code [from, to)} of level {@code level}. */
    @FunctionalInterface
    public interface LevelBody {
        /**
         * Processes slots {@code [from, to)}, all of depth {@code level}; their parents are done.
         *
         * @param level the depth of the slots, 0 for the roots
         * @param from the first slot (inclusive), at least {@code levelStart(level)}
         * @param to the end slot (exclusive), at most {@code levelEnd(level)}
         */
        void run(int level, int from, int to);
    }

    private final Relation relation;
    private long builtAt = -1;
    private long[] entities = new long[16];
    private int[] parents = new int[16];
    /** Slot by entity index, written for the entities placed at the last refresh; checked against {@link #entities}. */
    private int[] slotByIndex = new int[0];
    private int[] levelStarts = new int[8];
    private int size;
    private int levels;

    Hierarchy(Relation relation) {
        this.relation = relation;
    }

    /**
     * The relation this walks.
     *
     * @return the relation given to {@link Relations#hierarchy}
     */
    public Relation relation() {
        return relation;
    }

    /**
     * Entities in the forest: every target and every holder.
     *
     * @return the slots, 0 when the relation has no pairs; slots run from 0 to this minus 1
     */
    public int size() {
        return size;
    }

    /**
     * Number of levels (depth of the deepest entity + 1; 0 when there are no pairs).
     *
     * @return the levels, 0 or more
     */
    public int levels() {
        return levels;
    }

    /**
     * First slot of {@code level}; {@code levelStart(levels())} is {@link #size()}, the end of
     * the last level, so a range of levels {@code [a, b)} is the slots
     * {@code [levelStart(a), levelStart(b))}.
     *
     * @param level 0 to {@code levels()}, that last value included
     * @return the first slot of the level, or {@code size()} for {@code levels()}
     * @throws IndexOutOfBoundsException when {@code level} is outside {@code [0, levels()]}
     */
    public int levelStart(int level) {
        if (Integer.compareUnsigned(level, levels) > 0) { // one compare: a negative level is large unsigned
            throw outside("levelStart(level)", "level", level, levels, "levels()");
        }
        return levelStarts[level];
    }

    /**
     * One past the last slot of {@code level}.
     *
     * @param level 0 to {@code levels() - 1}
     * @return the slot after the level's last, equal to {@code levelStart(level + 1)}
     * @throws IndexOutOfBoundsException when {@code level} is outside {@code [0, levels())}
     */
    public int levelEnd(int level) {
        if (Integer.compareUnsigned(level, levels) >= 0) {
            throw outside("levelEnd(level)", "level", level, levels - 1, "levels() - 1");
        }
        return levelStarts[level + 1];
    }

    /**
     * The entity in {@code slot}.
     *
     * @param slot 0 to {@code size() - 1}
     * @return the entity's id
     * @throws IndexOutOfBoundsException when {@code slot} is outside {@code [0, size())}
     */
    public long entity(int slot) {
        if (Integer.compareUnsigned(slot, size) >= 0) { // the arrays are longer than size(): past it are stale slots
            throw outside("entity(slot)", "slot", slot, size - 1, "size() - 1");
        }
        return entities[slot];
    }

    /**
     * The slot of {@code slot}'s parent (its target), or -1 for a root.
     *
     * @param slot 0 to {@code size() - 1}
     * @return the parent's slot, lower than {@code slot}, or -1 for a root
     * @throws IndexOutOfBoundsException when {@code slot} is outside {@code [0, size())}
     */
    public int parentSlot(int slot) {
        if (Integer.compareUnsigned(slot, size) >= 0) {
            throw outside("parentSlot(slot)", "slot", slot, size - 1, "size() - 1");
        }
        return parents[slot];
    }

    /**
     * The error of an accessor given an index outside its range; built apart from the
     * accessors so that they stay small enough to inline in a walk's loop.
     */
    private IndexOutOfBoundsException outside(String accessor, String what, int value, int last, String lastName) {
        String range = last < 0 ? "there are none (the relation has no pairs)"
                : "valid " + what + "s are 0 to " + lastName + " (" + last + ")";
        return new IndexOutOfBoundsException("Hierarchy." + accessor + " of " + relation + ": " + what + " "
                + value + " is out of range; " + range
                + ": bound the loop by this hierarchy's size() and levels(), read after the last change of its pairs");
    }

    /**
     * The slot of {@code entity}, or -1 when it is not in the forest (it holds no pair and
     * is no target), is stale (its index now names a newer entity), or is {@link Entity#NULL}.
     * O(1): an array by entity index, filled when the order is rebuilt, and a compare with
     * the entity at that slot. What user code needs to carry data between a chunk loop (rows
     * in archetype order) and a walk of the slots (breadth first):
     *
     * <pre>{@code
     * long[] ids = view.entities();
     * float[] x = view.readFloats(localX);
     * for (int row = 0; row < view.size(); row++) {
     *     int slot = h.slotOf(ids[row]);              // -1: in no tree
     *     if (slot >= 0) slotX[slot] = x[row];
     * }
     * }</pre>
     *
     * @param entity any id, {@link Entity#NULL} included
     * @return the slot, 0 to {@code size() - 1}, or -1
     */
    public int slotOf(long entity) {
        int idx = Entity.index(entity);
        if (idx < 0 || idx >= slotByIndex.length) {
            return -1;
        }
        int slot = slotByIndex[idx];
        return slot >= 0 && slot < size && entities[slot] == entity ? slot : -1;
    }

    /**
     * Walks the levels in order; within a level, the slots are split into tasks of at least
     * {@code minSlots} run on {@code threads} (a level smaller than that is one task on the
     * calling thread). A level starts after every task of the level before has finished, so a
     * body may read what the tasks of earlier levels wrote at parent slots. The result is the
     * same on any number of threads as long as a task writes only its own slots.
     *
     * @param threads the threads to lend, {@link ParallelFor#SERIAL} for the calling thread alone
     * @param minSlots the fewest slots a task takes; values below 1 count as 1
     * @param body called once per task, with the task's level and its slot range; it must write
     *     only its own slots
     */
    public void forEachLevel(ParallelFor threads, int minSlots, LevelBody body) {
        int grain = Math.max(1, minSlots);
        for (int level = 0; level < levels; level++) {
            int from = levelStarts[level];
            int to = levelStarts[level + 1];
            int n = to - from;
            int tasks = Math.min(threads.threads() * 4, (n + grain - 1) / grain);
            if (tasks <= 1) {
                body.run(level, from, to);
                continue;
            }
            int lv = level;
            threads.forEach(tasks, t -> body.run(lv, from + (int) ((long) n * t / tasks),
                    from + (int) ((long) n * (t + 1) / tasks)));
        }
    }

    void refresh(RelationStore s) {
        if (builtAt == s.version()) {
            return;
        }
        int bound = s.entityBound();
        int need = s.size() * 2 + 1;
        if (entities.length < need) {
            entities = new long[need];
            parents = new int[need];
        }
        if (slotByIndex.length < bound) {
            slotByIndex = new int[bound]; // stale entries need no clearing: slotOf checks entities[slot]
        }
        size = 0;
        levels = 0;
        // Level 0: targets that hold no pair, ascending index.
        for (int idx = 0; idx < bound; idx++) {
            int p = s.firstOfTarget(idx);
            if (p != -1 && s.firstOfHolder(idx) == -1) {
                entities[size] = s.targetAt(p);
                parents[size] = -1;
                slotByIndex[idx] = size;
                size++;
            }
        }
        int levelFrom = 0;
        while (levelFrom < size) {
            startLevel(levelFrom);
            int levelTo = size;
            for (int slot = levelFrom; slot < levelTo; slot++) {
                for (int p = s.firstOfTarget(Entity.index(entities[slot])); p != -1; p = s.nextOfTarget(p)) {
                    long holder = s.holderAt(p);
                    entities[size] = holder;
                    parents[size] = slot;
                    slotByIndex[Entity.index(holder)] = size;
                    size++;
                }
            }
            levelFrom = levelTo;
        }
        startLevel(size);
        levels--;
        builtAt = s.version();
    }

    private void startLevel(int from) {
        if (levels + 1 >= levelStarts.length) {
            levelStarts = Arrays.copyOf(levelStarts, levelStarts.length * 2);
        }
        levelStarts[levels++] = from;
    }
}
