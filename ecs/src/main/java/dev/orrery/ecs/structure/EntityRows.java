package dev.orrery.ecs.structure;

import dev.orrery.ecs.archetype.Archetype;
import dev.orrery.ecs.archetype.Archetypes;
import dev.orrery.ecs.archetype.Chunk;
import dev.orrery.ecs.archetype.MovePlan;
import dev.orrery.ecs.archetype.StructureLock;
import dev.orrery.ecs.component.Component;
import dev.orrery.ecs.component.ComponentKind;
import dev.orrery.ecs.component.Entity;
import dev.orrery.ecs.ownership.AssertionSwitch;
import dev.orrery.ecs.prototype.NamedInstances;
import dev.orrery.ecs.prototype.SpawnChain;
import dev.orrery.ecs.storage.EntityTable;

/**
 * The row work behind the world's structural calls: places, moves and removes entity rows
 * so that the three records of an entity stay consistent, its row in an archetype, its
 * location in the {@link EntityTable} and its instance names in {@link NamedInstances}.
 * {@code World} checks the owner thread, the structure lock and that the entity is alive,
 * then calls in here; nothing here checks them again.
 *
 * <p><b>Threading:</b> used only by the thread that owns the world, while the structure is
 * not locked.
 */
public final class EntityRows {
    /** Entities a bulk spawn places per block, whose records, ids and prototype slots (about 150 KiB) stay in cache. */
    private static final int SPAWN_BLOCK = 4096;
    /** Checked mode: record accessors are refused structural calls (see {@link #writeValue}). */
    private static final boolean CHECKED = AssertionSwitch.enabled("orrery.checked");

    private final Archetypes archetypes;
    private final EntityTable entities;
    private final NamedInstances names;
    private final RowEvents changes;
    private final StructureLock structure;

    /**
     * The row work over one world's storage parts; structural events go to {@code changes},
     * and {@code structure} is held while a record's accessors run ({@link #writeValue}).
     */
    public EntityRows(Archetypes archetypes, EntityTable entities, NamedInstances names, RowEvents changes,
            StructureLock structure) {
        this.changes = changes;
        this.structure = structure;
        this.archetypes = archetypes;
        this.entities = entities;
        this.names = names;
    }

    /** Allocates an id and appends its zeroed row to {@code a}; registers no names. */
    public long place(Archetype a) {
        long e = entities.allocate();
        long loc = a.appendRow(e);
        entities.place(Entity.index(e), a.id(), (int) (loc >>> 32), (int) loc);
        changes.spawned(e, a);
        return e;
    }

    /**
     * Spawns an entity straight into {@code archetype}, registering its names in column-id
     * order: {@link #spawnEmpty(Archetype, SpawnChain, boolean)} with the archetype's own chain.
     *
     * @throws IllegalArgumentException if {@code archetype} is not one of this world's
     */
    public long spawnEmpty(Archetype archetype, boolean zero) {
        if (archetype.id() >= archetypes.count() || archetypes.get(archetype.id()) != archetype) {
            throw new IllegalArgumentException(archetype + " does not belong to this world; take archetypes from "
                    + "world.storage().archetypes()");
        }
        return spawnEmpty(archetype, names.chainOf(archetype), zero);
    }

    /** Spawns one entity into {@code a} holding {@code columns}, writing the non-null {@code values}. */
    public long spawnInto(Archetype a, Component<?>[] columns, Object[] values) {
        return spawnInto(a, columns, null, values);
    }

    /**
     * Spawns one entity into {@code a} holding {@code chain}'s columns, writing the non-null
     * {@code values}; a repeated shape registers its names in one step (see {@link SpawnChain}).
     */
    public long spawnInto(Archetype a, SpawnChain chain, Object[] values) {
        return spawnInto(a, chain.columns(), chain, values);
    }

    /**
     * {@link #spawnInto(Archetype, SpawnChain, Object[])} for values the caller has already
     * matched to the chain's columns: none is null and each is exactly of a class that was
     * checked against its column's type before ({@code world.spawn(values)}'s shape cache
     * compares the classes), so the per-value type checks are left out.
     */
    public long spawnMatched(Archetype a, SpawnChain chain, Object[] values) {
        return place(a, chain.columns(), chain, values, true);
    }

