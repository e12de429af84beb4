package dev.orrery.ecs;

import dev.orrery.ecs.archetype.Archetype;
import dev.orrery.ecs.archetype.Archetypes;
import dev.orrery.ecs.archetype.BulkMoves;
import dev.orrery.ecs.archetype.RowKey;
import dev.orrery.ecs.archetype.RowSort;
import dev.orrery.ecs.archetype.StructureLock;
import dev.orrery.ecs.component.Component;
import dev.orrery.ecs.component.ComponentRegistry;
import dev.orrery.ecs.component.ComponentType;
import dev.orrery.ecs.component.Entity;
import dev.orrery.ecs.component.Field;
import dev.orrery.ecs.component.FieldRules;
import dev.orrery.ecs.component.FieldType;
import dev.orrery.ecs.component.FieldValidator;
import dev.orrery.ecs.component.InvalidFieldValueException;
import dev.orrery.ecs.component.StaleEntityException;
import dev.orrery.ecs.component.Storage;
import dev.orrery.ecs.ownership.OwnerThread;
import dev.orrery.ecs.prototype.NamedInstances;
import dev.orrery.ecs.prototype.SpawnChain;
import dev.orrery.ecs.storage.EntityTable;
import dev.orrery.ecs.storage.JobsRunning;
import dev.orrery.ecs.structure.EntityRows;
import dev.orrery.ecs.structure.SparseColumns;
import dev.orrery.ecs.structure.WorldStorage;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/*
 * Over 500 lines, on purpose: World is the facade, and its length is its public surface.
 * About sixty public methods (registration, spawn in five forms, despawn, add, remove, the
 * bulk moves, by-id reads and writes per field type, properties, validators, hashes), each a
 * Javadoc, the owner/lock/liveness checks and one delegation into a room behind it:
 * EntityRows (row work), WorldSpawns (shapes and the spawn paths), WorldSparse and
 * SparseColumns (sparse storage), FieldRules (validated writes), NamedInstances (names),
 * WorldHashes (hashes). Those rooms hold the logic and state; splitting the facade itself
 * would hand users a second object for half of the same calls.
 */

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
 * <p>The world is the facade; the rooms behind it are {@code dev.orrery.ecs.archetype}
 * (rows, chunks, moves, bulk moves, row sorting), {@code dev.orrery.ecs.storage} (entity
 * table, row work, and {@code WorldStorage} for the scheduler and engine), {@code
 * dev.orrery.ecs.prototype} (instance names) and {@code dev.orrery.ecs.hash} (state hashes).
 *
 * <p><b>Threading:</b> a world is owned by one thread at a time: the one last bound with
 * {@link #bindOwner} or, while unbound (the default), whichever single thread uses it.
 * Structural calls (spawn, despawn, add, remove, moveTo, the bulk moves, sortRows) assert
 * under {@code -ea} that the caller is the bound owner, and are refused with an
 * {@link IllegalStateException} while a query iteration or a scheduled run holds the
 * structure lock (record them in a command buffer instead). Field values may be read and
 * written from jobs the scheduler runs, as it arranges. An executor or simulation that
 * runs the world on another thread rebinds it there; the hand-off needs the happens-before
 * edge {@link OwnerThread} describes.
 */
public final class World implements FieldAccess {
    private final ComponentRegistry registry = new ComponentRegistry();
    private final Archetypes archetypes;
    private final EntityTable entities = new EntityTable();
    /** Kept between state hashes, which a simulation takes every tick by default: they allocate nothing for it. */
    private final WorldHashes.Scratch hashScratch = new WorldHashes.Scratch();
    private final SparseColumns sparse = new SparseColumns(registry);
    // Sparse instances are not in the prototype index; it asks their sets.
    private final NamedInstances names = new NamedInstances(registry, sparse);
    private final StructureLock structure = new StructureLock();
    private final WorldStorage storage;
    private final EntityRows rows;
    /** addToAll and removeFromAll: its lists and sink are kept from call to call. */
    private final BulkMoves bulkMoves;
    private final OwnerThread owner = new OwnerThread("world");
    private final JobsRunning jobsRunning = new JobsRunning();
    private final WorldSparse sparseSide;
    private final WorldSpawns spawns;
    private final FieldRules fieldRules = new FieldRules();
    private final FieldAccess unvalidated = new UnvalidatedFields(this);
    private final ChangeTracker changes;
    private final WorldRelations relationSide;
    // The playback of apply(...), made on first use.
    private CommandPlayback directPlayback;
    // What templates resolved to here, by their columns in order (templates with the same list
    // share one): held here so a resolution lasts as long as this world, while a template holds
    // it weakly and so does not keep this world reachable. Owner thread.
    private final Map<List<Component<?>>, Template.Prepared> templates = new HashMap<>();

    /** A world with the default chunk budget ({@link Archetypes#DEFAULT_CHUNK_BYTES}). */
    public World() {
        this(Archetypes.DEFAULT_CHUNK_BYTES);
    }

    /**
     * A world whose chunks hold about {@code chunkBytes} bytes of rows each.
     *
     * @param chunkBytes the byte budget of one chunk's rows, at least 256; a chunk holds as many rows of an
     *     archetype as fit in it (the default is 256 KiB)
     * @throws IllegalArgumentException if {@code chunkBytes} is below 256
     */
    public World(int chunkBytes) {
        this.archetypes = new Archetypes(chunkBytes);
        this.storage = new WorldStorage(archetypes, entities, names, structure, jobsRunning, sparse);
        this.changes = new ChangeTracker(archetypes.clock(), registry, structure);
        this.rows = new EntityRows(archetypes, entities, names, changes, structure);
        this.bulkMoves = new BulkMoves(archetypes, rows::moved);
        this.sparseSide = new WorldSparse(this, archetypes, rows, sparse);
        this.spawns = new WorldSpawns(registry, archetypes, rows, sparse, sparseSide);
        this.relationSide = new WorldRelations(this, rows, entities, sparse);
    }

    /**
     * The unnamed column of a record component (value, or tag when the record has no
     * fields), registering it on first use. Its instance name is the class's simple name.
     *
     * @param <T> the record type
     * @param type a record class whose fields are all primitives, not null
     * @return the column handle, the same column on every call for {@code type}; use it with this world
     *     only
     * @throws IllegalArgumentException naming the field when the record holds a field that
     *     is not a primitive
     * @throws IllegalStateException when a scheduled job asks for a column not registered yet
     *     (every registration call: register at set-up; a registered column is still answered)
     */
    public <T extends Record> Component<T> component(Class<T> type) {
        refuseNewColumnInJobs(type, null);
        ComponentType<T> t = registry.valueType(type);
        return registry.column(t, t.name());
    }

    /**
     * The column of a record component under instance name {@code name} ("Fog").
     *
     * @param <T> the record type
     * @param type a record class whose fields are all primitives, not null
     * @param name the instance name, not empty; one entity may hold several instances of a type under
     *     different names
     * @return the column handle, registered on first use; the same column for the same type and name
     * @throws IllegalArgumentException if the name is empty or a relation's, or the class is not a record
     *     of primitive fields
     */
    public <T extends Record> Component<T> component(Class<T> type, String name) {
        refuseNewColumnInJobs(type, name);
        return registry.column(registry.valueType(type), name);
    }

    /**
     * The unnamed column of a record component with the given storage, registering it on
     * first use ({@link Storage#SPARSE} for components added and removed often: status
     * effects, markers; see {@link Storage}). {@link #spawn(Object...)} then uses it with
     * that storage.
     *
     * @param <T> the record type
     * @param type a record class whose fields are all primitives, not null
     * @param storage {@link Storage#TABLE} or {@link Storage#SPARSE}, not null
     * @return the column handle, registered with {@code storage} on first use
     * @throws IllegalArgumentException if the column was registered with another storage,
     *     naming the column and both storages
     */
    public <T extends Record> Component<T> component(Class<T> type, Storage storage) {
        refuseNewColumnInJobs(type, null);
        ComponentType<T> t = registry.valueType(type);
        return withSet(registry.column(t, t.name(), java.util.Objects.requireNonNull(storage, "storage")));
    }

    /**
     * The column of a record component under instance name {@code name} with the given
     * storage; see {@link #component(Class, Storage)}.
     *
     * @param <T> the record type
     * @param type a record class whose fields are all primitives, not null
     * @param name the instance name, not empty
     * @param storage {@link Storage#TABLE} or {@link Storage#SPARSE}, not null
     * @return the column handle, registered with {@code storage} on first use
     * @throws IllegalArgumentException if the column was registered with another storage, a sparse
     *     column's name is already used by another column, or the name is a relation's
     */
    public <T extends Record> Component<T> component(Class<T> type, String name, Storage storage) {
        refuseNewColumnInJobs(type, name);
        return withSet(registry.column(registry.valueType(type), name, java.util.Objects.requireNonNull(storage, "storage")));
    }

    /**
     * The unnamed column of a reference component with the given storage; see {@link #component(Class, Storage)}.
     *
     * @param <T> the stored object's type
     * @param type the class of the stored objects, not null
     * @param storage {@link Storage#TABLE} or {@link Storage#SPARSE}, not null
     * @return the column handle, registered with {@code storage} on first use
     * @throws IllegalArgumentException if the class is already registered as a value or tag component, or
     *     the column was registered with another storage
     */
    public <T> Component<T> referenceComponent(Class<T> type, Storage storage) {
        refuseNewColumnInJobs(type, null);
        ComponentType<T> t = registry.referenceType(type);
        return withSet(registry.column(t, t.name(), java.util.Objects.requireNonNull(storage, "storage")));
    }

    /**
     * Makes a sparse column's set as the column is registered, on the registering (owner's)
     * thread: jobs on workers then only read the sets ({@code chunk.has(c, row)}, by-id
     * reads), where a set made on first use by two workers at once would race.
     */
    private <T> Component<T> withSet(Component<T> column) {
        if (column.isSparse()) {
            sparse.of(column);
        }
        return column;
    }

    /**
     * The unnamed column of a reference component: any object, stored by reference.
     *
     * @param <T> the stored object's type
     * @param type the class of the stored objects, not null; any class, a record included
     * @return the column handle, registered on first use; its values are held by reference and not copied
     * @throws IllegalArgumentException if the class is already registered as a value or tag component
     *     (register it as one kind everywhere)
     */
    public <T> Component<T> referenceComponent(Class<T> type) {
        refuseNewColumnInJobs(type, null);
        ComponentType<T> t = registry.referenceType(type);
        return registry.column(t, t.name());
    }

    /**
     * The column of a reference component under instance name {@code name}.
     *
     * @param <T> the stored object's type
     * @param type the class of the stored objects, not null
     * @param name the instance name, not empty
     * @return the column handle, registered on first use
     * @throws IllegalArgumentException if the class is already registered as a value or tag component, or
     *     the name is empty
     */
    public <T> Component<T> referenceComponent(Class<T> type, String name) {
        refuseNewColumnInJobs(type, name);
        return registry.column(registry.referenceType(type), name);
    }

    /**
     * Refuses registering a column that does not exist yet while scheduled jobs run: the
     * registry is not thread-safe and the jobs read it (a new sparse column would also make
     * its set off the owner's thread). A column registered before is only looked up, so a job
     * may still ask for its handle. Costs nothing outside a run.
     */
    private void refuseNewColumnInJobs(Class<?> javaClass, String name) {
        if (!jobsRunning.isRunning() || javaClass == null) {
            return;                                  // a null class is refused by the registry, naming it
        }
        ComponentType<?> t = registry.typeOf(javaClass);
        String typeName = javaClass.getSimpleName();
        String instance = name != null ? name : typeName;
        if (t != null) {
            for (Component<?> c : registry.columns()) {
                if (c.type() == t && c.name().equals(instance)) {
                    return;
                }
            }
        }
        jobsRunning.checkRegistration(instance.equals(typeName) ? typeName : typeName + ":" + instance);
    }

    /** The registry of component types and columns. */
    ComponentRegistry components() {
        return registry;
    }

    /**
     * The world's storage: archetypes and chunks, the entity table, the prototype index and
     * the structure lock. For Orrery's scheduler, engine and tools: its package is not
     * exported to user modules.
     */
    WorldStorage storage() {
        return storage;
    }

    /** The spawn side (package tests look at its caches). */
    WorldSpawns spawns() {
        return spawns;
    }

    /**
     * The world's relationships: relation kinds ({@code ChildOf} and a game's own), the pairs
     * entities hold, their cleanup when a target is despawned, and hierarchy walks; see
     * {@link Relations}.
     *
     * @return this world's relations, the same object on every call; owning thread, like the world's other
     *     structural calls
     */
    public Relations relations() {
        return relationSide.relations;
    }

    /**
     * Applies the commands recorded in {@code buffer} to this world, the way a sync point
     * applies a scheduled system's (in recording order, provisional handles resolved, the adds
     * and removes of one entity batched into one archetype move), then clears the buffer. Commands that cannot apply (a dead entity, a duplicate instance name)
     * are counted in the report, or, in strict mode (on under {@code -ea}; see
     * {@code -Dorrery.commands.strict}), refused with a {@link RefusedCommandException} after the
     * valid ones applied. For single-threaded code; a schedule applies its own buffers.
     *
     * @param buffer the commands to apply, not null; empty afterwards
     * @return what happened; the same object is reused (and overwritten) by the next {@code apply}
     */
    public PlaybackReport apply(CommandBuffer buffer) {
        java.util.Objects.requireNonNull(buffer, "buffer");
        return playback().apply(this, buffer);
    }

    /**
     * Applies several buffers in one playback, their commands merged by sort key as a sync
     * point merges its workers' buffers; see {@link #apply(CommandBuffer)}.
     *
     * @param buffers the buffers to apply, not null; each is empty afterwards
     * @return what happened; the same object is reused (and overwritten) by the next {@code apply}
     */
    public PlaybackReport apply(List<CommandBuffer> buffers) {
        java.util.Objects.requireNonNull(buffers, "buffers");
        return playback().apply(this, buffers);
    }

    private CommandPlayback playback() {
        if (directPlayback == null) {
            directPlayback = new CommandPlayback();
        }
        return directPlayback;
    }

    /**
     * Every column registered in this world, in id order (the order of registration): value,
     * tag, reference and relation columns alike. A read-only view.
     *
     * @return an unmodifiable list indexed by column id; it grows as columns are registered
     */
    public List<Component<?>> columns() {
        return registry.columns();
    }

    /**
     * Starts logging which entities lose table column {@code column} (by remove or despawn),
     * so that systems can read them with {@code job.removed(column)} after the sync point.
     * Call it during set-up, on the owning thread; a second call changes nothing. The log
     * keeps two schedule runs' worth of entries, retired as each run starts; a reader that
     * skips more sees {@code RemovedEntities.missed()}. A world that a loop of your own
     * changes without a schedule must call {@link #retireRemovals} once per iteration, or
     * its logs keep every entry.
     *
     * @param column a table column registered by this world
     * @throws IllegalArgumentException for a sparse column or one of another world
     */
    public void trackRemoved(Component<?> column) {
        changes.trackRemoved(column);
    }

    /**
     * Ends one run of a loop of your own for the removal logs, as a schedule's run does as it
     * starts: the entries made before the run two calls back are dropped, so the logs keep
     * the last two runs' removals and no more. A world that a schedule (or a simulation)
     * runs needs no call: its executor retires the logs as each run starts, and calling this
     * between its runs as well would age entries out before its systems read them (they then
     * see {@code RemovedEntities.missed()}). Call it on the owning thread, outside queries
     * and systems; it allocates nothing. In a world that tracks no removal it only moves the
     * change clock when nothing else moved it since the last call.
     *
     * @throws IllegalStateException while a query iteration, a scheduled run or a system is under
     *     way (a schedule retires its world's logs itself)
     */
    public void retireRemovals() {
        if (structure.isLocked() || changes.clock().inSystem()) {
            throw new IllegalStateException("world.retireRemovals() was called inside a query iteration, an observer "
                    + "hook or a system; call it between the iterations of a loop of your own, outside them (a schedule "
                    + "retires the removal logs itself as each run starts, so a system needs no call)");
        }
        assert owner.checkCaller("retireRemovals");
        changes.retire();
    }

    /**
     * The world's change state: the change clock, removal logs ({@code trackRemoved},
     * {@code removed}) and observers; see {@link ChangeTracker}.
     */
    ChangeTracker changes() {
        return changes;
    }

    /**
     * Keeps a changed version per row of table component {@code column}, besides the chunk's:
     * a {@code changed(column)} query can then visit only the rows written since the system
     * last ran ({@code ChunkView.firstChanged}/{@code nextChanged}) when a few rows of every
     * chunk change. Rows are stamped by by-id writes, playback sets, row arrivals and
     * {@code ChunkView.markChanged(column, row)}; a write accessor ({@code writeFloats})
     * cannot tell its rows and stamps them all. Costs a long per row and a log of stamped
     * rows (about 24 bytes per row); untracked components pay nothing. Call during set-up.
     *
     * @param column a table column registered by this world
     * @throws IllegalArgumentException if {@code column} is sparse (sparse columns keep no versions)
     * @throws IllegalStateException if a live entity already holds {@code column} (archetypes that
     *     hold it with no rows, such as a prepared shape's, are fine)
     */
    public void trackRowChanges(Component<?> column) {
        if (owned(column, "trackRowChanges").isSparse()) {
            throw new IllegalArgumentException("component " + column + " is sparse and keeps no change versions; "
                    + "track rows of table components only");
        }
        var holders = archetypes.withColumn(column.id()); // the component index, in creation order
        for (int i = 0; i < holders.size(); i++) {
            Archetype a = archetypes.get(holders.getInt(i));
            if (a.size() > 0) {
                throw new IllegalStateException("component " + column + " is held by " + a.size() + " live "
                        + (a.size() == 1 ? "entity" : "entities") + " of archetype " + a.components() + ", and row "
                        + "versions must start with a column's first row; call trackRowChanges(" + column + ") during "
                        + "set-up, before spawning entities with it (registering it, preparing shapes and reserving rows "
                        + "first are fine)");
            }
        }
        column.trackRowChanges();
        for (int i = 0; i < holders.size(); i++) {
            archetypes.get(holders.getInt(i)).trackRows(column);
        }
    }

    /**
     * The observers of table component {@code column}: {@code world.observe(c).onAdd(hook)};
     * see {@link ComponentObservers}.
     *
     * @param <T> the column's value type
     * @param column a table column registered by this world
     * @return the column's observer registry, to which {@code onAdd}, {@code onRemove} and {@code onSet}
     *     hooks are added
     */
    public <T> ComponentObservers<T> observe(Component<T> column) {
        return changes.observe(column);
    }

    /**
     * Bounds observer cascades by their work: the hooks fired by one playback or one direct
     * call, and every round their commands fire in turn, may record at most {@code commands}
     * commands in all (spawns included; default 1 000 000). The command past it is refused
     * before it is stored, and an {@link ObserverCascadeException} names the chain; the
     * changes of the earlier rounds stay. Raise it for hooks that must record more than a
     * million commands for one sync point; call during set-up, on the owning thread. (A loop
     * that records little per round is refused after 10 000 rounds, whatever this limit.)
     *
     * @param commands the most commands one cascade may record, 1 or more
     * @throws IllegalArgumentException if {@code commands} is below 1
     */
    public void observerCascadeLimit(int commands) {
        assert owner.checkCaller("observerCascadeLimit");
        changes.cascadeLimit(commands);
    }

    /**
     * The most commands one observer cascade may record ({@link #observerCascadeLimit(int)}).
     *
     * @return the limit in commands, 1 000 000 unless set
     */
    public int observerCascadeLimit() {
        return changes.cascadeLimit();
    }

    /** Fires the observer hooks a direct call queued; returns {@code result}. */
    private long fired(long result) {
        changes.afterDirect(this);
        return result;
    }

    /**
     * Starts a query builder over this world.
     *
     * @return a new builder; add its terms, then {@code build()} once, at set-up (a query is meant to be
     *     kept and run every tick)
     */
    public Query.Builder query() {
        Query.Builder b = new Query.Builder(archetypes, structure, sparse, relationSide.relations, jobsRunning);
        b.registry = registry;
        return b;
    }

    /**
     * True when {@code query} was built by this world (reads this world's archetypes).
     *
     * @param query a query, not null
     * @return true when it reads this world; false for a query another world built
     */
    public boolean owns(Query query) {
        return query.readsFrom(archetypes);
    }

    /**
     * True while structural changes are refused (a query iteration or a scheduled run holds the lock).
     *
     * @return true while a query's {@code forEach} or a scheduled run is under way; spawns, despawns, adds
     *     and removes then throw, and a {@link CommandBuffer} is the way to record them
     */
    public boolean isStructureLocked() {
        return structure.isLocked();
    }

    /**
     * Makes {@code thread} the world's owner ({@code null} unbinds: no check). Structural
     * calls from any other thread then fail an assertion under {@code -ea}. The executor and
     * the simulation bind the thread that runs the world when they start running it.
     *
     * @param thread the thread that alone may make structural calls, or {@code null} to allow any
     */
    public void bindOwner(Thread thread) {
        owner.bind(thread);
    }

    /** The checks of a structural call, for {@link Shape}'s calls that do not go through the world's. */
    void checkStructuralCall(String operation) {
        checkUnlocked(operation, null);
    }

    /**
     * Every structural call passes here: the structure lock first, then the owner assertion.
     * A job that calls {@code spawn} runs on a worker, so it fails both checks; the lock's
     * message is the one that names the fix (from a job: the system and its
     * {@code job.commands()} call; else: record it in a CommandBuffer), so it goes first,
     * and it fires with assertions off too. The lock was taken by the owner before the jobs
     * were handed out, so a worker reads it through that hand-off's happens-before edge.
     */
    void checkUnlocked(String operation, Object subject) {
        if (structure.isLocked()) {
            jobsRunning.checkStructural(operation, subject);   // from a job: name the system and job.commands()
        }
        structure.checkUnlocked(operation, subject);
        assert owner.checkCaller(operation);
    }

    /**
     * True when {@code entity} is a live entity of the current generation. A stale id (its
     * entity despawned) stays stale for good: a reused slot takes the next generation, and a
     * slot whose generation would wrap is retired instead of reused (see {@link Entity}).
     */
    public boolean isAlive(long entity) {
        return entities.isAlive(entity);
    }

    /**
     * Number of live entities.
     *
     * @return the live entities, 0 or more; despawned ones are not counted
     */
    public int entityCount() {
        return entities.aliveCount();
    }

    int requireAlive(long entity, String operation, Object subject) {
        if (!entities.isAlive(entity)) {
            throw entities.refusal(entity, subject == null ? operation : operation + " " + subject);
        }
        return Entity.index(entity);
    }

    /**
     * Returns {@code column} when it is this world's: one reference compare. Another world's
     * handle has an id that names a different column here, so it is refused before any use.
     *
     * @throws NullPointerException naming the operation when {@code column} is null
     * @throws IllegalArgumentException naming the component and the fix when another world registered it
     */
    <C extends Component<?>> C owned(C column, String operation) {
        return Owned.check(registry, column, operation);
    }

    /** {@link #owned(Component, String)} for a field's component. */
    Field owned(Field field, String operation) {
        if (field == null || !registry.owns(field.component())) {
            throw Owned.refusal(field, operation);
        }
        return field;
    }

    /** The archetype of a live entity. */
    Archetype archetypeOf(long entity) {
        return archetypes.get(entities.archetype(requireAlive(entity, "archetypeOf", null)));
    }

    /**
     * Spawns an entity with no components.
     *
     * @return the new entity's id (index and generation; see {@link Entity})
     * @throws IllegalStateException while the structure is locked (a query iteration or a scheduled run);
     *     record the spawn in a {@link CommandBuffer} instead
     */
    public long spawn() {
        checkUnlocked("spawn", null);
        return fired(rows.place(archetypes.empty()));
    }

    /**
     * Spawns an entity with the given component values, each stored in its type's unnamed
     * column (records are registered as value components on first use; any other object
     * must have been registered with {@link #referenceComponent}).
     *
     * @param values one value per component, not null and none null, at most one of each type; an empty
     *     array spawns an empty entity
     * @return the new entity's id
     * @throws NullPointerException naming the position of a null value; leave it out, or spawn through a
     *     {@link Shape}, where null means zero
     * @throws IllegalArgumentException when a type is given twice, or a value is neither a record nor of a
     *     registered reference class
     */
    public long spawn(Object... values) {
        checkUnlocked("spawn", null);
        return fired(spawns.spawnValues(java.util.Objects.requireNonNull(values, "values (spawn(Object...) of a "
                + "null array; give the component values, or call spawn() for an empty entity)")));
    }

    /**
     * {@link #spawn(Object...)} with one value, without a varargs array.
     *
     * @param a the component value, not null
     * @return the new entity's id
     */
    public long spawn(Object a) {
        checkUnlocked("spawn", null);
        return fired(spawns.spawnFixed(1, a, null, null, null));
    }

    /**
     * {@link #spawn(Object...)} with two values, without a varargs array.
     *
     * @param a the first component value, not null
     * @param b the second component value, not null, of another type than {@code a}
     * @return the new entity's id
     */
    public long spawn(Object a, Object b) {
        checkUnlocked("spawn", null);
        return fired(spawns.spawnFixed(2, a, b, null, null));
    }

    /**
     * {@link #spawn(Object...)} with three values, without a varargs array.
     *
     * @param a the first component value, not null
     * @param b the second component value, not null
     * @param c the third component value, not null; the three of different types
     * @return the new entity's id
     */
    public long spawn(Object a, Object b, Object c) {
        checkUnlocked("spawn", null);
        return fired(spawns.spawnFixed(3, a, b, c, null));
    }

    /**
     * {@link #spawn(Object...)} with four values, without a varargs array.
     *
     * @param a the first component value, not null
     * @param b the second component value, not null
     * @param c the third component value, not null
     * @param d the fourth component value, not null; the four of different types
     * @return the new entity's id
     */
    public long spawn(Object a, Object b, Object c, Object d) {
        checkUnlocked("spawn", null);
        return fired(spawns.spawnFixed(4, a, b, c, d));
    }

    /**
     * A prepared {@link Shape} of {@code columns} (in this order), for spawning one kind of
     * entity often with no per-spawn look-up and no allocation beyond the values given.
     *
     * @param columns this world's columns, each once; their order is the order of the values given to the
     *     shape's {@code spawn}
     * @return a shape to keep and reuse; its archetype is made now, so spawning through it looks nothing up
     * @throws IllegalArgumentException when a column is given twice, two share an instance
     *     name, or a column belongs to another world
     */
    public Shape shape(Component<?>... columns) {
        Component<?>[] cols = java.util.Objects.requireNonNull(columns, "columns").clone();
        for (Component<?> c : cols) {
            owned(c, "shape");
        }
        return new Shape(this, cols, archetypeFor(cols));
    }

    /**
     * Starts building an entity from named columns and values; see {@link EntityBuilder}.
     *
     * @return a new builder for one entity; finish it with {@code spawn()}
     */
    public EntityBuilder entity() {
        return new EntityBuilder(this);
    }

    /**
     * Spawns an entity straight into {@code archetype}, every field zero: the same world as
     * {@link #spawn()} then {@link #moveTo}, in one step (command playback's batched spawns).
     *
     * @throws IllegalArgumentException if {@code archetype} is not one of this world's
     */
    long spawnZeroed(Archetype archetype) {
        return spawnEmpty(archetype, true);
    }

    /**
     * {@link #spawnZeroed}, or, without {@code zero}, for command playback when the values it
     * writes next cover every field of {@code archetype}: a reused row is then not zeroed first
     * (see {@link EntityRows#spawnEmpty(Archetype, SpawnChain, boolean)}).
     */
    long spawnEmpty(Archetype archetype, boolean zero) {
        checkUnlocked("spawn", null);
        relationSide.checkSpawnInto(archetype);
        return fired(rows.spawnEmpty(archetype, zero));
    }

    /** Spawns one entity into {@code a} and writes the given values (builder and shape support). */
    long spawnInto(Archetype a, SpawnChain chain, Object[] values) {
        checkUnlocked("spawn", null);
        return fired(spawns.spawn(a, chain, values));
    }

    /**
     * Command playback's spawn through a shape ({@code a}, {@code chain}) whose values it writes
     * next: zeroed first only when {@code zero} (the recorded values do not cover every field
     * of {@code a}; see {@link EntityRows#spawnEmpty(Archetype, SpawnChain, boolean)}).
     */
    long spawnEmpty(Archetype a, SpawnChain chain, boolean zero) {
        checkUnlocked("spawn", null);
        return fired(rows.spawnEmpty(a, chain, zero));
    }

    /** A shape's spawn of its one to four table columns' values given one by one (see {@link Shape#spawn(Object, Object)}). */
    long spawnInto(Archetype a, SpawnChain chain, Object v0, Object v1, Object v2, Object v3) {
        checkUnlocked("spawn", null);
        return fired(rows.spawnInto(a, chain, false, v0, v1, v2, v3));
    }

    /**
     * The archetype an entity holding {@code columns} lives in: the one of its table
     * columns (sparse columns never enter an archetype). Builder and template support.
     */
    Archetype archetypeFor(Component<?>[] columns) {
        for (Component<?> c : columns) {
            c.refuseIfRelationMarker("spawning with");
        }
        return spawns.archetypeFor(columns);
    }

    /** Spawns {@code n} entities into {@code a}, every row holding the same values (builder support). */
    long[] spawnManyInto(Archetype a, int n, Component<?>[] columns, Object[] values) {
        checkUnlocked("spawn", null);
        long[] ids = spawns.spawnMany(a, n, columns, values);
        changes.afterDirect(this);
        return ids;
    }

    /**
     * {@link #spawnManyInto} then {@code fill} (a shape's batch writer) as one direct call for
     * the observer hooks: the rows' {@code onAdd} hooks fire after {@code fill} wrote their
     * values, as a playback's fire after the spawn values it writes. When {@code fill} throws,
     * the rows spawned stay and their hooks fire before the exception goes on (a hook's own
     * failure then added to it as suppressed).
     */
    long[] spawnManyThen(Archetype a, int n, Component<?>[] columns, Object[] values,
            java.util.function.Consumer<long[]> fill) {
        changes.beginBatch();
        long[] ids;
        try {
            ids = spawnManyInto(a, n, columns, values);
            fill.accept(ids);
        } catch (RuntimeException | Error e) {
            try {
                changes.endBatch(this);
            } catch (RuntimeException | Error hook) {
                e.addSuppressed(hook);
            }
            throw e;
        }
        changes.endBatch(this);
        return ids;
    }

    /**
     * Despawns a live entity: its row is removed (the archetype's last row moves into it)
     * and its id becomes stale. Its slot is reused, first in first out, with the next
     * generation; after its last generation ({@code 0xFFFF_FFFF}) the slot is retired instead.
     *
     * @param entity a live entity of this world
     * @throws StaleEntityException if {@code entity} is not alive
     * @throws IllegalStateException while the structure is locked; record the despawn in a
     *     {@link CommandBuffer} instead
     */
    public void despawn(long entity) {
        checkUnlocked("despawn", null);
        int idx = requireAlive(entity, "despawn", null);
        relationSide.despawn(entity, idx); // with the relations' cleanup when the entity is in a pair
        changes.afterDirect(this);
    }

    /**
     * True when live {@code entity} holds {@code column}.
     *
     * @param entity a live entity of this world
     * @param column a column registered by this world, table or sparse
     * @return true when the entity holds the column
     * @throws StaleEntityException if {@code entity} is not alive
     */
    public boolean has(long entity, Component<?> column) {
        owned(column, "has");
        jobsRunning.checkByIdRead("has", entity, column);
        int idx = requireAlive(entity, "has", column);
        if (column.isSparse()) {
            return sparse.has(idx, column);
        }
        return archetypes.get(entities.archetype(idx)).has(column.id());
    }

    /**
     * Adds {@code column} to a live entity with zero (or null) field values; for tags this is
     * the whole operation.
     *
     * @param entity a live entity of this world
     * @param column a column registered by this world
     * @throws IllegalStateException if the entity already holds the column (use {@link #set})
     * @throws StaleEntityException if {@code entity} is not alive
     */
    public void add(long entity, Component<?> column) {
        addInternal(entity, column, null);
    }

    /**
     * Adds {@code column} to a live entity with the given value. The value's record accessors
     * run while the entity's row is being moved: they must not change the world's structure
     * (the same holds for every call that takes record values: {@link #set}, the spawns). In
     * checked mode ({@code -ea}, as in every test run, or {@code -Dorrery.checked=true}) a
     * spawn, despawn, add or remove from one is refused, and so is this add; off, it is not
     * checked and would leave rows inconsistent.
     *
     * @param <T> the column's value type
     * @param entity a live entity of this world
     * @param column a column registered by this world
     * @param value the value to store, not null
     * @throws NullPointerException naming the call and the fix when {@code value} is null: to
     *     add the column zeroed (or a tag) call {@link #add(long, Component)}; nothing changes
     *     ({@link CommandBuffer#add(long, Component, Object)} refuses it alike)
     * @throws IllegalStateException if the entity already holds the column (use {@link #set}),
     *     or, in checked mode, a record accessor of {@code value} attempted a structural change
     * @throws IllegalArgumentException if another instance on the entity has the same name
     */
    public <T> void add(long entity, Component<T> column, T value) {
        if (value == null) {
            throw EntityRows.nullValue("world.add", owned(column, "add"));
        }
        addInternal(entity, column, value);
    }

    private void addInternal(long entity, Component<?> column, Object value) {
        owned(column, "add");
        checkUnlocked("add", column);
        column.refuseIfRelationMarker("add");
        if (column.isSparse()) {
            sparseSide.add(requireAlive(entity, "add", column), entity, column, value);
            return;
        }
        rows.add(requireAlive(entity, "add", column), entity, column, value);
        changes.afterDirect(this);
    }

    /**
     * Removes {@code column} from a live entity.
     *
     * @param entity a live entity of this world
     * @param column a column registered by this world
     * @return false (and no change) when the entity did not hold it
     * @throws StaleEntityException if {@code entity} is not alive
     */
    public boolean remove(long entity, Component<?> column) {
        owned(column, "remove");
        checkUnlocked("remove", column);
        column.refuseIfRelationMarker("remove");
        if (column.isSparse()) {
            return sparse.remove(requireAlive(entity, "remove", column), column);
        }
        boolean removed = rows.remove(requireAlive(entity, "remove", column), entity, column);
        changes.afterDirect(this);
        return removed;
    }

    /**
     * Moves a live entity to archetype {@code target} in one step: shared columns are copied,
     * columns new to the entity are zeroed, dropped ones are discarded. Command-buffer
     * playback uses this to turn several adds and removes into one move.
     */
    void moveTo(long entity, Archetype target) {
        checkUnlocked("move", null);
        int idx = requireAlive(entity, "move", null);
        relationSide.checkMove(archetypes.get(entities.archetype(idx)), target);
        rows.moveTo(idx, entity, target);
        changes.afterDirect(this);
    }

    /**
     * Adds {@code column} (zeroed, or a tag) to every entity {@code query} matches that lacks
     * it, moving whole archetypes in blocks ({@link BulkMoves}); returns how many moved.
     *
     * @param query a query built by this world, with no change filter
     * @param column a column registered by this world
     * @return how many entities gained the column, 0 when every match already held it
     * @throws IllegalArgumentException on an instance-name clash, when {@code query} was
     *     built by another world, or when it has a change filter ({@code changed},
     *     {@code added}: a bulk move takes every match); nothing has moved then
     */
    public int addToAll(Query query, Component<?> column) {
        ownedQuery(query, "addToAll");
        owned(column, "addToAll");
        checkUnlocked("addToAll", column);
        column.refuseIfRelationMarker("addToAll");
        if (column.isSparse() || query.hasRowFilter()) {
            return (int) fired(sparseSide.addToAll(query, column)); // hooks after the last entity, as in blocks
        }
        return (int) fired(bulkMoves.addToAll(query.archetypes(), column));
    }

    /**
     * Removes {@code column} from every entity {@code query} matches, in blocks; returns how many moved.
     *
     * @param query a query built by this world, with no change filter
     * @param column a column registered by this world
     * @return how many entities lost the column, 0 when no match held it
     * @throws IllegalArgumentException when {@code query} was built by another world, or has a
     *     change filter ({@code changed}, {@code added}: a bulk move takes every match); nothing has moved then
     */
    public int removeFromAll(Query query, Component<?> column) {
        ownedQuery(query, "removeFromAll");
        owned(column, "removeFromAll");
        checkUnlocked("removeFromAll", column);
        column.refuseIfRelationMarker("removeFromAll");
        if (column.isSparse() || query.hasRowFilter() || changes.hasValueHooks(column)) {
            // entity by entity (a value hook reads each row first); the hooks fire after the last, as in blocks
            return (int) fired(sparseSide.removeFromAll(query, column));
        }
        return (int) fired(bulkMoves.removeFromAll(query.archetypes(), column));
    }

    /**
     * Refuses a query another world built: its match list holds that world's archetypes, so a
     * bulk move would move (and break) the other world's rows; and a query with a change
     * filter, which the block path would ignore and the entity-by-entity path honour.
     */
    private void ownedQuery(Query query, String operation) {
        if (query == null) { // not requireNonNull with a supplier: the lambda captures the operation, allocated per call
            throw new NullPointerException(operation + ": the query is null; build one with world.query()");
        }
        if (!owns(query)) {
            throw new IllegalArgumentException(operation + " refused: the " + query.description + " was built by "
                    + "another world; build the query with this world's world.query() (and this world's component handles)");
        }
        if (query.hasChangeFilter()) {
            // The block path moves whole archetypes and cannot honour it; the entity-by-entity path
            // (sparse terms) would, and use up the query's changes: the two would move different entities.
            throw new IllegalArgumentException(operation + " refused: the " + query.description + " has a change "
                    + "filter (changed/added), and a bulk move takes every match of its archetypes; build the query "
                    + "without changed(...)/added(...) to move every match, or iterate the filtered query and add or "
                    + "remove per entity through a command buffer");
        }
    }

    /**
     * Reorders the rows of {@code archetype} by ascending {@code key}, ties in current order
     * (see {@link RowSort}): ids, values and names stay, only row positions change. Allocates
     * a scratch array per field: call it every few ticks, not every tick.
     *
     * @throws IllegalStateException during an iteration or a scheduled run
     */
    void sortRows(Archetype archetype, RowKey key) {
        checkUnlocked("sortRows", archetype);
        final int aid = archetype.id();
        RowSort.sortRows(archetype, key, (e, chunk, row) -> entities.place(Entity.index(e), aid, chunk, row));
    }

    /**
     * The value of {@code column} on a live entity, as a new record (a reference column
     * returns the stored object; a tag returns null).
     *
     * @param <T> the column's value type
     * @param entity a live entity of this world
     * @param column a column registered by this world
     * @return a fresh copy of the value (writing to it changes nothing in the world), the stored object of
     *     a reference column, or null for a tag
     * @throws IllegalArgumentException if the entity lacks the column
     * @throws StaleEntityException if {@code entity} is not alive
     */
    public <T> T get(long entity, Component<T> column) {
        owned(column, "get");
        jobsRunning.checkByIdRead("get", entity, column);
        int idx = requireAlive(entity, "get", column);
        return column.type().read(arraysOf(idx, entity, column), rowOf(idx, column));
    }

    /**
     * Overwrites the value of {@code column} on a live entity that holds it. Not a
     * structural change: allowed during iteration, on the owning thread.
     *
     * @throws NullPointerException naming the call when {@code value} is null (a set takes the
     *     new value; nothing changes)
     */
    public <T> void set(long entity, Component<T> column, T value) {
        owned(column, "set");
        if (value == null) {
            throw EntityRows.nullValue("world.set", column);
        }
        jobsRunning.checkByIdWrite("set", entity, column);
        column.refuseIfRelationMarker("set");
        int idx = requireAlive(entity, "set", column);
        checkValueType(column, value);
        writeValue(column, value, arraysOf(idx, entity, column), rowOf(idx, column));
        rows.markChanged(idx, entity, column);
        changes.afterDirect(this);
    }

    /** One field of a live entity's column, as raw bits (see {@link FieldType#bits}). */
    public long getBits(long entity, Field field) {
        return readBits("getBits", entity, field);
    }

    /** {@link #getBits}, refused inside a job naming {@code call}, the world method the caller used. */
    private long readBits(String call, long entity, Field field) {
        owned(field, "get");
        jobsRunning.checkByIdRead(call, entity, field);
        int idx = requireAlive(entity, "get", field);
        return field.type().bits(arraysOf(idx, entity, field.component())[field.index()], rowOf(idx, field.component()));
    }

    /**
     * Writes one field of a live entity's column from raw bits, after checking the field's
     * {@link dev.orrery.ecs.component.Range} and validators ({@link #validator}). The typed
     * setters below, {@link #setProperty} and {@link PropertyHandle}'s setters all come
     * here, so all of them check; {@link #set} of a whole record, spawns, command playback,
     * chunk arrays and {@link #unvalidated()} do not.
     *
     * @throws InvalidFieldValueException naming the entity, field, value and rule, when
     *     the value breaks a rule; nothing is written
     */
    public void setBits(long entity, Field field, long bits) {
        int idx = checkedForWrite(entity, field);
        fieldRules.check(entity, field, bits);
        writeBits(idx, entity, field, bits);
    }

    /** {@link #setBits} without the field rules: trusted in-engine writes ({@link #unvalidated()}). */
    void setBitsUnvalidated(long entity, Field field, long bits) {
        writeBits(checkedForWrite(entity, field), entity, field, bits);
    }

    /** The by-id write checks every field write passes (no jobs running, entity alive); returns its index. */
    private int checkedForWrite(long entity, Field field) {
        owned(field, "set");
        jobsRunning.checkByIdWrite("setBits", entity, field);
        field.component().refuseIfRelationMarker("set");
        return requireAlive(entity, "set", field);
    }

    private void writeBits(int idx, long entity, Field field, long bits) {
        dev.orrery.ecs.structure.ProvisionalRefs.refuse(field.component(), field.index(), bits);
        field.type().setBits(arraysOf(idx, entity, field.component())[field.index()], rowOf(idx, field.component()), bits);
        rows.markChanged(idx, entity, field.component());
        changes.afterDirect(this);
    }

    /**
     * Adds a rule for boundary writes of {@code field}, checked after its
     * {@link dev.orrery.ecs.component.Range}: by {@link #setBits}, the typed setters,
     * {@link #setProperty} and {@link PropertyHandle}'s setters. Register during set-up, on
     * the owning thread. See {@link FieldValidator}.
     *
     * @param field a field of a column registered by this world
     * @param validator the rule, not null; rules of one field are checked in the order added
     * @throws IllegalArgumentException if the field belongs to another world, or the
     *     validator is a range and the field cannot hold one
     */
    public void validator(Field field, FieldValidator validator) {
        owned(field, "validator");
        fieldRules.add(field, java.util.Objects.requireNonNull(validator, "validator (for " + field + ")"));
    }

    /**
     * Checks a boundary write of {@code bits} into {@code field} of {@code entity} against the
     * field's range and validators, without writing (the entity need not be alive): for a
     * server that answers a bad value before it resolves the rest of a request.
     *
     * @param entity the entity the write is for, named in the refusal; it need not be alive
     * @param field the field to check against
     * @param bits the value as raw bits, as {@link #setBits} takes it (see {@link FieldType#bits})
     * @throws InvalidFieldValueException naming the entity, field, value and rule
     */
    public void checkWrite(long entity, Field field, long bits) {
        fieldRules.check(entity, field, bits);
    }

    /**
     * The by-id field access of trusted code: the same reads and writes as the world's, with
     * no {@link dev.orrery.ecs.component.Range} or validator checked. For an in-engine system
     * that may take a field beyond what outside input may write (a damage system taking hit
     * points below 0); never hand it input from outside. The same object on every call.
     *
     * @return the unchecked field access of this world
     */
    public FieldAccess unvalidated() {
        return unvalidated;
    }

    /** One field of a live entity's column, boxed (cold paths: tools, scripts). */
    public Object getValue(long entity, Field field) {
        owned(field, "get");
        jobsRunning.checkByIdRead("getValue", entity, field);
        int idx = requireAlive(entity, "get", field);
        return field.type().box(arraysOf(idx, entity, field.component())[field.index()], rowOf(idx, field.component()));
    }

    /** One {@code float} field of a live entity. */
    public float getFloat(long entity, Field field) {
        return Float.intBitsToFloat((int) readBits("getFloat", entity, requireType(field, FieldType.FLOAT)));
    }

    /** Writes one {@code float} field of a live entity, checked as {@link #setBits} checks. */
    public void setFloat(long entity, Field field, float value) {
        jobsRunning.checkByIdWrite("setFloat", entity, field);
        setBits(entity, requireType(field, FieldType.FLOAT), Float.floatToRawIntBits(value));
    }

    /** One {@code int} field of a live entity. */
    public int getInt(long entity, Field field) {
        return (int) readBits("getInt", entity, requireType(field, FieldType.INT));
    }

    /** Writes one {@code int} field of a live entity, checked as {@link #setBits} checks. */
    public void setInt(long entity, Field field, int value) {
        jobsRunning.checkByIdWrite("setInt", entity, field);
        setBits(entity, requireType(field, FieldType.INT), value);
    }

    /** One {@code double} field of a live entity. */
    public double getDouble(long entity, Field field) {
        return Double.longBitsToDouble(readBits("getDouble", entity, requireType(field, FieldType.DOUBLE)));
    }

    /** Writes one {@code double} field of a live entity, checked as {@link #setBits} checks. */
    public void setDouble(long entity, Field field, double value) {
        jobsRunning.checkByIdWrite("setDouble", entity, field);
        setBits(entity, requireType(field, FieldType.DOUBLE), Double.doubleToRawLongBits(value));
    }

    /** One {@code long} field of a live entity. */
    public long getLong(long entity, Field field) {
        return readBits("getLong", entity, requireType(field, FieldType.LONG));
    }

    /** Writes one {@code long} field of a live entity, checked as {@link #setBits} checks. */
    public void setLong(long entity, Field field, long value) {
        jobsRunning.checkByIdWrite("setLong", entity, field);
        setBits(entity, requireType(field, FieldType.LONG), value);
    }

    static Field requireType(Field field, FieldType type) {
        if (field == null) {
            throw new NullPointerException("field (a " + type + " field handle, component.field(\"name\"))");
        }
        if (field.type() != type) {
            throw new IllegalArgumentException("field " + field + " is " + field.type() + ", not " + type + "; "
                    + fittingAccessor(field, "", new String[] {"get", "set"}));
        }
        return field;
    }

    /**
     * The by-id accessor that takes {@code field} ({@code getFloat/setFloat} for a float field,
     * from {@code prefixes}, each called on {@code receiver}: {@code ""} for the world's,
     * {@code "job."} for a job's), or, for a type with none, the whole-record call: the fix a
     * wrong-type refusal names (the world's, a command buffer's and a job's).
     */
    static String fittingAccessor(Field field, String receiver, String[] prefixes) {
        FieldType t = field.type();
        if (t == FieldType.INT || t == FieldType.FLOAT || t == FieldType.LONG || t == FieldType.DOUBLE) {
            String name = t.javaType().getSimpleName();
            String suffix = Character.toUpperCase(name.charAt(0)) + name.substring(1);
            StringBuilder out = new StringBuilder("use ");
            for (int i = 0; i < prefixes.length; i++) {
                out.append(i == 0 ? "" : "/").append(receiver).append(prefixes[i]).append(suffix);
            }
            return out.toString();
        }
        String c = field.component().toString();
        return "a " + t + " field has no by-id accessor: " + (prefixes.length > 1 ? "get or set" : "set")
                + " the whole " + c + " record with " + (prefixes.length > 1 ? receiver + "get(entity, " + c + ") or " : "")
                + receiver + "set(entity, " + c + ", value)";
    }

    private Object[] arraysOf(int idx, long entity, Component<?> column) {
        return column.isSparse() ? sparse.arraysOf(idx, entity, column) : rows.arraysOf(idx, entity, column);
    }

    /** The row of {@code column}'s values for the entity at {@code idx}: its table row, or its sparse position. */
    private int rowOf(int idx, Component<?> column) {
        return column.isSparse() ? sparse.positionOf(idx, column) : entities.row(idx);
    }

    private static void checkValueType(Component<?> column, Object value) {
        EntityRows.checkValueType(column, value);
    }

    /** Writes a record into a row or sparse set, its accessors refused any structural call ({@link EntityRows#writeValue}). */
    void writeValue(Component<?> column, Object value, Object[] arrays, int row) {
        rows.writeValue(column, value, arrays, row);
    }

    /**
     * The instance a live entity holds under instance name {@code name} ("Fog"), or
     * {@code null}. Owning thread only: it fills the prototype index's look-up cache.
     *
     * @param entity a live entity of this world
     * @param name the instance name ("Fog", or a type's simple name for its unnamed column), not null
     * @return the entity's column with that instance name, or {@code null} when it holds none
     * @throws StaleEntityException if {@code entity} is not alive
     */
    public Component<?> findComponent(long entity, String name) {
        jobsRunning.checkByIdRead("findComponent", entity, name);
        return names.find(requireAlive(entity, "findComponent", instanceName(name, "findComponent")), name);
    }

    /**
     * Spawns one entity from {@code template}; its names are registered in template order.
     *
     * @param template a template built from this world's columns
     * @return the new entity's id
     * @throws IllegalArgumentException naming the template when one of its columns is another world's;
     *     build it from this world's handles
     */
    public long spawn(Template template) {
        checkUnlocked("spawn", template.name());
        Template.Prepared p = prepared(template);
        return fired(spawns.spawn(p.archetype, p.chain, template.values()));
    }

    /**
     * Spawns {@code n} entities from {@code template} in bulk, registering their names in one batch.
     *
     * @param template a template built from this world's columns
     * @param n how many entities to spawn, 0 or more
     * @return the new ids, {@code n} long, in spawn order
     */
    public long[] spawnMany(Template template, int n) {
        checkUnlocked("spawn", template.name());
        Template.Prepared p = prepared(template);
        long[] ids = spawns.spawnMany(p.archetype, n, p.chain.columns(), template.values());
        changes.afterDirect(this);
        return ids;
    }

    /**
     * What {@code template} resolves to in this world: checked and looked up on its first spawn
     * here, kept in {@link #templates} and remembered (weakly) in the template for the next.
     */
    private Template.Prepared prepared(Template template) {
        Template.Prepared p = template.preparedFor(this);
        if (p == null) {
            checkTemplate(template);
            List<Component<?>> columns = template.columns();
            p = templates.get(columns);
            if (p == null) {
                p = template.prepare(this, archetypeFor(template.columnArray()));
                templates.put(columns, p);
            }
            template.remember(p);
        }
        return p;
    }

    /**
     * One field of a named instance, boxed: {@code getProperty(e, "Fog", "density")}.
     *
     * @param entity a live entity of this world
     * @param component the instance name ("Fog"), not null
     * @param field the field name in that instance's record ("density"), not null
     * @return the field's value boxed ({@code Float}, {@code Integer}, ...)
     * @throws IllegalArgumentException listing the entity's instance names, or the instance's fields
     * @throws NullPointerException if a name is null (listing the instance's fields for the field name)
     * @throws StaleEntityException if {@code entity} is not alive
     */
    public Object getProperty(long entity, String component, String field) {
        if (jobsRunning.isRunning()) { // the subject is built only for the refusal
            jobsRunning.checkByIdRead("getProperty", entity, component + "." + field);
        }
        requireAlive(entity, "getProperty", instanceName(component, "getProperty"));
        return getValue(entity, names.field(entity, component, field));
    }

    /**
     * Writes one field of a named instance from a boxed value (see {@link PropertyHandle#write}),
     * checked against the field's range and validators as {@link #setBits} checks: the
     * call for untrusted input (a server's {@code SET}).
     *
     * @param entity a live entity of this world
     * @param component the instance name ("Fog"), not null
     * @param field the field name in that instance's record, not null
     * @param value the new value, boxed; a number converted exactly to the field type (an {@code int} field
     *     takes {@code 5L} or {@code 5.0}, never {@code 5.9}), or rounded to the nearest {@code float} or
     *     {@code double} for those fields (a {@code long} beyond 2<sup>53</sup> into a {@code double}
     *     included); a {@code Boolean} or {@code Character} for those fields
     * @throws InvalidFieldValueException when the value breaks the field's rule; nothing is written
     * @throws IllegalArgumentException listing the entity's instance names, or the instance's fields, when
     *     either name is unknown
     * @throws NullPointerException if a name is null (listing the instance's fields for the field name)
     */
    public void setProperty(long entity, String component, String field, Object value) {
        if (jobsRunning.isRunning()) { // the subject is built only for the refusal
            jobsRunning.checkByIdWrite("setProperty", entity, component + "." + field);
        }
        requireAlive(entity, "setProperty", instanceName(component, "setProperty"));
        PropertyHandle.write(this, entity, names.field(entity, component, field), value);
    }

    /** {@code name}, refused when null: the name index would fail hashing it, naming nothing. */
    private static String instanceName(String name, String operation) {
        if (name == null) { // not requireNonNull with a supplier: capturing the operation allocated on every call
            throw new NullPointerException(operation + ": the instance name is null; give the name a "
                    + "column was registered under (\"Fog\", or the type's simple name for an unnamed column)");
        }
        return name;
    }

    /**
     * A pre-resolved handle for property (component name, field name), for frequent access.
     *
     * @param component the instance name ("Fog"), not null
     * @param field the field name in that instance's record ("density"), not null
     * @return a new handle, resolved on use and cached per prototype; keep it and reuse it for many
     *     entities
     */
    public PropertyHandle property(String component, String field) {
        java.util.Objects.requireNonNull(component, "component (the instance name, \"Fog\")");
        java.util.Objects.requireNonNull(field, "field (the field name in " + component + ")");
        return new PropertyHandle(this, entities, names, component, field);
    }

    /**
     * One hash per column (indexed by column id) over the column's values in canonical
     * order (archetypes in creation order, chunks, rows, with each row's entity id), so a
     * replay that diverges can say which component types differ. Cold path.
     *
     * @return a new array indexed by column id, one hash per registered column
     */
    public long[] columnHashes() {
        return WorldHashes.columnHashes(archetypes, registry.columnCount(), sparse);
    }

    /** {@link #columnHashes()} into {@code reuse} when it fits, with the world's kept hashers (a recording, every hashed tick). */
    long[] columnHashes(long[] reuse) {
        return WorldHashes.columnHashes(archetypes, registry.columnCount(), sparse, hashScratch, reuse);
    }

    /**
     * A 64-bit hash of the whole state: for every archetype in creation order, its columns,
     * then every row in chunk order with its entity id and every field's exact bits; then
     * the generations, the free list, sparse columns and relations (pairs in order). Equal
     * hashes: the same entities with the same values in the same places. Reference components
     * contribute their {@code hashCode()}, so make them value-based if they matter to determinism.
     *
     * @return the hash: the same for two worlds that hold the same entities, values, free slots and
     *     relations
     */
    public long stateHash() {
        return WorldHashes.stateHash(archetypes, entities, sparse, relationSide.relations, hashScratch);
    }

    /**
     * Checks that every column of {@code template} belongs to this world's registry.
     *
     * @throws IllegalArgumentException naming the template and the foreign column
     */
    private void checkTemplate(Template template) {
        for (int i = 0; i < template.size(); i++) {
            Component<?> c = template.column(i);
            if (!registry.owns(c)) {
                throw new IllegalArgumentException("template '" + template.name() + "' uses " + c + ", which was "
                        + "registered by another world; build the template from this world's component handles");
            }
        }
    }
}
