package dev.orrery.ecs;

import dev.orrery.ecs.archetype.Archetype;
import dev.orrery.ecs.archetype.Archetypes;
import dev.orrery.ecs.archetype.Chunk;
import dev.orrery.ecs.archetype.MovePlan;
import dev.orrery.ecs.component.Component;
import dev.orrery.ecs.component.ComponentKind;
import dev.orrery.ecs.component.ComponentRegistry;
import dev.orrery.ecs.component.ComponentType;
import dev.orrery.ecs.component.Field;
import dev.orrery.ecs.component.FieldType;
import dev.orrery.ecs.entity.Entity;
import dev.orrery.ecs.entity.EntityTable;
import dev.orrery.ecs.entity.StaleEntityException;
import dev.orrery.ecs.prototype.NamedInstances;
import dev.orrery.ecs.prototype.PropertyHandle;
import dev.orrery.ecs.prototype.Template;
import dev.orrery.ecs.query.Query;
import java.util.Objects;

/**
 * The ECS world: entities, their components stored by archetype in chunks, and the direct
 * structural operations (spawn, despawn, add, remove) for single-threaded code.
 *
 * <pre>{@code
 * World world = new World();
 * Component<Position> pos = world.component(Position.class);
 * Component<Velocity> vel = world.component(Velocity.class);
 * long e = world.spawn(new Position(0, 0, 0), new Velocity(1, 0, 0));
 * Query moving = world.query().with(pos, vel).build();
 * Field px = pos.field("x"), vx = vel.field("x");
 * moving.forEachChunk(c -> {
 *     float[] x = c.writeFloats(px);
 *     float[] v = c.readFloats(vx);
 *     for (int i = 0, n = c.size(); i < n; i++) x[i] += v[i];
 * });
 * }</pre>
 *
 * <p><b>Threading:</b> a world is owned by one thread. Structural operations run only on
 * that thread and only while no iteration or scheduled job is running: a query iteration
 * (and the scheduler, through {@link #lockStructure}) locks the structure, and a structural
 * call made while it is locked throws {@link IllegalStateException}; record such changes
 * in a command buffer instead. Field values may be read and written from jobs the
 * scheduler runs, as it arranges.
 */
public final class World {
    private final ComponentRegistry registry = new ComponentRegistry();
    private final Archetypes archetypes;
    private final EntityTable entities = new EntityTable();
    private final NamedInstances names = new NamedInstances(registry);
    private int structureLocks;
    private String lockReason;
    private final JobsRunning jobsRunning = new JobsRunning();

    /** A world with the default chunk budget ({@link Archetypes#DEFAULT_CHUNK_BYTES}). */
    public World() {
        this(Archetypes.DEFAULT_CHUNK_BYTES);
    }

    /** A world whose chunks hold about {@code chunkBytes} bytes of rows each. */
    public World(int chunkBytes) {
        this.archetypes = new Archetypes(chunkBytes);
    }

    // ---------------------------------------------------------------- registration

    /**
     * The unnamed column of a record component (value, or tag when the record has no
     * fields), registering it on first use. Its instance name is the class's simple name.
     *
     * @throws IllegalArgumentException naming the field when the record holds a field that
     *     is not a primitive
     */
    public <T extends Record> Component<T> component(Class<T> type) {
        ComponentType<T> t = registry.valueType(type);
        return registry.column(t, t.name());
    }

    /** The column of a record component under instance name {@code name} ("Fog"). */
    public <T extends Record> Component<T> component(Class<T> type, String name) {
        return registry.column(registry.valueType(type), name);
    }

    /** The unnamed column of a reference component: any object, stored by reference. */
    public <T> Component<T> referenceComponent(Class<T> type) {
        ComponentType<T> t = registry.referenceType(type);
        return registry.column(t, t.name());
    }

    /** The column of a reference component under instance name {@code name}. */
    public <T> Component<T> referenceComponent(Class<T> type, String name) {
        return registry.column(registry.referenceType(type), name);
    }

    /** The registry of component types and columns. */
    public ComponentRegistry components() {
        return registry;
    }

    /** The archetypes and the component index. */
    public Archetypes archetypes() {
        return archetypes;
    }

