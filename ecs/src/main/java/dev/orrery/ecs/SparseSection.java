package dev.orrery.ecs;

import dev.orrery.ecs.component.Component;
import dev.orrery.ecs.component.ComponentRegistry;
import dev.orrery.ecs.component.ComponentType;
import dev.orrery.ecs.component.Entity;
import dev.orrery.ecs.component.FieldType;
import dev.orrery.ecs.storage.SparseColumn;
import dev.orrery.ecs.structure.SparseColumns;
import java.io.DataOutputStream;
import java.io.IOException;
import java.util.Arrays;
import java.util.HashMap;
import java.util.Map;

/**
 * The sparse section of a version 2 {@link WorldSnapshot}: every sparse column of the world
 * in column-id order, each with its members by ascending entity index (the canonical order,
 * not the sets' dense order, which is history), then each field's values. Parsed whole and
 * validated against the rows before the world is touched, like the rest of the snapshot.
 *
 * <p><b>Threading:</b> as {@link WorldSnapshot}: the world's owning thread.
 */
final class SparseSection {
    int[] sparseColumns = new int[0]; // column ids, ascending
    long[][] sparseMembers = new long[0][]; // [k] -> entity ids by ascending index
    Object[][] sparseValues = new Object[0][]; // [k][field] -> long[] bits or Object[] refs

    /** The sparse section: every sparse column in id order, its members by ascending entity index. */
    static void write(SparseColumns sparse, Map<Class<?>, ReferenceCodec<?>> codecs, DataOutputStream out)
            throws IOException {
        java.util.List<SparseColumn> sets = sparse.inIdOrder();
        out.writeInt(sets.size());
        for (SparseColumn set : sets) {
            out.writeInt(set.column().id());
            int[] members = set.sortedIndices();
            out.writeInt(members.length);
            for (int idx : members) {
                out.writeLong(set.entity(set.positionOf(idx)));
            }
            ComponentType<?> t = set.column().type();
            for (int f = 0; f < t.fieldCount(); f++) {
                FieldType ft = t.fieldType(f);
                ReferenceCodec<?> codec = ft == FieldType.OBJECT ? codecs.get(t.javaClass()) : null;
                for (int idx : members) {
                    WorldSnapshot.writeValue(out, ft, codec, set.arrays()[f], set.positionOf(idx));
                }
            }
        }
    }

    /**
     * The table columns of a version 2 prototype chain read at offset {@code at} of {@code in};
     * a sparse one is checked against the sparse section later.
     */
    static int[] tableColumnsOf(int[] chain, ComponentRegistry reg, long entity, SnapshotInput in, int at) {
        int n = 0;
        for (int col : chain) {
            if (col < 0 || col >= reg.columnCount()) {
                throw in.corruptAt(at, "the prototype chain " + Arrays.toString(chain) + " of entity "
                        + Entity.toString(entity) + " names column " + col + ", which does not exist");
            }
            n += reg.column(col).isSparse() ? 0 : 1;
        }
        int[] out = new int[n];
        int k = 0;
        for (int col : chain) {
            if (!reg.column(col).isSparse()) {
                out[k++] = col;
            }
        }
        return out;
    }

    /** The sparse section: every sparse column of the target, in id order, with its members and values. */
    static SparseSection parse(SnapshotInput in, ComponentRegistry reg, Map<Class<?>, ReferenceCodec<?>> codecs)
            throws IOException {
        SparseSection p = new SparseSection();
        int k = in.readCount("sparse column", 4 + 4, reg.columnCount());
        if (k != reg.sparseColumnCount()) {
            throw in.corrupt("the sparse section holds " + k + " sparse columns but the target world registered "
                    + reg.sparseColumnCount());
        }
        p.sparseColumns = new int[k];
        p.sparseMembers = new long[k][];
        p.sparseValues = new Object[k][];
        for (int i = 0; i < k; i++) {
            int at = in.position();
            int col = in.readInt();
            if (col < 0 || col >= reg.columnCount() || !reg.column(col).isSparse() || (i > 0 && col <= p.sparseColumns[i - 1])) {
                throw in.corruptAt(at, "the sparse section names column " + col + " at position " + i
                        + ", which is not a sparse column of the target world in id order");
            }
            p.sparseColumns[i] = col;
            Component<?> column = reg.column(col);
            long[] ids = new long[in.readCount("sparse member", 8 + WorldSnapshot.valueBytes(column),
                    Integer.MAX_VALUE)];
            for (int r = 0; r < ids.length; r++) {
                at = in.position();
                ids[r] = in.readLong();
                if (r > 0 && Entity.index(ids[r]) <= Entity.index(ids[r - 1])) {
                    throw in.corruptAt(at, "sparse column " + column + " lists entity " + Entity.toString(ids[r])
                            + " out of ascending index order or twice");
                }
            }
            p.sparseMembers[i] = ids;
            p.sparseValues[i] = WorldSnapshot.readValues(in, column, ids.length, codecs);
        }
        return p;
    }

    /**
     * Checks the sparse section against the rows: every member is a live entity of the
     * snapshot, and each entity's prototype chain names exactly the sparse columns it is a
     * member of.
     */
    void validate(long[][] rows, int[][][] chains, ComponentRegistry reg, SnapshotInput in) {
        SparseSection p = this;
        Map<Long, int[]> chainOf = new HashMap<>();
        for (int a = 0; a < rows.length; a++) {
            for (int r = 0; r < rows[a].length; r++) {
                chainOf.put(rows[a][r], chains[a][r]);
            }
        }
        int chained = 0;
        for (int[] chain : chainOf.values()) {
            for (int col : chain) {
                chained += reg.column(col).isSparse() ? 1 : 0;
            }
        }
        int members = 0;
        for (int i = 0; i < p.sparseColumns.length; i++) {
            Component<?> c = reg.column(p.sparseColumns[i]);
            for (long id : p.sparseMembers[i]) {
                int[] chain = chainOf.get(id);
                if (chain == null || Arrays.stream(chain).noneMatch(col -> col == c.id())) {
                    throw in.corrupt("sparse column " + c + " holds entity " + Entity.toString(id)
                            + ", which is not a live entity of the snapshot or does not list " + c
                            + " among its instances");
                }
                members++;
            }
        }
        if (members != chained) {
            throw in.corrupt("the prototype chains name " + chained + " sparse instances but the sparse section holds "
                    + members);
        }
    }

    /** Puts every member into its sparse set of {@code target} with its values (the names are the chains' work). */
    void apply(World target) {
        ComponentRegistry reg = target.components();
        SparseColumns sparse = target.storage().sparse();
        for (int i = 0; i < sparseColumns.length; i++) {
            Component<?> column = reg.column(sparseColumns[i]);
            long[] ids = sparseMembers[i];
            for (int r = 0; r < ids.length; r++) {
                int pos = sparse.restore(Entity.index(ids[r]), ids[r], column);
                WorldSnapshot.setValues(column.type(), sparseValues[i], r, sparse.of(column).arrays(), pos);
            }
        }
    }
}
