package dev.orrery.scheduler.executor;

import dev.orrery.ecs.UndeclaredAccessException;
import dev.orrery.ecs.World;
import dev.orrery.ecs.archetype.Archetype;
import dev.orrery.ecs.archetype.Chunk;
import dev.orrery.ecs.component.Component;
import dev.orrery.ecs.component.Entity;
import dev.orrery.ecs.component.Field;
import dev.orrery.ecs.component.FieldType;
import dev.orrery.ecs.internal.EcsInternals;
import dev.orrery.ecs.storage.EntityTable;
import dev.orrery.ecs.storage.SparseColumn;

/**
 * One worker's by-id component access (the {@code JobContext.get/set/getFloat/...} of
 * {@link WorkerContext}): the one place a job reaches into the world's storage round the
 * world's guarded by-id methods, which refuse inside a job. Each call checks the running
 * system's declaration, then finds the field arrays and row of {@code column} on a live
 * entity.
 *
 * <p>It remembers the last (entity, column) it found for the rest of the job: while jobs run
 * the structure is locked, so no row moves and no entity dies, and the next field of the same
 * component on the same entity (a transform's {@code x}, then {@code y}, ...) skips the
 * look-up and the liveness check. {@link #forget} drops it as each job starts, since a sync
 * point between jobs may move rows. A write still stamps the row's change version (once per
 * remembered entry: same tick, same row).
 *
 * <p><b>Threading:</b> owned by its worker's thread, like the {@link WorkerContext} holding it.
 */
final class ByIdAccess {
    private final World world;
    /** The remembered look-up: column null when none. */
    private long entity;
    private Component<?> column;
    private Object[] arrays;
    private int row;
    private Chunk chunk;
    private int slot;
    private boolean stamped;
    /** The chunk the running job's system is on (a chunk system's job), else null: a pipeline's by-id check compares with it. */
    Chunk current;

    ByIdAccess(World world) {
        this.world = world;
    }

    /** Forgets the remembered look-up; called as each job starts. */
    void forget() {
        column = null;
        chunk = null;
        arrays = null;
    }

    /** The raw bits of {@code field} on {@code entity}, for system {@code r}. */
    long readBits(SystemRun r, long entity, Field field, FieldType type) {
        Object[] a = arrays(r, entity, requireType(field, type).component(), false);
        return type.bits(a[field.index()], row);
    }

    /** Writes the raw bits of {@code field} on {@code entity}, for system {@code r}. */
    void writeBits(SystemRun r, long entity, Field field, FieldType type, long bits) {
        Object[] a = arrays(r, entity, requireType(field, type).component(), true);
        dev.orrery.ecs.structure.ProvisionalRefs.refuse(field.component(), field.index(), bits);
        type.setBits(a[field.index()], row, bits);
    }

    /**
     * Whether live {@code e} holds {@code c}, for system {@code r}: checks the declaration as a
     * read does. Membership changes only at sync points and the structure is locked while jobs
     * run, so, unlike a value, it needs no chunk-pipeline check; it remembers nothing.
     */
    boolean has(SystemRun r, long e, Component<?> c) {
        if (!r.access.canRead(c)) {
            throw new UndeclaredAccessException(r.name, c, false);
        }
        EntityTable table = EcsInternals.storage(world).entityTable();
        if (!table.isAlive(e)) {
            throw table.refusal(e, "has " + c + " in system '" + r.name + "'");
        }
        int idx = Entity.index(e);
        if (c.isSparse()) {
            return EcsInternals.storage(world).sparse().of(c).positionOf(idx) >= 0;
        }
        return EcsInternals.storage(world).archetypes().get(table.archetype(idx)).slotOf(c.id()) >= 0;
    }

    /** The row {@link #arrays} found last. */
    int row() {
        return row;
    }

    private static Field requireType(Field field, FieldType type) {
        if (field.type() != type) {
            throw new IllegalArgumentException("field " + field + " is " + field.type() + ", not " + type + "; "
                    + EcsInternals.fittingAccessor(field, "job.", "get", "set"));
        }
        return field;
    }