    /** Starts a query builder over this world. */
    public Query.Builder query() {
        return new Query.Builder(this);
    }

    // ---------------------------------------------------------------- structure lock

    /**
     * Refuses structural changes until the matching {@link #unlockStructure}. Locks nest.
     * Called by query iteration and by the scheduler around parallel jobs.
     */
    public void lockStructure(String reason) {
        if (structureLocks++ == 0) {
            lockReason = reason;
        }
    }

    /** Releases one {@link #lockStructure}. */
    public void unlockStructure() {
        if (structureLocks == 0) {
            throw new IllegalStateException("unlockStructure without a matching lockStructure");
        }
        if (--structureLocks == 0) {
            lockReason = null;
        }
    }

    /** True while structural changes are refused. */
    public boolean isStructureLocked() {
        return structureLocks != 0;
    }

    /** The marker the scheduler sets while jobs run; by-id writes refuse while it is set. */
    public JobsRunning jobsRunning() {
        return jobsRunning;
    }

    private void checkUnlocked(String operation) {
        checkUnlocked(operation, null);
    }

    private void checkUnlocked(String operation, Object subject) {
        if (structureLocks != 0) {
            String what = subject == null ? operation : operation + " " + subject;
            throw new IllegalStateException("structural change (" + what + ") attempted during " + lockReason
                    + "; chunks are being read, so record it in a CommandBuffer and apply it after the iteration");
        }
    }

    // ---------------------------------------------------------------- entities

    /** True when {@code entity} is a live entity of the current generation. */
    public boolean isAlive(long entity) {
        return entities.isAlive(entity);
    }

    /** Number of live entities. */
    public int entityCount() {
        return entities.aliveCount();
    }

    /** The location table (read-only use outside the world). */
    public EntityTable entityTable() {
        return entities;
    }

    private int requireAlive(long entity, String operation, Object subject) {
        if (!entities.isAlive(entity)) {
            throw new StaleEntityException(entity, subject == null ? operation : operation + " " + subject);
        }
        return Entity.index(entity);
    }

    /** The archetype of a live entity. */
    public Archetype archetypeOf(long entity) {
        return archetypes.get(entities.archetype(requireAlive(entity, "archetypeOf", null)));
    }

    /** Spawns an entity with no components. */
    public long spawn() {
        checkUnlocked("spawn");
        return place(archetypes.empty());
    }

    /**
     * Spawns an entity with the given component values, each stored in its type's unnamed
     * column (records are registered as value components on first use; any other object
     * must have been registered with {@link #referenceComponent}).
     */
    public long spawn(Object... values) {
        EntityBuilder b = entity();
        for (Object v : values) {
            b.with(unnamedColumnOf(v), v);
        }
        return b.spawn();
    }

    @SuppressWarnings({"unchecked", "rawtypes"})
    private Component<Object> unnamedColumnOf(Object value) {
        Objects.requireNonNull(value, "component value");
        Class<?> cls = value.getClass();
        ComponentType<?> known = registry.typeOf(cls);
        if (known != null && known.kind() == ComponentKind.REFERENCE) {
            return (Component) registry.column(known, known.name());
        }
        if (cls.isRecord()) {
            return (Component) component((Class<? extends Record>) cls);
        }
        throw new IllegalArgumentException(cls.getName() + " is not a record and is not registered; call "
                + "world.referenceComponent(" + cls.getSimpleName() + ".class) first");
    }

    /** Starts building an entity from named columns and values; see {@link EntityBuilder}. */
    public EntityBuilder entity() {
        return new EntityBuilder(this);
    }

    /**
     * Spawns an entity straight into {@code archetype}, every field zero (references null),
     * and registers its instance names in column-id order: the same world as {@link #spawn()}
     * followed by {@link #moveTo}{@code (e, archetype)}, without the row passing through the
     * empty archetype. Command-buffer playback uses it for a spawn whose adds it batched.
     *
     * @throws IllegalArgumentException if {@code archetype} is not one of this world's
     */
    public long spawnZeroed(Archetype archetype) {
        checkUnlocked("spawn");
        if (archetype.id() >= archetypes.count() || archetypes.get(archetype.id()) != archetype) {
            throw new IllegalArgumentException(archetype + " does not belong to this world; take archetypes from "
                    + "world.archetypes()");
        }
        long e = place(archetype);
        names.spawned(Entity.index(e), archetype);
        return e;
    }

