package dev.orrery.ecs;

import dev.orrery.ecs.archetype.Archetype;
import dev.orrery.ecs.archetype.Chunk;
import dev.orrery.ecs.component.Component;
import dev.orrery.ecs.component.ComponentKind;
import dev.orrery.ecs.component.Entity;
import dev.orrery.ecs.component.Field;
import dev.orrery.ecs.component.FieldType;
import dev.orrery.ecs.prototype.SpawnChain;
import dev.orrery.ecs.storage.EntityTable;
import dev.orrery.ecs.structure.EntityRows;
import dev.orrery.ecs.structure.ProvisionalRefs;
import java.util.Arrays;
import java.util.List;

/**
 * A prepared entity shape: a fixed list of columns resolved once to their archetype, for
 * code that spawns one kind of entity often (projectiles, pick-ups, effects). Spawning
 * through a shape skips every look-up {@link World#spawn(Object...)} does and allocates
 * nothing beyond the records passed in (and amortised storage growth):
 *
 * <pre>{@code
 * Shape bullet = world.shape(pos, vel);
 * long e = bullet.spawn(new Position(x, y, 0), new Velocity(dx, dy, 0));   // values in shape order
 * long f = bullet.spawnRow().setFloat(px, x).setFloat(py, y).setFloat(vx, dx).id(); // no records at all
 * }</pre>
 *
 * <p>Instance names are registered in the order the shape lists its columns, as
 * {@code world.spawn(values...)} registers them in argument order; a shape and the
 * equivalent values call make the same world, bit for bit.
 *
 * <p>A shape belongs to the world that made it and holds it (strongly), unlike a
 * {@link Template}, which only remembers its world weakly: a shape spawns into that world and
 * nowhere else, so keeping a shape keeps its world reachable, on purpose (it is a handle to
 * the world's spawning). Drop a world's shapes with the world; the world itself does not hold
 * them.
 *
 * <p><b>Threading:</b> like the world's structural calls: on the thread that owns the world,
 * never inside a query iteration or a scheduled run. A shape and its {@link Row} are
 * reused across spawns and hold no lock.
 */
public final class Shape {
    private final World world;
    private final Component<?>[] columns;
    private final SpawnChain chain;
    private final Archetype archetype;
    private final EntityTable entities;
    private final Object[] zeroes;
    private final Row row = new Row();
    private final ChunkView batchView;
    // For the shape's own column count only: another count gets spawn(values...)'s error.
    private final ArgumentScratch arguments;

    Shape(World world, Component<?>[] columns, Archetype archetype) {
        this.world = world;
        this.columns = columns;
        this.chain = new SpawnChain(columns);
        this.archetype = archetype;
        this.entities = world.storage().entityTable();
        this.zeroes = new Object[columns.length];
        this.arguments = new ArgumentScratch(columns.length, columns.length);
        this.batchView = new ChunkView(null, world.storage().sparse()); // a writer reads and sets sparse columns per row
    }

    /** The archetype every entity of this shape is spawned into. */
    Archetype archetype() {
        return archetype;
    }

    /**
     * The shape's columns, in the order it was prepared with (and values are given in).
     *
     * @return an unmodifiable list of the columns, in the shape's order
     */
    public List<Component<?>> columns() {
        return List.of(columns);
    }

    /**
     * Spawns an entity of this shape with every field zero (null references, tags present).
     *
     * @return the new entity's id
     * @throws IllegalStateException while the world's structure is locked (a query iteration or a
     *     scheduled run); record {@code commands.spawn(shape)} in a {@link CommandBuffer} instead
     */
    public long spawn() {
        return world.spawnInto(archetype, chain, zeroes);
    }

    /**
     * Command playback's spawn of this shape, whose values it writes next: the row is zeroed
     * first only when {@code zero}, that is when those values do not cover every field (see
     * {@code World.spawnEmpty(Archetype, SpawnChain, boolean)}).
     */
    long spawnEmpty(boolean zero) {
        return world.spawnEmpty(archetype, chain, zero);
    }

