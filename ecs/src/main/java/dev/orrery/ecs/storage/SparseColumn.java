package dev.orrery.ecs.storage;

import dev.orrery.ecs.component.Component;
import dev.orrery.ecs.component.ComponentType;
import dev.orrery.ecs.component.Entity;
import dev.orrery.ecs.component.FieldType;
import java.util.Arrays;

/**
 * The values of one {@link dev.orrery.ecs.component.Storage#SPARSE sparse} column: a sparse
 * set beside the archetypes. Three parts: the dense field arrays (one per field, as a
 * chunk's), the dense entity ids (position {@code p} holds the entity whose values sit at
 * position {@code p}), and the entity-index table (entity index to dense position plus one,
 * 0 for "not here"). Adding appends at the end; removing moves the last entry into the hole.
 * Both are O(1) and allocate nothing once the arrays have grown to the column's peak
 * population and the table to the highest entity index added (amortised doubling).
 *
 * <p>The dense order is history (who was added and removed when); nothing observable
 * depends on it: queries visit rows in archetype order, and the state hash and snapshots
 * walk members by entity index ({@link #sortedIndices}).
 *
 * <p>Memory: 4 bytes per entity index up to the highest index ever added, plus the dense
 * arrays. A world with many sparse columns over millions of entities pays the table per
 * column.
 *
 * <p><b>Threading:</b> single writer: changed only by the thread that applies structural
 * changes (adds and removes), like the archetypes; jobs may read values and write them in
 * place (a value write, as for table columns) while no structural change runs.
 */
public final class SparseColumn {
    private static final int INITIAL = 16;

    private final Component<?> column;
    private final ComponentType<?> type;
    private final FieldType[] fieldTypes;
    private final boolean holdsReferences;
    private int[] positions = new int[INITIAL];
    private long[] entities = new long[INITIAL];
    private Object[] arrays;
    private int size;

    /** An empty set for sparse column {@code column}. */
    public SparseColumn(Component<?> column) {
        this.column = column;
        this.type = column.type();
        this.arrays = type.newArrays(INITIAL);
        this.fieldTypes = new FieldType[type.fieldCount()];
        boolean refs = false;
        for (int f = 0; f < fieldTypes.length; f++) {
            fieldTypes[f] = type.fieldType(f);
            refs |= fieldTypes[f] == FieldType.OBJECT;
        }
        this.holdsReferences = refs;
    }

    /** The column stored here. */
    public Component<?> column() {
        return column;
    }

    /** Number of entities holding the column. */
    public int size() {
        return size;
    }

    /** True when the entity at index {@code index} holds the column. */
    public boolean contains(int index) {
        return index < positions.length && positions[index] != 0;
    }

    /** The dense position of the entity at index {@code index}, or -1 when it does not hold the column. */
    public int positionOf(int index) {
        return index < positions.length ? positions[index] - 1 : -1;
    }

    /** The entity id at dense position {@code position}. */
    public long entity(int position) {
        return entities[position];
    }

    /**
     * The dense field arrays, one per field; positions {@code [0, size())} are live. The
     * arrays are replaced when the set grows: fetch them again after an add.
     */
    public Object[] arrays() {
        return arrays;
    }

    /**
     * Adds live {@code entity}, every field zero (or null); returns its dense position.
     * The caller has checked that it is not here yet.
     */
    public int add(long entity) {
        return add(entity, true);
    }

    /**
     * Adds live {@code entity}; with {@code zero} false its fields keep whatever the position
     * held, for a caller that writes every field next (an add with a value). Returns its
     * dense position. The caller has checked that it is not here yet.
     */
    public int add(long entity, boolean zero) {
        int index = Entity.index(entity);
        if (index >= positions.length) {
            positions = Arrays.copyOf(positions, Math.max(index + 1, positions.length * 2));
        }
        if (size == entities.length) {
            grow();
        }
        int p = size++;
        entities[p] = entity;
        positions[index] = p + 1;
        if (zero) {
            FieldType[] t = fieldTypes;
            for (int f = 0; f < t.length; f++) {
                t[f].clear(arrays[f], p);
            }
        }
        return p;
    }

    /**
     * Removes the entity at index {@code index}: the last entry moves into its position.
     *
     * @return false (and no change) when it did not hold the column
     */
    public boolean remove(int index) {
        int p = positionOf(index);
        if (p < 0) {
            return false;
        }
        int last = --size;
        if (p != last) {
            long moved = entities[last];
            entities[p] = moved;
            positions[Entity.index(moved)] = p + 1;
            FieldType[] t = fieldTypes;
            for (int f = 0; f < t.length; f++) {
                t[f].copy(arrays[f], last, arrays[f], p);
            }
        }
        positions[index] = 0;
        entities[last] = Entity.NULL;
        if (holdsReferences) {
            for (int f = 0; f < fieldTypes.length; f++) {
                if (fieldTypes[f] == FieldType.OBJECT) {
                    ((Object[]) arrays[f])[last] = null; // no leak of a removed reference value
                }
            }
        }
        return true;
    }

    /**
     * The entity indices of the members in ascending order, in the first {@link #size()}
     * entries of an array of {@code sort}'s (valid until its next use): the order
     * {@link #sortedIndices()} gives, with no allocation once {@code sort}'s arrays fit.
     */
    public int[] sortedIndices(IndexSort sort) {
        int[] out = sort.room(size);
        for (int p = 0; p < size; p++) {
            out[p] = Entity.index(entities[p]);
        }
        return sort.sort(size);
    }

    /**
     * The entity indices of the members in ascending order (a new array): the canonical
     * order in which the state hash and snapshots walk the set, independent of history.
     */
    public int[] sortedIndices() {
        int[] out = new int[size];
        for (int p = 0; p < size; p++) {
            out[p] = Entity.index(entities[p]);
        }
        Arrays.sort(out);
        return out;
    }

    private void grow() {
        int cap = entities.length * 2;
        entities = Arrays.copyOf(entities, cap);
        Object[] bigger = type.newArrays(cap);
        for (int f = 0; f < arrays.length; f++) {
            System.arraycopy(arrays[f], 0, bigger[f], 0, size);
        }
        arrays = bigger;
    }

    @Override
    public String toString() {
        return "SparseColumn[" + column + ", " + size + " entities]";
    }
}