    private long place(Archetype a) {
        long e = entities.allocate();
        long loc = a.appendRow(e);
        entities.place(Entity.index(e), a.id(), (int) (loc >>> 32), (int) loc);
        return e;
    }

    /** Spawns one entity into {@code a} and writes the given values (builder support). */
    long spawnInto(Archetype a, Component<?>[] columns, Object[] values) {
        checkUnlocked("spawn");
        for (int i = 0; i < columns.length; i++) {
            if (values[i] != null) {
                checkValueType(columns[i], values[i]);
            }
        }
        long e = place(a);
        int idx = Entity.index(e);
        names.spawned(idx, columns);
        Chunk c = a.chunk(entities.chunk(idx));
        int row = entities.row(idx);
        for (int i = 0; i < columns.length; i++) {
            if (values[i] != null) {
                writeValue(columns[i], values[i], c.columnArrays(a.slotOf(columns[i].id())), row);
            }
        }
        return e;
    }

    /** Spawns {@code n} entities into {@code a}, every row holding the same values (builder support). */
    long[] spawnManyInto(Archetype a, int n, Component<?>[] columns, Object[] values) {
        checkUnlocked("spawn");
        if (n < 0) {
            throw new IllegalArgumentException("cannot spawn a negative number of entities: " + n);
        }
        long[][] bits = new long[a.columnCount()][];
        Object[] refs = new Object[a.columnCount()];
        for (int s = 0; s < a.columnCount(); s++) {
            bits[s] = new long[a.component(s).type().fieldCount()];
        }
        for (int i = 0; i < columns.length; i++) {
            int s = a.slotOf(columns[i].id());
            if (values[i] == null) {
                continue;
            }
            checkValueType(columns[i], values[i]);
            if (columns[i].kind() == ComponentKind.REFERENCE) {
                refs[s] = values[i];
            } else if (columns[i].kind() == ComponentKind.VALUE) {
                bits[s] = columns[i].type().bitsOf(values[i]);
            }
        }
        long[] ids = new long[n];
        entities.ensureCapacity(entities.highWater() + n);
        for (int i = 0; i < n; i++) {
            ids[i] = entities.allocate();
        }
        final int aid = a.id();
        a.appendRows(ids, 0, n, bits, refs, (e, chunk, row) -> entities.place(Entity.index(e), aid, chunk, row));
        names.spawnedMany(ids, columns);
        return ids;
    }

    /**
     * Despawns a live entity: its row is removed (the archetype's last row moves into it)
     * and its id becomes stale.
     *
     * @throws StaleEntityException if {@code entity} is not alive
     */
    public void despawn(long entity) {
        checkUnlocked("despawn");
        int idx = requireAlive(entity, "despawn", null);
        Archetype a = archetypes.get(entities.archetype(idx));
        removeFromArchetype(a, entities.chunk(idx), entities.row(idx));
        entities.release(entity);
        names.despawned(idx);
    }

    private void removeFromArchetype(Archetype a, int chunk, int row) {
        long moved = a.removeRow(chunk, row);
        if (moved != Entity.NULL) {
            entities.moveRow(Entity.index(moved), chunk, row);
        }
    }

    // ---------------------------------------------------------------- components

    /** True when live {@code entity} holds {@code column}. */
    public boolean has(long entity, Component<?> column) {
        int idx = requireAlive(entity, "has", column);
        return archetypes.get(entities.archetype(idx)).has(column.id());
    }

    /**
     * Adds {@code column} to a live entity with zero (or null) field values; for tags this is
     * the whole operation.
     *
     * @throws IllegalStateException if the entity already holds the column (use {@link #set})
     */
    public void add(long entity, Component<?> column) {
        addInternal(entity, column, null);
    }