    /**
     * Spawns an entity of this shape holding {@code values}, one per column in the shape's
     * order.
     *
     * <p>A null value leaves its column zero (a null reference for a reference column; a tag's
     * slot needs no value), on purpose: unlike {@code world.spawn(values...)}, which finds the
     * columns from the values and so refuses a null, a shape knows each slot's column, and a
     * call by position has no other way to leave one column zero. So a value that is null by
     * mistake spawns zeros here, not an error: check it first where null is not meant.
     *
     * @param values one value per column, in the shape's order, each of its column's type or null
     *     for zero
     * @return the new entity's id
     * @throws IllegalArgumentException when the count or a value's type does not match
     *     the shape; nothing is spawned then
     */
    public long spawn(Object... values) {
        if (values.length != columns.length) {
            throw new IllegalArgumentException("shape " + this + " takes " + columns.length + " values, one per column "
                    + "in order, but " + values.length + " were given");
        }
        return world.spawnInto(archetype, chain, values);
    }

    /**
     * {@link #spawn(Object...)} for a one-column shape, without a varargs array; a null leaves
     * its column zero.
     *
     * @param a the value of the shape's column, or null for zero
     * @return the new entity's id
     * @throws IllegalArgumentException when the shape has more than one column, or the value is not
     *     of the column's type
     */
    public long spawn(Object a) {
        return spawnGiven(1, a, null, null);
    }

    /**
     * {@link #spawn(Object...)} for a two-column shape, without a varargs array; a null leaves
     * its column zero.
     *
     * @param a the first column's value, or null for zero
     * @param b the second column's value, or null for zero
     * @return the new entity's id
     * @throws IllegalArgumentException when the shape has not two columns, or a value is not of its
     *     column's type
     */
    public long spawn(Object a, Object b) {
        return spawnGiven(2, a, b, null);
    }

    /**
     * {@link #spawn(Object...)} for a three-column shape, without a varargs array; a null leaves
     * its column zero.
     *
     * @param a the first column's value, or null for zero
     * @param b the second column's value, or null for zero
     * @param c the third column's value, or null for zero
     * @return the new entity's id
     * @throws IllegalArgumentException when the shape has not three columns, or a value is not of
     *     its column's type
     */
    public long spawn(Object a, Object b, Object c) {
        return spawnGiven(3, a, b, c);
    }

    /**
     * The fixed-arity spawns: the values go down one by one, with no array, unless the shape
     * holds a sparse column (that path takes the reused argument array) or the count is wrong
     * (refused as {@link #spawn(Object...)} refuses it).
     */
    private long spawnGiven(int n, Object a, Object b, Object c) {
        if (n == columns.length && !chain.holdsSparse()) {
            return world.spawnInto(archetype, chain, a, b, c, null);
        }
        Object[] v = arguments.take(n, a, b, c, null);
        try {
            return spawn(v);
        } finally {
            arguments.release(v);
        }
    }

    /**
     * Spawns {@code n} entities of this shape, every field zero, in one batch; returns their ids in order.
     *
     * @param n how many entities to spawn, 0 or more
     * @return the new ids, {@code n} long, in spawn order
     * @throws IllegalArgumentException if {@code n} is negative, or if the entity indices the
     *     spawns need would pass the most a world holds (as {@link #reserve} refuses it), before
     *     anything is allocated
     */
    public long[] spawnMany(int n) {
        return world.spawnManyInto(archetype, n, columns, zeroes);
    }