    /**
     * Spawns one entity into {@code a} holding {@code chain}'s columns (their names registered
     * in the chain's order), writing no value: its row zeroed when {@code zero}; without it,
     * left as the archetype hands it out, zero when fresh, else whatever primitive values the
     * row's last holder left (references are always cleared when a row is vacated), for a
     * caller that writes every primitive field of the row before anything reads it (command
     * playback, when a spawn's recorded values cover its archetype).
     */
    public long spawnEmpty(Archetype a, SpawnChain chain, boolean zero) {
        return placeRow(a, chain.columns(), chain, zero);
    }

    private long spawnInto(Archetype a, Component<?>[] columns, SpawnChain chain, Object[] values) {
        boolean full = true;
        for (int i = 0; i < columns.length; i++) {
            if (values[i] != null) {
                checkValueType(columns[i], values[i]);
            } else {
                full = false;
            }
        }
        return place(a, columns, chain, values, full);
    }

    /**
     * Spawns one entity into {@code a} holding {@code chain}'s one to four columns, its values
     * given one by one ({@code world.spawn(a, b)}, {@code shape.spawn(a, b)} and their kin): no
     * argument array. A null value leaves its column zero. With {@code checked} the caller has
     * already matched every value's exact class to its column ({@code world.spawn}'s shape
     * cache); otherwise each non-null value's type is checked here, before anything changes.
     *
     * @throws IllegalArgumentException if a value is not of its column's type; nothing is spawned then,
     *     nor when a record accessor throws (its exception comes through)
     */
    public long spawnInto(Archetype a, SpawnChain chain, boolean checked, Object v0, Object v1, Object v2, Object v3) {
        Component<?>[] columns = chain.columns();
        int n = columns.length;
        boolean full = true;
        for (int i = 0; i < n; i++) {
            Object v = i == 0 ? v0 : i == 1 ? v1 : i == 2 ? v2 : v3;
            if (v == null) {
                full = false;
            } else if (!checked) {
                checkValueType(columns[i], v);
            }
        }
        // The row first, under no id, and every value written into it; only then the id, the
        // location, the names and the events: a record accessor that throws leaves nothing.
        long loc = a.appendRow(Entity.NULL, !full); // a row every column of which gets a value needs no zeroing
        int chunk = (int) (loc >>> 32);
        int row = (int) loc;
        Chunk c = a.chunk(chunk);
        try {
            for (int i = 0; i < n; i++) {
                Object v = i == 0 ? v0 : i == 1 ? v1 : i == 2 ? v2 : v3;
                if (v != null) {
                    writeValue(columns[i], v, c.columnArrays(a.slotOf(columns[i].id())), row);
                }
            }
        } catch (RuntimeException | Error t) {
            dropUnplaced(a, chunk, row);
            throw t;
        }
        return register(a, c, row, columns, chain);
    }

    /**
     * Places a new entity's row and writes the non-null {@code values}; {@code full}: none is
     * null. The values go into a row that holds no id yet: a record accessor that throws
     * leaves no entity, no id handed out, no names and no events (see {@link #dropUnplaced}).
     */
    private long place(Archetype a, Component<?>[] columns, SpawnChain chain, Object[] values, boolean full) {
        long loc = a.appendRow(Entity.NULL, !full); // a row every column of which gets a value needs no zeroing
        int chunk = (int) (loc >>> 32);
        int row = (int) loc;
        Chunk c = a.chunk(chunk);
        try {
            for (int i = 0; i < columns.length; i++) {
                if (values[i] != null) {
                    writeValue(columns[i], values[i], c.columnArrays(a.slotOf(columns[i].id())), row);
                }
            }
        } catch (RuntimeException | Error t) {
            dropUnplaced(a, chunk, row);
            throw t;
        }
        return register(a, c, row, columns, chain);
    }

    /** Allocates an id, appends its row to {@code a} (zeroed when {@code zero}), records where it is and its names. */
    private long placeRow(Archetype a, Component<?>[] columns, SpawnChain chain, boolean zero) {
        long loc = a.appendRow(Entity.NULL, zero);
        int chunk = (int) (loc >>> 32);
        return register(a, a.chunk(chunk), (int) loc, columns, chain);
    }