    /**
     * Adds {@code column} to a live entity with the given value.
     *
     * @throws IllegalStateException if the entity already holds the column (use {@link #set})
     * @throws IllegalArgumentException if another instance on the entity has the same name
     */
    public <T> void add(long entity, Component<T> column, T value) {
        addInternal(entity, column, value);
    }

    private void addInternal(long entity, Component<?> column, Object value) {
        checkUnlocked("add", column);
        int idx = requireAlive(entity, "add", column);
        Archetype from = archetypes.get(entities.archetype(idx));
        if (from.has(column.id())) {
            throw new IllegalStateException("entity " + Entity.toString(entity) + " already holds " + column
                    + "; use set(...) to change its value, or remove it first");
        }
        if (value != null) {
            checkValueType(column, value);
        }
        MovePlan plan = archetypes.addPlan(from, column);
        Archetype to = plan.target();
        move(idx, entity, plan);
        names.added(idx, column);
        if (value != null) {
            writeValue(column, value, to.chunk(entities.chunk(idx)).columnArrays(to.slotOf(column.id())),
                    entities.row(idx));
        }
    }

    /**
     * Removes {@code column} from a live entity.
     *
     * @return false (and no change) when the entity did not hold it
     */
    public boolean remove(long entity, Component<?> column) {
        checkUnlocked("remove", column);
        int idx = requireAlive(entity, "remove", column);
        Archetype from = archetypes.get(entities.archetype(idx));
        if (!from.has(column.id())) {
            return false;
        }
        move(idx, entity, archetypes.removePlan(from, column));
        names.removed(idx, column);
        return true;
    }

    /**
     * Moves a live entity to archetype {@code target} in one step: shared columns are copied,
     * columns new to the entity are zeroed, dropped ones are discarded. Command-buffer
     * playback uses this to turn several adds and removes into one move.
     */
    public void moveTo(long entity, Archetype target) {
        checkUnlocked("move");
        int idx = requireAlive(entity, "move", null);
        Archetype from = archetypes.get(entities.archetype(idx));
        if (from == target) {
            return;
        }
        move(idx, entity, from.planTo(target));
        names.moved(idx, from, target);
    }

    /**
     * Moves live entity {@code entity} (index {@code idx}) along {@code plan}: appends its row
     * to the target, removes the old row (the source's last row fills the hole) and updates
     * the location of both entities. The caller updates the prototype index.
     */
    private void move(int idx, long entity, MovePlan plan) {
        Archetype from = plan.source();
        Archetype target = plan.target();
        int chunk = entities.chunk(idx);
        int row = entities.row(idx);
        long loc = plan.append(entity, chunk, row);
        removeFromArchetype(from, chunk, row);
        entities.place(idx, target.id(), (int) (loc >>> 32), (int) loc);
    }

    /**
     * Adds {@code column} (zeroed, or a tag) to every entity that {@code query} matches and
     * lacks it, moving whole archetypes at once: rows are copied in blocks, not one entity
     * at a time. Entities that already hold it keep their value.
     *
     * @return the number of entities moved
     * @throws IllegalArgumentException if a matched archetype already holds another
     *     instance under the same name; nothing has moved then
     */
    public int addToAll(Query query, Component<?> column) {
        checkUnlocked("addToAll", column);
        java.util.List<Archetype> from = new java.util.ArrayList<>();
        java.util.List<Archetype> to = new java.util.ArrayList<>();
        for (Archetype a : query.archetypes()) {
            if (a.size() > 0 && !a.has(column.id())) {
                from.add(a);
            }
        }
        for (Archetype a : from) {
            to.add(archetypes.withAdded(a, column)); // throws on a name clash before anything moves
        }
        return moveAll(from, to);
    }

    /**
     * Removes {@code column} from every entity that {@code query} matches and holds it,
     * moving whole archetypes at once.
     *
     * @return the number of entities moved
     */
    public int removeFromAll(Query query, Component<?> column) {
        checkUnlocked("removeFromAll", column);
        java.util.List<Archetype> from = new java.util.ArrayList<>();
        java.util.List<Archetype> to = new java.util.ArrayList<>();
        for (Archetype a : query.archetypes()) {
            if (a.size() > 0 && a.has(column.id())) {
                from.add(a);
            }
        }
        for (Archetype a : from) {
            to.add(archetypes.withRemoved(a, column));
        }
        return moveAll(from, to);
    }