    /**
     * Spawns {@code n} entities of this shape in one batch and lets {@code writer} fill their
     * fields straight in the chunks' arrays, a run of new rows at a time: the bulk path with
     * values and no record built. Returns the ids in spawn order.
     *
     * <pre>{@code
     * shape.spawnMany(1_000_000, (rows, from, to, first) -> {
     *     float[] x = rows.writeFloats(px);
     *     for (int r = from; r < to; r++) x[r] = first + (r - from);   // entity number first + (r - from)
     * });
     * }</pre>
     *
     * <p>The writer gets an unchecked view of each chunk that received new rows, with the
     * range {@code [from, to)} of them and the batch index of row {@code from}; rows outside
     * the range belong to other entities and must not be written. Values are trusted: neither
     * validators, {@code @Range} nor {@code @EntityRef} (a provisional handle) are checked. Sparse
     * columns of the shape are not in the chunk's arrays: every new row holds them, zeroed,
     * and the writer sets them row by row with {@code rows.set(column, r, value)} (or reads
     * them with {@code rows.get}). The structure is locked while the writer runs: it must not
     * spawn, despawn, add or remove. The rows' {@code onAdd} hooks fire after it, seeing its values.
     *
     * @param n how many entities to spawn, 0 or more
     * @param writer fills the new rows' fields, not null; called on this thread, once per run of
     *     new rows in one chunk
     * @return the new ids, {@code n} long, in spawn order: entity number {@code k} of the batch is
     *     {@code ids[k]}
     * @throws IllegalArgumentException if {@code n} is negative
     */
    public long[] spawnMany(int n, BatchWriter writer) {
        java.util.Objects.requireNonNull(writer, "writer");
        return world.spawnManyThen(archetype, n, columns, zeroes, ids -> fill(ids, n, writer));
    }

    /** Hands the rows of {@code ids}, just spawned, to {@code writer}, a run of rows per chunk. */
    private void fill(long[] ids, int n, BatchWriter writer) {
        world.storage().lockStructure("a Shape.spawnMany writer");
        try {
            ChunkView view = batchView; // one writer at a time: the lock refuses a nested spawnMany
            for (int done = 0; done < n; ) {
                int idx = Entity.index(ids[done]);
                Chunk c = archetype.chunk(entities.chunk(idx));
                int from = entities.row(idx);
                int to = Math.min(c.size(), from + (n - done));
                writer.write(view.bind(c), from, to, done);
                done += to - from;
            }
            view.bind(null);
        } finally {
            world.storage().unlockStructure();
        }
    }

    /**
     * Makes room for {@code n} more entities of this shape: the entity table, the name index
     * and the archetype's chunks grow now, so the next {@code n} spawns of this shape (one by
     * one, or in bulk) allocate no storage. Like {@code ArrayList.ensureCapacity}: a hint
     * that moves the growth out of a timed or latency-sensitive section, never required.
     *
     * @param n how many more entities of this shape to make room for, 0 or more
     * @throws IllegalArgumentException if {@code n} is negative, or if the entity indices the
     *     {@code n} spawns need would pass the most a world holds
     *     ({@link dev.orrery.ecs.storage.EntityTable#MAX_INDICES}); {@link #spawnMany(int)}
     *     refuses the same counts with the same message
     */
    public void reserve(int n) {
        if (n < 0) {
            throw new IllegalArgumentException("cannot reserve room for a negative number of entities: " + n);
        }
        world.checkStructuralCall("reserve");
        entities.requireRoom(n, "reserve room for");
        int want = (int) Math.min((long) entities.highWater() + n, EntityTable.MAX_INDICES);
        entities.ensureCapacity(want);
        world.storage().namedInstances().reserveEntities(want);
        archetype.reserve(n);
    }

    /**
     * Fills the fields of rows a {@link Shape#spawnMany(int, BatchWriter)} just placed.
     */
    @FunctionalInterface
    public interface BatchWriter {
        /**
         * Writes rows {@code [from, to)} of the chunk {@code rows} is bound to: new entities
         * number {@code first} to {@code first + (to - from) - 1} of the batch.
         *
         * @param rows an unchecked view bound to the chunk; valid only during the call
         * @param from the first new row, inclusive
         * @param to the end of the new rows, exclusive; {@code to > from}
         * @param first the batch index of the entity at row {@code from} (0 for the batch's first
         *     entity)
         */
        void write(ChunkView rows, int from, int to, int first);
    }