    /**
     * Gives the row ({@code c}, {@code row}) of {@code a}, appended under no id and written,
     * a new entity: its id, its location, its names and its spawn event.
     */
    private long register(Archetype a, Chunk c, int row, Component<?>[] columns, SpawnChain chain) {
        long e = entities.allocate();
        c.entities()[row] = e;
        int idx = Entity.index(e);
        entities.place(idx, a.id(), c.index(), row);
        if (chain != null) {
            names.spawned(idx, chain);
        } else {
            names.spawned(idx, columns);
        }
        changes.spawned(e, a);
        return e;
    }

    /**
     * Takes back the row ({@code chunk}, {@code row}) of {@code a} that a spawn appended and
     * could not fill (a record accessor threw): no id was allocated for it and nothing was
     * told of it, so removing the row leaves the world as before the spawn. Its archetype
     * stays, empty if it was new.
     */
    private void dropUnplaced(Archetype a, int chunk, int row) {
        removeRow(a, chunk, row);
    }

    /** Spawns {@code n} entities into {@code a}, every row holding the same values, in one batch. */
    public long[] spawnManyInto(Archetype a, int n, Component<?>[] columns, Object[] values) {
        if (n < 0) {
            throw new IllegalArgumentException("cannot spawn a negative number of entities: " + n);
        }
        entities.requireRoom(n, "spawn"); // before the id array: a count no world holds is refused, not run out of memory
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
            ProvisionalRefs.refuse(columns[i], values[i]);
            if (columns[i].kind() == ComponentKind.REFERENCE) {
                refs[s] = values[i];
            } else if (columns[i].kind() == ComponentKind.VALUE) {
                readBits(columns[i], values[i], bits[s], 0);
            }
        }
        long[] ids = new long[n];
        final int aid = a.id();
        Archetype.RowSink placed = (e, chunk, row) -> entities.place(Entity.index(e), aid, chunk, row);
        // Block by block, so each block's entity-table records, prototype slots and ids are
        // still in cache for the passes after the first: the same ids, rows and names as one
        // pass of each over the whole batch.
        for (int from = 0; from < n; from += SPAWN_BLOCK) {
            int k = Math.min(SPAWN_BLOCK, n - from);
            int recycled = entities.allocateMany(ids, from, k);
            a.appendRows(ids, from, k, bits, refs, placed);
            names.spawnedMany(ids, from, k, recycled, columns);
            for (int i = from; i < from + k; i++) {
                changes.spawned(ids[i], a);
            }
        }
        return ids;
    }

    /** Despawns live {@code entity} (index {@code idx}): removes its row, frees its id and its names. */
    public void despawn(long entity, int idx) {
        Archetype a = archetypes.get(entities.archetype(idx));
        changes.despawned(entity, a, entities.chunk(idx), entities.row(idx));
        removeRow(a, entities.chunk(idx), entities.row(idx));
        entities.release(entity);
        names.despawned(idx);
    }

    /**
     * Adds {@code column} to live {@code entity} (index {@code idx}), zeroed or holding
     * {@code value} when it is not null. A record accessor of {@code value} that throws
     * leaves the entity as it was, without the column (its exception comes through).
     *
     * @throws IllegalStateException if the entity already holds the column
     */
    public void add(int idx, long entity, Component<?> column, Object value) {
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
        if (value == null) {
            move(idx, entity, plan, true);
        } else {
            int chunk = entities.chunk(idx);
            int row = entities.row(idx);
            changes.leaving(entity, from, chunk, row, to); // an add takes nothing away: tells no one anything
            // The new row written in full before the old one goes: a record accessor that throws
            // leaves the entity where it was, as it was (the add did not happen).
            long loc = plan.append(entity, chunk, row, false); // the value overwrites every field of the new column
            int toChunk = (int) (loc >>> 32);
            int toRow = (int) loc;
            try {
                writeValue(column, value, to.chunk(toChunk).columnArrays(to.slotOf(column.id())), toRow);
            } catch (RuntimeException | Error e) {
                removeRow(to, toChunk, toRow); // the copy's id is the entity's own: its record must not follow
                throw e;
            }
            removeRow(from, chunk, row);
            entities.place(idx, to.id(), toChunk, toRow);
            changes.moved(entity, from, to);
        }
        names.added(idx, column);
    }

    /** Removes {@code column} from live {@code entity} (index {@code idx}); false when it lacked it. */
    public boolean remove(int idx, long entity, Component<?> column) {
        Archetype from = archetypes.get(entities.archetype(idx));
        if (!from.has(column.id())) {
            return false;
        }
        move(idx, entity, archetypes.removePlan(from, column), true);
        names.removed(idx, column);
        return true;
    }

    /** Moves live {@code entity} (index {@code idx}) to {@code target} in one step. */
    public void moveTo(int idx, long entity, Archetype target) {
        Archetype from = archetypes.get(entities.archetype(idx));
        if (from == target) {
            return;
        }
        MovePlan plan = from.planTo(target);
        move(idx, entity, plan, true);
        names.moved(idx, plan);
    }

    /** A bulk move put {@code e} at ({@code chunk}, {@code row}) of {@code to}: records it. */
    public void moved(long e, Archetype from, Archetype to, int chunk, int row) {
        int idx = Entity.index(e);
        entities.place(idx, to.id(), chunk, row);
        names.moved(idx, from.planTo(to));
        changes.leaving(e, from, -1, -1, to);
        changes.moved(e, from, to);
    }

    /**
     * Moves live entity {@code entity} (index {@code idx}) along {@code plan}: appends its row
     * to the target, removes the old row (the source's last row fills the hole) and updates
     * the location of both entities. The caller updates the prototype index; without
     * {@code zero} it also writes every field of the columns new to the entity.
     */
    private void move(int idx, long entity, MovePlan plan, boolean zero) {
        Archetype from = plan.source();
        Archetype target = plan.target();
        int chunk = entities.chunk(idx);
        int row = entities.row(idx);
        changes.leaving(entity, from, chunk, row, target);
        long loc = plan.append(entity, chunk, row, zero);
        removeRow(from, chunk, row);
        entities.place(idx, target.id(), (int) (loc >>> 32), (int) loc);
        changes.moved(entity, from, target);
    }

    private void removeRow(Archetype a, int chunk, int row) {
        long moved = a.removeRow(chunk, row);
        if (moved != Entity.NULL) {
            entities.moveRow(Entity.index(moved), chunk, row);
        }
    }

    /**
     * The field arrays of {@code column} in the chunk holding live {@code entity} (index
     * {@code idx}); its row is the entity table's.
     *
     * @throws IllegalArgumentException naming the entity, the column and what it holds instead
     */
    public Object[] arraysOf(int idx, long entity, Component<?> column) {
        Archetype a = archetypes.get(entities.archetype(idx));
        int slot = a.slotOf(column.id());
        if (slot < 0) {
            throw new IllegalArgumentException("entity " + Entity.toString(entity) + " has no component " + column
                    + "; it holds " + a.components() + ". Add it first, or test has(...)");
        }
        return a.chunk(entities.chunk(idx)).columnArrays(slot);
    }

    /**
     * Marks {@code column} of live {@code entity} (index {@code idx}) changed at the clock's
     * current tick: a by-id write outside jobs, after the value is written. A sparse column
     * keeps no versions; one the entity lacks is ignored.
     */
    public void markChanged(int idx, long entity, Component<?> column) {
        if (column.isSparse()) {
            return;
        }
        Archetype a = archetypes.get(entities.archetype(idx));
        int slot = a.slotOf(column.id());
        if (slot >= 0) {
            a.chunk(entities.chunk(idx)).markRowChanged(slot, entities.row(idx), archetypes.clock().now());
            changes.set(entity, column);
        }
    }

    /**
     * The refusal of a null value given to {@code call} ({@code "world.add"},
     * {@code "commands.set"}, ...), one of the calls that name a column and take its value:
     * none takes null for "zero". It names the call and the fix: for an add, the form without
     * a value, which adds the column zeroed (or a tag); for a set, a value (a set does not
     * zero a column through null). For a relation's marker column, which neither form may
     * change, the fix is the relation store's calls ({@link #relationColumnFix}).
     */
    public static NullPointerException nullValue(String call, Component<?> column) {
        int dot = call.lastIndexOf('.');
        String receiver = call.substring(0, dot + 1);
        String fix = column.isRelationMarker() ? relationColumnFix(column)
                : call.endsWith("add")
                ? "to add " + column + " zeroed (or as a tag), call " + receiver + "add(entity, " + column + ")"
                : "give the new value (a record of zeros to zero it)";
        return new NullPointerException(call + "(entity, " + column + ", value): the value is null; " + fix);
    }

    /** The relation store's calls, as {@link Component#refuseIfRelationMarker} names them. */
    private static String relationColumnFix(Component<?> c) {
        return c.name() + " is a relation's column, kept by the relation store; change pairs with world.relations()"
                + ".add(holder, " + c.name() + ", target) / remove(...), or commands.addPair(...) / removePair(...) "
                + "in a job";
    }

    /**
     * The refusal of a null value given to a builder's {@code with(column, value)}
     * ({@code "entity().with"}, {@code "Template.named(\"Lamp\").with"}), in the shape of
     * {@link #nullValue}: it names the call and the fix, the builder's form without a value,
     * which adds the column zeroed (or a tag); for a relation's marker column, the relation
     * store's calls.
     */
    public static NullPointerException nullBuilderValue(String call, Component<?> column) {
        return new NullPointerException(call + "(" + column + ", value): the value is null; "
                + (column.isRelationMarker() ? relationColumnFix(column)
                        : "to add " + column + " zeroed (or as a tag), call " + call + "(" + column + ")"));
    }

    /**
     * Checks that {@code value} is an instance of {@code column}'s type.
     *
     * @throws NullPointerException when {@code value} is null (callers that know their call
     *     name refuse it first with {@link #nullValue})
     * @throws IllegalArgumentException naming both types
     */
    public static void checkValueType(Component<?> column, Object value) {
        if (value == null) { // no message supplier: a capturing lambda would allocate on every call
            throw new NullPointerException("value for " + column + " is null; give a value of "
                    + column.type().javaClass().getName());
        }
        if (!column.type().javaClass().isInstance(value)) {
            throw new IllegalArgumentException("value of type " + value.getClass().getName() + " given for component "
                    + column + " of type " + column.type().javaClass().getName());
        }
    }

    /**
     * Writes {@code value} into row {@code row} of a column's field arrays. The record's
     * accessors are user code that runs while the row may be half placed or half moved, so
     * they must not change the world's structure. In checked mode ({@code -ea}, as in every
     * test run, or {@code -Dorrery.checked=true}) the structure lock is held around them: an
     * accessor that spawns, despawns, adds or removes is refused with an
     * {@link IllegalStateException} naming the column, and the caller takes its row back as
     * for any accessor that throws. Off, nothing is checked: the hold costs about a tenth of
     * a one-by-one spawn, add or remove (measured), for a mistake no default accessor makes.
     */
    public void writeValue(Component<?> column, Object value, Object[] arrays, int row) {
        ProvisionalRefs.refuse(column, value); // before any field is written: the caller's undo covers the rest
        if (!CHECKED) {
            column.type().write(value, arrays, row);
            return;
        }
        Object outer = structure.enterRecord(column);
        try {
            column.type().write(value, arrays, row);
        } finally {
            structure.leaveRecord(outer);
        }
    }

    /**
     * Reads {@code value}'s fields as raw bits into {@code dst} from {@code offset} (see
     * {@code ComponentType.writeBits}), its accessors checked as {@link #writeValue}'s.
     */
    public void readBits(Component<?> column, Object value, long[] dst, int offset) {
        if (!CHECKED) {
            column.type().writeBits(value, dst, offset);
            return;
        }
        Object outer = structure.enterRecord(column);
        try {
            column.type().writeBits(value, dst, offset);
        } finally {
            structure.leaveRecord(outer);
        }
    }
}