    private int moveAll(java.util.List<Archetype> from, java.util.List<Archetype> to) {
        int moved = 0;
        for (int i = 0; i < from.size(); i++) {
            Archetype src = from.get(i);
            Archetype dst = to.get(i);
            moved += src.size();
            int dstId = dst.id();
            dst.takeAllFrom(src, (e, chunk, row) -> {
                int idx = Entity.index(e);
                entities.place(idx, dstId, chunk, row);
                names.moved(idx, src, dst);
            });
        }
        return moved;
    }

    /** Computes the sort key of one row, for {@link #sortRows}. */
    @FunctionalInterface
    public interface RowKey {
        /** The key of row {@code row} of {@code chunk}; rows are ordered by ascending key. */
        long key(Chunk chunk, int row);
    }

    /**
     * Reorders the rows of {@code archetype} by ascending {@code key} (ties keep their current
     * order, so the result is deterministic), moving every column and updating each entity's
     * location. Use it to lay entities out in the order a system visits neighbours (for
     * example by spatial cell), so that system reads memory in order. Entity ids, values and
     * instance names do not change; only row positions do. Allocates one scratch array per
     * field of the archetype's size: call it every few ticks, not every tick.
     *
     * @throws IllegalStateException during an iteration or a scheduled run
     */
    public void sortRows(Archetype archetype, RowKey key) {
        checkUnlocked("sortRows", archetype);
        int n = archetype.size();
        if (n < 2) {
            return;
        }
        long[] keys = new long[n];
        long[] order = new long[n];
        int i = 0;
        for (int ci = 0; ci < archetype.chunkCount(); ci++) {
            Chunk c = archetype.chunk(ci);
            for (int r = 0; r < c.size(); r++, i++) {
                keys[i] = key.key(c, r);
                order[i] = ((long) ci << 32) | r;
            }
        }
        it.unimi.dsi.fastutil.longs.LongArrays.radixSort(keys, order, 0, n);
        final int aid = archetype.id();
        archetype.permuteRows(order, (e, chunk, row) -> entities.place(Entity.index(e), aid, chunk, row));
    }

    /**
     * The value of {@code column} on a live entity, as a new record (a reference column
     * returns the stored object; a tag returns null).
     *
     * @throws IllegalArgumentException if the entity lacks the column
     */
    public <T> T get(long entity, Component<T> column) {
        int idx = requireAlive(entity, "get", column);
        return column.type().read(arraysOf(idx, entity, column), entities.row(idx));
    }

    /**
     * Overwrites the value of {@code column} on a live entity that holds it. Not a
     * structural change: allowed during iteration, on the owning thread.
     */
    public <T> void set(long entity, Component<T> column, T value) {
        jobsRunning.checkByIdWrite("set", entity, column);
        int idx = requireAlive(entity, "set", column);
        checkValueType(column, value);
        writeValue(column, value, arraysOf(idx, entity, column), entities.row(idx));
    }

    /** One field of a live entity's column, as raw bits (see {@link FieldType#bits}). */
    public long getBits(long entity, Field field) {
        int idx = requireAlive(entity, "get", field);
        return field.type().bits(arraysOf(idx, entity, field.component())[field.index()], entities.row(idx));
    }

    /** Writes one field of a live entity's column from raw bits. */
    public void setBits(long entity, Field field, long bits) {
        jobsRunning.checkByIdWrite("setBits", entity, field);
        int idx = requireAlive(entity, "set", field);
        field.type().setBits(arraysOf(idx, entity, field.component())[field.index()], entities.row(idx), bits);
    }

    /** One field of a live entity's column, boxed (cold paths: tools, scripts). */
    public Object getValue(long entity, Field field) {
        int idx = requireAlive(entity, "get", field);
        return field.type().box(arraysOf(idx, entity, field.component())[field.index()], entities.row(idx));
    }

    /** One {@code float} field of a live entity. */
    public float getFloat(long entity, Field field) {
        return Float.intBitsToFloat((int) getBits(entity, requireType(field, FieldType.FLOAT)));
    }

