package dev.orrery.bench.entityindex;

import dev.orrery.ecs.prototype.PrototypeIndex;
import java.util.Arrays;

/**
 * The entity index the Stingray article starts from, for comparison: every entity owns a
 * growable array of {name hash, manager (column), instance id} entries, nothing is shared,
 * look-up scans the entity's array, and despawn drops the array (the garbage collector
 * reclaims it). The outer map is a dense array indexed by entity index rather than the
 * article's hash map, which only flatters this design.
 *
 * <p><b>Threading:</b> single-threaded, like the benchmark that drives it.
 */
final class LegacyEntityIndex {
    private static final int STRIDE = 3;
    private int[][] entries = new int[1024][];
    private int[] sizes = new int[1024];
    private final int[] nextInstance = new int[256];

    /** Appends {name, manager, a new instance id} to the entity's array. */
    void register(int entity, int manager, int nameHash) {
        if (entity >= entries.length) {
            int cap = Math.max(entity + 1, entries.length * 2);
            entries = Arrays.copyOf(entries, cap);
            sizes = Arrays.copyOf(sizes, cap);
        }
        int[] row = entries[entity];
        int n = sizes[entity];
        if (row == null) {
            row = new int[4 * STRIDE];
            entries[entity] = row;
        } else if (n + STRIDE > row.length) {
            row = Arrays.copyOf(row, row.length * 2);
            entries[entity] = row;
        }
        for (int i = 0; i < n; i += STRIDE) {
            if (row[i] == nameHash) {
                throw new IllegalArgumentException("entity index " + entity + " already holds name 0x"
                        + Integer.toHexString(nameHash));
            }
        }
        row[n] = nameHash;
        row[n + 1] = manager;
        row[n + 2] = nextInstance[manager & 255]++;
        sizes[entity] = n + STRIDE;
    }

    /** The manager holding the entity's instance named {@code nameHash}, or -1. */
    int find(int entity, int nameHash) {
        if (entity >= entries.length) {
            return PrototypeIndex.NOT_FOUND;
        }
        int[] row = entries[entity];
        int n = sizes[entity];
        for (int i = 0; i < n; i += STRIDE) {
            if (row[i] == nameHash) {
                return row[i + 1];
            }
        }
        return PrototypeIndex.NOT_FOUND;
    }

    /** Forgets an entity; its array becomes garbage. */
    void release(int entity) {
        entries[entity] = null;
        sizes[entity] = 0;
    }

    /** Bytes held: the two outer arrays plus every live entity's array, from their actual lengths. */
    long bytes() {
        long total = PrototypeIndex.arrayBytes(entries.length, 4) + PrototypeIndex.arrayBytes(sizes.length, 4);
        for (int[] row : entries) {
            if (row != null) {
                total += PrototypeIndex.arrayBytes(row.length, 4);
            }
        }
        return total;
    }
}
