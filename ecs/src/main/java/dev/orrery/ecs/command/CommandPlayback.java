package dev.orrery.ecs.command;

import dev.orrery.ecs.World;
import dev.orrery.ecs.archetype.Archetype;
import dev.orrery.ecs.archetype.Archetypes;
import dev.orrery.ecs.archetype.Chunk;
import dev.orrery.ecs.component.Component;
import dev.orrery.ecs.component.ComponentKind;
import dev.orrery.ecs.component.ComponentType;
import dev.orrery.ecs.entity.Entity;
import dev.orrery.ecs.storage.EntityTable;
import dev.orrery.ecs.storage.SparseColumn;
import dev.orrery.ecs.prototype.Template;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * Applies command buffers to a world at a sync point: merges every buffer's commands by
 * sort key, resolves provisional handles, batches the adds and removes of one entity into
 * one archetype move, and applies the result through the world (so the archetypes, the
 * location table and everything the world maintains stay consistent).
 *
 * <p><b>Conflict rules</b> (each case is tested):
 * <ul>
 *   <li>A command on an entity that is dead when it is reached (despawned before, or
 *       earlier in this playback: "despawn then add") is skipped and counted in
 *       {@link PlaybackReport#skippedDead()}. Despawning twice skips the second.</li>
 *   <li>Adding a column the entity already holds replaces its value when the add carries
 *       one, and is a no-op otherwise ("add twice" keeps the last value).</li>
 *   <li>Removing a column the entity lacks is a no-op, counted in
 *       {@link PlaybackReport#removedMissing()}.</li>
 *   <li>Adding an instance whose name another instance on the entity already uses, setting
 *       a column the entity does not hold, or using a provisional handle whose spawn sorts
 *       after the use, is refused and counted in {@link PlaybackReport#rejected()}.</li>
 * </ul>
 * A skipped or refused command changes nothing; every other command still applies.
 *
 * <p><b>Sparse columns</b> follow the same rules but never join the batch's archetype move:
 * an add, remove or set of a sparse column applies to the entity's sparse set at once, in
 * sort-key order (for an entity spawned in this batch, right after the flush creates it),
 * so one buffer may mix table and sparse changes of an entity freely.
 *
 * <p><b>Threading:</b> call {@link #apply} on the thread that owns the world, when no job
 * runs and every recording into the buffers happened-before the call (the scheduler's
 * job-completion signal provides this). The buffers are cleared afterwards.
 */
public final class CommandPlayback {
    private final PlaybackReport report = new PlaybackReport();
    private final CommandBuffer[] byId = new CommandBuffer[256];
    private long[] keys = new long[1024];
    private long[] locators = new long[1024];
    private final RunMerge merge = new RunMerge();
    // The one-buffer call's list, reused so that applying a single buffer allocates nothing.
    private final List<CommandBuffer> single = new ArrayList<>(1);
    private long[] pendingWrites = new long[64];
    private int pendingCount;
    private long batchEntity = Entity.NULL;
    // The batch entity's archetype when the batch started (where it still is until the
    // flush), and the archetype its adds and removes lead to.
    private Archetype batchSource;
    // True while the batch entity is a spawn not yet made: flush creates it in batchTarget.
    private boolean batchSpawn;
    private Archetype batchTarget;
    // Sparse commands on a batch spawn not yet made, applied in order once the flush made it.
    private long[] pendingSparse = new long[16];
    private int pendingSparseCount;

    /** Creates a playback with reusable scratch arrays. */
    public CommandPlayback() {
    }

    /** Applies one buffer; see {@link #apply(World, List)}. */
    public PlaybackReport apply(World world, CommandBuffer buffer) {
        single.add(buffer);
        try {
            return apply(world, single);
        } finally {
            single.clear();
        }
    }

    /**
     * Merges and applies {@code buffers} to {@code world}, then clears them.
     *
     * @return the report, valid until the next call
     * @throws IllegalArgumentException if two buffers share an id
     */
    public PlaybackReport apply(World world, List<CommandBuffer> buffers) {
        report.reset();
        int total = 0;
        for (int b = 0; b < buffers.size(); b++) {
            CommandBuffer buf = buffers.get(b);
            if (byId[buf.id()] != null && byId[buf.id()] != buf) {
                Arrays.fill(byId, null);
                throw new IllegalArgumentException("two command buffers share id " + buf.id()
                        + "; give each buffer applied together its own id");
            }
            byId[buf.id()] = buf;
            total += buf.commandCount();
            if (buf.resolved.length < buf.spawned) {
                buf.resolved = new long[Math.max(buf.spawned, buf.resolved.length * 2)];
            }
            Arrays.fill(buf.resolved, 0, buf.spawned, Entity.NULL);
        }
        try {
            if (total > 0) {
                index(buffers, total);
                run(world, total);
            }
        } finally {
            for (int b = 0; b < buffers.size(); b++) {
                byId[buffers.get(b).id()] = null;
                buffers.get(b).clear();
            }
            pendingCount = 0;
            pendingSparseCount = 0;
            batchEntity = Entity.NULL;
            batchSpawn = false;
            batchSource = null;
            batchTarget = null;
        }
        return report;
    }

    private void index(List<CommandBuffer> buffers, int total) {
        if (keys.length < total) {
            int cap = Math.max(total, keys.length * 2);
            keys = new long[cap];
            locators = new long[cap];
        }
        int n = 0;
        for (int b = 0; b < buffers.size(); b++) {
            CommandBuffer buf = buffers.get(b);
            long[] d = buf.data;
            for (int at = 0; at < buf.size; at += CommandBuffer.HEADER_WORDS + CommandBuffer.payload(d[at + 1])) {
                keys[n] = d[at];
                locators[n] = ((long) buf.id() << 32) | at;
                n++;
            }
        }
        // Sorting (key, locator) pairs: equal keys (outside-the-scheduler buffers) fall back
        // to buffer id, then recording order, so the merge is total and deterministic. The
        // pairs arrive as a few sorted runs (one per chunk a job processed, often fewer), so
        // merging the runs is cheaper than sorting from scratch, for the same order.
        merge.sort(keys, locators, n);
    }

    private void run(World world, int total) {
        for (int i = 0; i < total; i++) {
            long loc = locators[i];
            CommandBuffer buf = byId[(int) (loc >>> 32)];
            int at = (int) loc;
            long[] d = buf.data;
            long header = d[at + 1];
            int op = CommandBuffer.op(header);
            long entity = d[at + 2];
            if (op == CommandBuffer.OP_SPAWN) {
                // The entity is created at the flush, straight into the archetype its adds
                // lead to; nothing allocates an id before then (every other entity's command
                // flushes first), so the id it will get is known now.
                flush(world);
                long real = world.storage().entityTable().nextId();
                buf.resolved[(Entity.index(entity) & 0xFF_FFFF) - 1] = real;
                batchEntity = real;
                batchSpawn = true;
                batchSource = world.storage().archetypes().empty();
                batchTarget = batchSource;
                pendingCount = 0;
                report.applied++;
                continue;
            }
            if (op == CommandBuffer.OP_SPAWN_TEMPLATE) {
                flush(world);
                long real = world.spawn((Template) buf.refs[CommandBuffer.aux(header)]);
                buf.resolved[(Entity.index(entity) & 0xFF_FFFF) - 1] = real;
                startBatch(world, real);
                report.applied++;
                continue;
            }
            long e = resolve(entity);
            if (e == Entity.NULL) {
                report.rejected++;
                report.note("provisional handle " + Entity.toString(entity) + " used before its spawn was applied; "
                        + "commands using a spawned handle must sort after the spawn (same or later system)");
                continue;
            }
            if (e != batchEntity) {
                flush(world);
                if (!world.isAlive(e)) {
                    report.skippedDead++;
                    report.note(opName(op) + " on dead entity " + Entity.toString(e) + " skipped");
                    continue;
                }
                startBatch(world, e);
            }
            applyToBatch(world, op, header, buf, at);
        }
        flush(world);
    }

    private long resolve(long entity) {
        if (!CommandBuffer.isProvisional(entity)) {
            return entity;
        }
        int index = Entity.index(entity);
        CommandBuffer owner = byId[index >>> 24];
        int local = (index & 0xFF_FFFF) - 1;
        if (owner == null || local >= owner.spawned) {
            return Entity.NULL;
        }
        return owner.resolved[local];
    }

    private void startBatch(World world, long e) {
        batchEntity = e;
        batchSource = world.archetypeOf(e);
        batchTarget = batchSource;
        pendingCount = 0;
    }

    private void applyToBatch(World world, int op, long header, CommandBuffer buf, int at) {
        Archetypes archetypes = world.storage().archetypes();
        int columnId = CommandBuffer.column(header);
        if (op != CommandBuffer.OP_DESPAWN && world.storage().sparse().any()
                && world.components().column(columnId).isSparse()) {
            if (batchSpawn) {
                pendingSparse = pendLocator(pendingSparse, pendingSparseCount++, buf, at);
            } else {
                applySparse(world, op, header, buf, at);
            }
            return;
        }
        switch (op) {
            case CommandBuffer.OP_DESPAWN: {
                pendingCount = 0;
                if (batchSpawn) {
                    // Spawned and despawned in one batch: the entity still takes and frees its id.
                    spawnBatchEntity(world, world.storage().archetypes().empty());
                    applyPendingSparse(world);
                }
                world.despawn(batchEntity);
                batchEntity = Entity.NULL;
                batchSource = null;
                batchTarget = null;
                report.applied++;
                return;
            }
            case CommandBuffer.OP_ADD: {
                Component<?> column = world.components().column(columnId);
                if (!batchTarget.has(columnId) && batchSource.has(columnId)) {
                    // Removed earlier in this batch and added again: apply the removal first so
                    // the new instance starts from zero instead of inheriting the old value.
                    long e = batchEntity;
                    flush(world);
                    startBatch(world, e);
                }
                if (!batchTarget.has(columnId)) {
                    try {
                        batchTarget = archetypes.withAdded(batchTarget, column);
                    } catch (IllegalArgumentException nameTaken) {
                        report.rejected++;
                        report.note("add " + column + " to " + Entity.toString(batchEntity) + " refused: "
                                + nameTaken.getMessage());
                        return;
                    }
                }
                if (CommandBuffer.payload(header) > 0 || column.kind() == ComponentKind.REFERENCE) {
                    pend(buf, at);
                }
                report.applied++;
                return;
            }
            case CommandBuffer.OP_REMOVE: {
                if (!batchTarget.has(columnId)) {
                    report.removedMissing++;
                    report.note("remove " + world.components().column(columnId) + " from "
                            + Entity.toString(batchEntity) + ": the entity does not hold it");
                    return;
                }
                batchTarget = archetypes.withRemoved(batchTarget, world.components().column(columnId));
                dropPending(columnId);
                report.applied++;
                return;
            }
            case CommandBuffer.OP_SET:
            case CommandBuffer.OP_SET_FIELD: {
                if (!batchTarget.has(columnId)) {
                    report.rejected++;
                    report.note("set " + world.components().column(columnId) + " on " + Entity.toString(batchEntity)
                            + " refused: the entity does not hold it; add it instead");
                    return;
                }
                pend(buf, at);
                report.applied++;
                return;
            }
            default:
                throw new IllegalStateException("corrupt command buffer " + buf.id() + ": opcode " + op + " at " + at);
        }
    }

    private void pend(CommandBuffer buf, int at) {
        pendingWrites = pendLocator(pendingWrites, pendingCount++, buf, at);
    }

    /** Stores command {@code at} of {@code buf} at {@code list[i]}, growing the list if need be; returns the list. */
    private static long[] pendLocator(long[] list, int i, CommandBuffer buf, int at) {
        long[] out = i == list.length ? Arrays.copyOf(list, i * 2) : list;
        out[i] = ((long) buf.id() << 32) | at;
        return out;
    }

    /**
     * Applies an add, remove or set of a sparse column to the (existing) batch entity: the
     * same conflict rules as table columns, without touching its row.
     */
    private void applySparse(World world, int op, long header, CommandBuffer buf, int at) {
        Component<?> column = world.components().column(CommandBuffer.column(header));
        SparseColumn set = world.storage().sparse().of(column);
        int idx = Entity.index(batchEntity);
        if (op == CommandBuffer.OP_REMOVE) {
            if (world.remove(batchEntity, column)) {
                report.applied++;
            } else {
                report.removedMissing++;
                report.note("remove " + column + " from " + Entity.toString(batchEntity) + ": the entity does not hold it");
            }
            return;
        }
        if (op == CommandBuffer.OP_ADD && !set.contains(idx)) {
            world.add(batchEntity, column);
        } else if (op != CommandBuffer.OP_ADD && !set.contains(idx)) {
            report.rejected++;
            report.note("set " + column + " on " + Entity.toString(batchEntity)
                    + " refused: the entity does not hold it; add it instead");
            return;
        }
        if (op != CommandBuffer.OP_ADD || CommandBuffer.payload(header) > 0 || column.kind() == ComponentKind.REFERENCE) {
            writeValue(column, header, buf, at + CommandBuffer.HEADER_WORDS, set.arrays(), set.positionOf(idx));
        }
        report.applied++;
    }

    /** Applies the sparse commands kept for the batch spawn, which the flush has just made. */
    private void applyPendingSparse(World world) {
        for (int i = 0; i < pendingSparseCount; i++) {
            long loc = pendingSparse[i];
            CommandBuffer buf = byId[(int) (loc >>> 32)];
            int at = (int) loc;
            long header = buf.data[at + 1];
            applySparse(world, CommandBuffer.op(header), header, buf, at);
        }
        pendingSparseCount = 0;
    }

    private void dropPending(int columnId) {
        int kept = 0;
        for (int i = 0; i < pendingCount; i++) {
            long loc = pendingWrites[i];
            long header = byId[(int) (loc >>> 32)].data[(int) loc + 1];
            if (CommandBuffer.column(header) != columnId) {
                pendingWrites[kept++] = loc;
            }
        }
        pendingCount = kept;
    }

    private void flush(World world) {
        if (batchEntity == Entity.NULL) {
            return;
        }
        long e = batchEntity;
        Archetype target = batchTarget;
        if (batchSource != target) {
            if (batchSpawn) {
                spawnBatchEntity(world, target);
            } else {
                world.moveTo(e, target);
            }
            report.moves++;
        } else if (batchSpawn) {
            spawnBatchEntity(world, target);
        }
        if (pendingSparseCount > 0) {
            applyPendingSparse(world);
        }
        if (pendingCount > 0) {
            // The entity's row is found once; each write then needs only its column's slot.
            EntityTable table = world.storage().entityTable();
            int idx = Entity.index(e);
            Chunk chunk = target.chunk(table.chunk(idx));
            int row = table.row(idx);
            for (int i = 0; i < pendingCount; i++) {
                long loc = pendingWrites[i];
                CommandBuffer buf = byId[(int) (loc >>> 32)];
                int at = (int) loc;
                long header = buf.data[at + 1];
                int slot = target.slotOf(CommandBuffer.column(header));
                writeValue(target.component(slot), header, buf, at + CommandBuffer.HEADER_WORDS,
                        chunk.columnArrays(slot), row);
            }
        }
        pendingCount = 0;
        batchEntity = Entity.NULL;
        batchSource = null;
        batchTarget = null;
    }

    /** Creates the batch's pending spawn in {@code archetype}, with the id promised at the spawn command. */
    private void spawnBatchEntity(World world, Archetype archetype) {
        long real = world.spawnZeroed(archetype);
        batchSpawn = false;
        if (real != batchEntity) {
            throw new IllegalStateException("spawn in playback got " + Entity.toString(real) + " instead of "
                    + Entity.toString(batchEntity) + "; an id was allocated between a spawn command and its flush");
        }
    }

    private void writeValue(Component<?> column, long header, CommandBuffer buf, int payloadAt, Object[] arrays,
                            int row) {
        ComponentType<?> type = column.type();
        long[] data = buf.data;
        if (CommandBuffer.op(header) == CommandBuffer.OP_SET_FIELD) {
            int f = CommandBuffer.aux(header);
            type.fieldType(f).setBits(arrays[f], row, fieldBits(type, f, data[payloadAt]));
            return;
        }
        if (column.kind() == ComponentKind.REFERENCE) {
            ((Object[]) arrays[0])[row] = buf.refs[CommandBuffer.aux(header)];
            return;
        }
        int n = CommandBuffer.payload(header);
        for (int f = 0; f < n; f++) {
            type.fieldType(f).setBits(arrays[f], row, fieldBits(type, f, data[payloadAt + f]));
        }
    }

    private long fieldBits(ComponentType<?> type, int field, long bits) {
        if (type.isEntityRef(field) && CommandBuffer.isProvisional(bits)) {
            long real = resolve(bits);
            if (real == Entity.NULL) {
                report.note("entity reference " + Entity.toString(bits) + " in " + type.name() + "."
                        + type.fieldName(field) + " names a spawn not yet applied; stored as Entity.NULL");
            }
            return real;
        }
        return bits;
    }

    private static String opName(int op) {
        switch (op) {
            case CommandBuffer.OP_DESPAWN: return "despawn";
            case CommandBuffer.OP_ADD: return "add";
            case CommandBuffer.OP_REMOVE: return "remove";
            case CommandBuffer.OP_SET: return "set";
            case CommandBuffer.OP_SET_FIELD: return "set field";
            default: return "command " + op;
        }
    }
}