    /** Writes one {@code float} field of a live entity. */
    public void setFloat(long entity, Field field, float value) {
        jobsRunning.checkByIdWrite("setFloat", entity, field);
        setBits(entity, requireType(field, FieldType.FLOAT), Float.floatToRawIntBits(value));
    }

    /** One {@code int} field of a live entity. */
    public int getInt(long entity, Field field) {
        return (int) getBits(entity, requireType(field, FieldType.INT));
    }

    /** Writes one {@code int} field of a live entity. */
    public void setInt(long entity, Field field, int value) {
        jobsRunning.checkByIdWrite("setInt", entity, field);
        setBits(entity, requireType(field, FieldType.INT), value);
    }

    /** One {@code double} field of a live entity. */
    public double getDouble(long entity, Field field) {
        return Double.longBitsToDouble(getBits(entity, requireType(field, FieldType.DOUBLE)));
    }

    /** Writes one {@code double} field of a live entity. */
    public void setDouble(long entity, Field field, double value) {
        jobsRunning.checkByIdWrite("setDouble", entity, field);
        setBits(entity, requireType(field, FieldType.DOUBLE), Double.doubleToRawLongBits(value));
    }

    /** One {@code long} field of a live entity. */
    public long getLong(long entity, Field field) {
        return getBits(entity, requireType(field, FieldType.LONG));
    }

    /** Writes one {@code long} field of a live entity. */
    public void setLong(long entity, Field field, long value) {
        jobsRunning.checkByIdWrite("setLong", entity, field);
        setBits(entity, requireType(field, FieldType.LONG), value);
    }

    private static Field requireType(Field field, FieldType type) {
        if (field.type() != type) {
            throw new IllegalArgumentException("field " + field + " is " + field.type() + ", not " + type);
        }
        return field;
    }

    private Object[] arraysOf(int idx, long entity, Component<?> column) {
        Archetype a = archetypes.get(entities.archetype(idx));
        int slot = a.slotOf(column.id());
        if (slot < 0) {
            throw new IllegalArgumentException("entity " + Entity.toString(entity) + " has no component " + column
                    + "; it holds " + a.components() + ". Add it first, or test has(...)");
        }
        return a.chunk(entities.chunk(idx)).columnArrays(slot);
    }

    private static void checkValueType(Component<?> column, Object value) {
        Objects.requireNonNull(value, () -> "value for " + column);
        if (!column.type().javaClass().isInstance(value)) {
            throw new IllegalArgumentException("value of type " + value.getClass().getName() + " given for component "
                    + column + " of type " + column.type().javaClass().getName());
        }
    }

    private static void writeValue(Component<?> column, Object value, Object[] arrays, int row) {
        column.type().write(value, arrays, row);
    }

    // ---------------------------------------------------------------- named instances (prototype index)

    /** The prototype index of instance names, kept current by every structural change (read-only use). */
    public NamedInstances namedInstances() {
        return names;
    }

    /**
     * The instance a live entity holds under instance name {@code name} ("Fog"), or
     * {@code null}. Owning thread only: it fills the prototype index's look-up cache.
     */
    public Component<?> findComponent(long entity, String name) {
        return names.find(requireAlive(entity, "findComponent", name), name);
    }

    /** Spawns one entity from {@code template}; its names are registered in template order. */
    public long spawn(Template template) {
        checkUnlocked("spawn", template.name());
        names.checkTemplate(template);
        Component<?>[] cols = template.columnArray();
        return spawnInto(archetypes.of(cols), cols, template.valueArray());
    }

    /** Spawns {@code n} entities from {@code template} in bulk, registering their names in one batch. */
    public long[] spawnMany(Template template, int n) {
        checkUnlocked("spawn", template.name());
        names.checkTemplate(template);
        Component<?>[] cols = template.columnArray();
        return spawnManyInto(archetypes.of(cols), n, cols, template.valueArray());
    }

    /**
     * One field of a named instance, boxed: {@code getProperty(e, "Fog", "density")}.
     *
     * @throws IllegalArgumentException listing the entity's instance names, or the instance's fields
     */
    public Object getProperty(long entity, String component, String field) {
        requireAlive(entity, "getProperty", component);
        return getValue(entity, names.field(entity, component, field));
    }