    /**
     * Spawns an entity of this shape with every field zero and returns the shape's reusable
     * {@link Row} positioned on it, to write its fields one by one with no record built.
     * The row stays valid until the next structural change moves or removes the entity's
     * row; a later write through it is refused with an {@link IllegalStateException}. Its
     * {@code onAdd} hooks fire as this returns, seeing zeros (the row's writes fire no hook).
     *
     * @return the shape's one reusable row, positioned on the new entity (its id is
     *     {@link Row#id()})
     */
    public Row spawnRow() {
        // Straight to a zeroed row: spawn()'s general values path checks each null and places the row in a
        // method too big for the JIT to inline here. A shape with a sparse column takes spawn(), which adds its sets.
        long e = chain.holdsSparse() ? spawn() : world.spawnEmpty(archetype, chain, true);
        int idx = Entity.index(e);
        row.at(archetype.chunk(entities.chunk(idx)), entities.row(idx), e);
        return row;
    }

    @Override
    public String toString() {
        return "Shape" + Arrays.toString(columns);
    }

    /**
     * Writes the fields of the entity a {@link Shape#spawnRow()} just spawned, straight into
     * its row. One per shape, reused by every {@code spawnRow}: keep the id ({@link #id()}),
     * not the row.
     */
    public final class Row {
        private Chunk chunk;
        private int rowIndex;
        private long entity;

        Row() {
        }

        void at(Chunk c, int r, long e) {
            if (chunk != c) { // a reference store pays the collector's write barrier (about 10 ns): skip an equal one
                chunk = c;
            }
            rowIndex = r;
            entity = e;
        }

        /**
         * The id of the entity this row writes.
         *
         * @return the id of the entity last spawned by {@link Shape#spawnRow()}
         */
        public long id() {
            return entity;
        }

        /**
         * Writes a {@code float} field.
         *
         * @param field a {@code float} field of one of the shape's columns
         * @param value the value; trusted, not checked against the field's range or validators
         * @return this row, for the next write
         * @throws IllegalArgumentException when the field is not a {@code float}, or its column is
         *     not the shape's
         * @throws IllegalStateException when a structural change has moved the entity's row since
         *     {@code spawnRow()}; write through {@code world.set} instead
         */
        public Row setFloat(Field field, float value) {
            if (writtenAsSparse(field, FieldType.FLOAT, Float.floatToRawIntBits(value))) {
                return this;
            }
            ((float[]) array(field, FieldType.FLOAT))[rowIndex] = value;
            return this;
        }

        /**
         * Writes an {@code int} field.
         *
         * @param field a {@code int} field of one of the shape's columns
         * @param value the value; trusted, not checked against the field's range or validators
         * @return this row, for the next write
         * @throws IllegalArgumentException when the field is not a {@code int}, or its column is
         *     not the shape's
         * @throws IllegalStateException when a structural change has moved the entity's row since
         *     {@code spawnRow()}; write through {@code world.set} instead
         */
        public Row setInt(Field field, int value) {
            if (writtenAsSparse(field, FieldType.INT, value)) {
                return this;
            }
            ((int[]) array(field, FieldType.INT))[rowIndex] = value;
            return this;
        }

        /**
         * Writes a {@code long} field.
         *
         * @param field a {@code long} field of one of the shape's columns
         * @param value the value; trusted, not checked against the field's range or validators
         * @return this row, for the next write
         * @throws IllegalArgumentException when the field is not a {@code long}, its column is not the
         *     shape's, or it is an {@code @EntityRef} field and the value a command buffer's handle
         * @throws IllegalStateException when a structural change has moved the entity's row since
         *     {@code spawnRow()}; write through {@code world.set} instead
         */
        public Row setLong(Field field, long value) {
            ProvisionalRefs.refuse(field.component(), field.index(), value); // as world.setLong refuses it
            if (writtenAsSparse(field, FieldType.LONG, value)) {
                return this;
            }
            ((long[]) array(field, FieldType.LONG))[rowIndex] = value;
            return this;
        }