    /**
     * Checks system {@code r}'s declaration, then returns the field arrays of {@code c} on live
     * {@code e}, leaving its row in {@link #row()}. Small, so the JIT inlines it into the
     * accessors: a remembered look-up costs a compare; {@link #locate} does the rest.
     */
    Object[] arrays(SystemRun r, long e, Component<?> c, boolean write) {
        if (!(write ? r.access.canWrite(c) : r.access.canRead(c))) {
            throw new UndeclaredAccessException(r.name, c, write);
        }
        if (c != column || e != entity) {
            return locate(r, e, c, write);
        }
        if (write && !stamped) {
            stamp(r);
        }
        return arrays;
    }

    /** The first write through a remembered look-up stamps the row's change version. */
    private void stamp(SystemRun r) {
        if (chunk != null) {
            chunk.markRowChangedUnlogged(slot, row, r.tick);
        }
        stamped = true;
    }

    /** Finds {@code c} on {@code e} in the storage and remembers it. */
    private Object[] locate(SystemRun r, long e, Component<?> c, boolean write) {
        EntityTable table = EcsInternals.storage(world).entityTable();
        if (!table.isAlive(e)) {
            throw table.refusal(e, (write ? "set " : "get ") + c + " in system '" + r.name + "'");
        }
        int idx = Entity.index(e);
        if (r.pipeline != null) {
            checkPipeline(r, e, c, write, table, idx);
        }
        if (c.isSparse()) {
            SparseColumn set = EcsInternals.storage(world).sparse().of(c);
            int at = set.positionOf(idx);
            if (at < 0) {
                throw new IllegalArgumentException("entity " + Entity.toString(e) + " has no component " + c
                        + " (sparse storage; system '" + r.name + "'). Test job.has(entity, " + c + ") first (for a row of "
                        + "the job's own chunk, job.chunk().has(" + c + ", row))");
            }
            remember(e, c, set.arrays(), at, null, -1);
            return arrays;
        }
        Archetype a = EcsInternals.storage(world).archetypes().get(table.archetype(idx));
        int s = a.slotOf(c.id());
        if (s < 0) {
            throw new IllegalArgumentException("entity " + Entity.toString(e) + " has no component " + c
                    + " (system '" + r.name + "'); it holds " + a.components() + ". Test job.has(entity, " + c
                    + ") first, or query for it");
        }
        Chunk ch = a.chunk(table.chunk(idx));
        remember(e, c, ch.columnArrays(s), table.row(idx), ch, s);
        if (write) {
            stamp(r); // unlogged: another job may own the chunk
        }
        return arrays;
    }

    /**
     * In a chunk pipeline, refuses a by-id access to an entity of another chunk that touches
     * a column another member of the pipeline writes (or, for a write, reads): that chunk may
     * not have reached the other member yet, so what the access sees would depend on timing.
     * A read of an entity the pipeline's query does not match is allowed: no member writes it
     * during the pipeline (their views cover the query's chunks only, and a by-id write of a
     * column another member reads is refused outside the writer's own chunk), so it reads the
     * value it would read with the pipeline's systems run one after the other.
     */
    private void checkPipeline(SystemRun r, long e, Component<?> c, boolean write, EntityTable table, int idx) {
        Component<?>[] unsafe = write ? r.byIdUnsafeWrite : r.byIdUnsafeRead;
        boolean touches = false;
        for (Component<?> u : unsafe) {
            touches |= u == c;
        }
        if (!touches) {
            return;
        }
        Archetype arch = EcsInternals.storage(world).archetypes().get(table.archetype(idx));
        Chunk own = arch.chunk(table.chunk(idx));
        if (own == current || !write && !EcsInternals.matches(r.system.query(), arch)) {
            return;
        }
        throw new IllegalStateException("system '" + r.name + "' " + (write ? "writes " : "reads ") + c + " of entity "
                + Entity.toString(e) + " by id from the chunk pipeline " + r.pipeline + ", in which another system "
                + (write ? "reads or writes " : "writes ") + c + "; the entity's chunk may not have reached that system "
                + "yet. Declare .touchesOtherEntities() on '" + r.name + "' to keep it out of chunk pipelines");
    }

    private void remember(long e, Component<?> c, Object[] a, int at, Chunk ch, int s) {
        entity = e;
        column = c;
        arrays = a;
        row = at;
        chunk = ch;
        slot = s;
        stamped = false;
    }
}