    /** Writes one field of a named instance from a boxed value (see {@link PropertyHandle#write}). */
    public void setProperty(long entity, String component, String field, Object value) {
        jobsRunning.checkByIdWrite("setProperty", entity, component + "." + field);
        requireAlive(entity, "setProperty", component);
        PropertyHandle.write(this, entity, names.field(entity, component, field), value);
    }

    /** A pre-resolved handle for property (component name, field name), for frequent access. */
    public PropertyHandle property(String component, String field) {
        return new PropertyHandle(this, names, component, field);
    }

    // ---------------------------------------------------------------- hashing

    /**
     * One hash per column (indexed by column id) over the column's values in canonical
     * order (archetypes in creation order, chunks, rows, with each row's entity id), so a
     * replay that diverges can say which component types differ. Cold path.
     */
    public long[] columnHashes() {
        StateHasher[] hs = new StateHasher[registry.columnCount()];
        for (int i = 0; i < hs.length; i++) {
            hs[i] = new StateHasher();
        }
        for (int ai = 0; ai < archetypes.count(); ai++) {
            Archetype a = archetypes.get(ai);
            for (int s = 0; s < a.columnCount(); s++) {
                StateHasher h = hs[a.columnId(s)];
                ComponentType<?> t = a.component(s).type();
                for (int ci = 0; ci < a.chunkCount(); ci++) {
                    Chunk chunk = a.chunk(ci);
                    for (int r = 0; r < chunk.size(); r++) {
                        h.mix(chunk.entity(r));
                        for (int f = 0; f < t.fieldCount(); f++) {
                            FieldType ft = t.fieldType(f);
                            Object arr = chunk.array(s, f);
                            h.mix(valueWord(ft, arr, r));
                        }
                    }
                }
            }
        }
        long[] out = new long[hs.length];
        for (int i = 0; i < hs.length; i++) {
            out[i] = hs[i].value();
        }
        return out;
    }

    /** The word a field value contributes to a hash: its exact bits, or a reference's hashCode. */
    private static long valueWord(FieldType ft, Object array, int row) {
        return ft == FieldType.OBJECT ? Objects.hashCode(((Object[]) array)[row]) : ft.bits(array, row);
    }

    /**
     * A 64-bit hash of the whole state: for every archetype in creation order, its columns,
     * then every row in chunk order with its entity id and every field's exact bits; then
     * the generations and the free list. Two worlds with equal hashes hold the same entities
     * with the same values in the same places. Reference components contribute their
     * {@code hashCode()}, so make them value-based if they matter to determinism.
     */
    public long stateHash() {
        StateHasher h = new StateHasher();
        for (int ai = 0; ai < archetypes.count(); ai++) {
            Archetype a = archetypes.get(ai);
            h.mix(0xA5A5_0000_0000L | ai);
            h.mix(a.size());
            for (int s = 0; s < a.columnCount(); s++) {
                Component<?> c = a.component(s);
                h.mix(((long) c.type().id() << 32) | (c.nameHash() & 0xFFFF_FFFFL));
            }
            for (int ci = 0; ci < a.chunkCount(); ci++) {
                Chunk chunk = a.chunk(ci);
                int n = chunk.size();
                long[] ids = chunk.entities();
                for (int r = 0; r < n; r++) {
                    h.mix(ids[r]);
                }
                for (int s = 0; s < a.columnCount(); s++) {
                    ComponentType<?> t = a.component(s).type();
                    for (int f = 0; f < t.fieldCount(); f++) {
                        FieldType ft = t.fieldType(f);
                        Object arr = chunk.array(s, f);
                        for (int r = 0; r < n; r++) {
                            h.mix(valueWord(ft, arr, r));
                        }
                    }
                }
            }
        }
        h.mix(entities.highWater());
        for (int i = 0; i < entities.highWater(); i++) {
            h.mix(entities.generation(i));
        }
        for (int free : entities.freeListInOrder()) {
            h.mix(free);
        }
        return h.value();
    }
}