        /**
         * Writes a {@code double} field.
         *
         * @param field a {@code double} field of one of the shape's columns
         * @param value the value; trusted, not checked against the field's range or validators
         * @return this row, for the next write
         * @throws IllegalArgumentException when the field is not a {@code double}, or its column is
         *     not the shape's
         * @throws IllegalStateException when a structural change has moved the entity's row since
         *     {@code spawnRow()}; write through {@code world.set} instead
         */
        public Row setDouble(Field field, double value) {
            if (writtenAsSparse(field, FieldType.DOUBLE, Double.doubleToRawLongBits(value))) {
                return this;
            }
            ((double[]) array(field, FieldType.DOUBLE))[rowIndex] = value;
            return this;
        }

        /**
         * Writes one field of any type from raw bits (see {@link FieldType#bits}).
         *
         * @param field a field of one of the shape's columns
         * @param bits the value as raw bits; trusted, not checked against range or validators
         * @return this row, for the next write
         * @throws IllegalArgumentException when an {@code @EntityRef} field gets a command buffer's handle
         * @throws IllegalStateException when a structural change has moved the entity's row since
         *     {@code spawnRow()}
         */
        public Row setBits(Field field, long bits) {
            ProvisionalRefs.refuse(field.component(), field.index(), bits);
            if (writtenAsSparse(field, field.type(), bits)) {
                return this;
            }
            field.type().setBits(array(field, field.type()), rowIndex, bits);
            return this;
        }

        /**
         * Writes a whole column's value (a record, or the object of a reference column).
         *
         * @param <T> the column's value type
         * @param column one of the shape's columns
         * @param value the value, of the column's type
         * @return this row, for the next write
         * @throws IllegalArgumentException when the column is not the shape's, or the value is not
         *     of its type
         */
        public <T> Row set(Component<T> column, T value) {
            EntityRows.checkValueType(column, value);
            if (column.isSparse()) {
                checkShape(column);
                world.set(entity, column, value);
            } else if (column.kind() != ComponentKind.TAG) {
                world.writeValue(column, value, chunk.columnArrays(slot(column)), rowIndex);
            }
            return this;
        }

        /**
         * A sparse column's field is not in the row: it is written by id through the world
         * (its set lives in the sparse storage). Returns true when {@code field} was such.
         */
        private boolean writtenAsSparse(Field field, FieldType type, long bits) {
            if (!field.component().isSparse()) {
                return false;
            }
            World.requireType(field, type);
            checkShape(field.component());
            world.setBitsUnvalidated(entity, field, bits); // a spawn: trusted, as the table columns' writes
            return true;
        }

        private void checkShape(Component<?> column) {
            for (Component<?> c : columns) {
                if (c == column) {
                    return;
                }
            }
            throw new IllegalArgumentException(column + " is not part of " + Shape.this + "; add it to the shape");
        }

        private Object array(Field field, FieldType type) {
            return chunk.columnArrays(slot(World.requireType(field, type).component()))[field.index()];
        }

        private int slot(Component<?> column) {
            if (chunk.entity(rowIndex) != entity || rowIndex >= chunk.size()) {
                throw new IllegalStateException("the spawn row of entity " + Entity.toString(entity) + " is stale: a "
                        + "structural change moved or removed it since spawnRow(); write through world.set(...) instead");
            }
            int slot = archetype.slotOf(column.id());
            if (slot < 0) {
                throw new IllegalArgumentException(column + " is not part of " + Shape.this + "; add it to the shape");
            }
            return slot;
        }
    }
}
