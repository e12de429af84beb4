package dev.orrery.ecs;

import dev.orrery.ecs.archetype.Archetype;
import dev.orrery.ecs.archetype.Archetypes;
import dev.orrery.ecs.archetype.Chunk;
import dev.orrery.ecs.component.Component;
import dev.orrery.ecs.component.ComponentKind;
import dev.orrery.ecs.component.ComponentType;
import dev.orrery.ecs.component.Entity;
import dev.orrery.ecs.ownership.AssertionSwitch;
import dev.orrery.ecs.ownership.TuningProperty;
import dev.orrery.ecs.storage.EntityTable;
import dev.orrery.ecs.storage.SparseColumn;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.function.IntFunction;

/**
 * Applies command buffers to a world at a sync point: merges every buffer's commands by
 * sort key, resolves provisional handles, batches the adds and removes of one entity into
 * one archetype move, and applies the result through the world (so the archetypes, the
 * location table and everything the world maintains stay consistent).
 *
 * <p>Over 500 lines, on purpose: playback is one state machine, the batch of one entity's
 * commands (its source and target archetypes, pending writes, pending spawn), whose
 * steps all read and write that state; split, the batch would travel between classes on every
 * command. What stands apart is split off: the spawns whose values wait
 * ({@link DeferredSpawns}), where those values sit ({@link SpawnWords}, {@link AddedSpawnKinds})
 * and the merge of the buffers' runs ({@link RunMerge}).
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
 * A skipped or refused command changes nothing; every other command still applies. The
 * report counts every outcome per {@link CommandKind} ({@link PlaybackReport#count}).
 *
 * <p><b>Strict mode</b> (on when Java assertions are enabled, as in every test run, unless
 * the system property {@value #STRICT_PROPERTY} says {@code true} or {@code false}; or set
 * with {@link #strict(boolean)}): a sync point that held a refused command throws a
 * {@link RefusedCommandException} naming the first one and the system that recorded it
 * (see {@link #systemNames}). It throws after the whole sync point is applied as in lenient
 * mode, so the world is the same either way and consistent. Skips (dead entities) and
 * removes of a missing component never throw: they are the ordinary result of systems
 * racing in a deterministic order, not bugs.
 *
 * <p><b>Spawns through a shape</b> ({@link CommandBuffer#spawn(dev.orrery.ecs.Shape)}) are
 * made with the shape's own spawn (same archetype, same instance names) and their recorded
 * field values written into the new row at once: no archetype move, no record. A shape or
 * template of another world's handles is refused with an {@link IllegalArgumentException}
 * before anything is applied, as any command of another world's component is.
 *
 * <p><b>Spawn values side by side.</b> The entities of plain spawns are made one by one in key
 * order, so their ids and rows are the serial ones; their recorded values are written
 * afterwards, before anything could move or read those rows (the next despawn, archetype move
 * or write, or the end of playback). Plain: a shape spawn with values, or a {@code spawn()}
 * whose adds all carry a whole value (the README's {@code spawn()} then
 * {@code add(h, column, value)} per column), with no entity reference, no sparse column and no
 * other command on the entity in the same batch ({@link SpawnWords}). Once at least
 * {@value #DEFAULT_PARALLEL_SPAWNS} such spawns wait (system property
 * {@value #PARALLEL_SPAWNS_PROPERTY}, a whole number of 1 or more; anything else fails the
 * first use of command playback), the writes are split over the threads of the
 * {@link ParallelFor} given to {@link #parallel}; every spawn owns its row, so the result is
 * the same on any number of threads. They are written one field at a time over each run of
 * rows in one chunk ({@link FieldScatter}).
 *
 * <p><b>Rows written once.</b> A spawn whose recorded values fill every field of its row (a
 * spawn through a shape with no reference column, whose command holds every field; a
 * {@code spawn()} whose adds carry a whole value for every column with fields) gets its row
 * without zeroing, since the values overwrite all of it before anything reads it; any other
 * spawn's row starts from zero.
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
final class CommandPlayback {
    /** The system property that forces strict mode on ({@code true}) or off ({@code false}). */
    public static final String STRICT_PROPERTY = "orrery.commands.strict";
    private static final boolean STRICT_DEFAULT = AssertionSwitch.enabled(STRICT_PROPERTY);
    /** The system property that sets how many waiting spawns make their value writes go parallel. */
    public static final String PARALLEL_SPAWNS_PROPERTY = "orrery.playback.parallelSpawns";
    /** The default of {@value #PARALLEL_SPAWNS_PROPERTY}: below it, one thread writes faster than two hand off. */
    public static final int DEFAULT_PARALLEL_SPAWNS = 512;
    /** Read once, strictly: 1 or more; anything else fails this class's initialisation, naming the property. */
    private static final int PARALLEL_SPAWNS = TuningProperty.intValue(PARALLEL_SPAWNS_PROPERTY,
            DEFAULT_PARALLEL_SPAWNS, 1, Integer.MAX_VALUE);

    private static final int NO_ARCHETYPE = -1;
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
    // The ids of the batch entity's archetype when the batch started (where it still is until
    // the flush; for a spawn through a shape, the shape's archetype) and of the archetype its
    // adds and removes lead to, NO_ARCHETYPE outside a batch. Ids, not references: a reference
    // stored into this long-lived object costs the collector's write barrier (about 10 ns with
    // G1, measured) at every command, and playback stores these once or more per command.
    private int batchSource = NO_ARCHETYPE;
    // True while the batch entity is a spawn not yet made: flush creates it.
    private boolean batchSpawn;
    private int batchTarget = NO_ARCHETYPE;
    // The world's archetypes, for the ids above: set at each apply.
    private Archetypes archetypes;
    // For a pending spawn through a shape (batchViaShape): its layout and the locator of its
    // command (payload). The layout is stored only when it differs from the last one (a reference
    // stored per spawn would pay the write barrier, as above); batchViaShape says whether it applies.
    private boolean batchViaShape;
    private ShapeLayout batchLayout;
    private long batchSpawnLocator;
    // Sparse commands on a batch spawn not yet made, applied in order once the flush made it.
    private long[] pendingSparse = new long[16];
    private int pendingSparseCount;
    private boolean strict = STRICT_DEFAULT;
    private ParallelFor parallel = ParallelFor.SERIAL;
    // Spawns made whose values wait (see settle), and the kinds of spawn() plus adds seen.
    private final DeferredSpawns deferred = new DeferredSpawns(PARALLEL_SPAWNS);
    private final AddedSpawnKinds addedKinds = new AddedSpawnKinds();

    /** Creates a playback with reusable scratch arrays. */
    public CommandPlayback() {
    }

    /**
     * Turns strict mode on or off for this playback (see the class comment); returns this.
     * Tests that exercise refused commands on purpose turn it off.
     */
    public CommandPlayback strict(boolean on) {
        strict = on;
        return this;
    }

    /**
     * Lends this playback threads for writing spawn values side by side (see the class
     * comment); {@link ParallelFor#SERIAL}, the default, writes them on the applying thread.
     * Returns this.
     */
    public CommandPlayback parallel(ParallelFor threads) {
        parallel = java.util.Objects.requireNonNull(threads, "threads");
        return this;
    }

    /** True when a refused command makes {@link #apply} throw. */
    public boolean isStrict() {
        return strict;
    }

    /**
     * Names the systems in descriptions and in {@link RefusedCommandException}: {@code names}
     * maps a command's system order (its schedule position, given to
     * {@link CommandBuffer#beginChunk}) to the system's name, or to {@code null} when unknown.
     * The scheduler passes its graph's names; {@code null} numbers the systems instead.
     */
    public void systemNames(IntFunction<String> names) {
        report.systemNames(names);
    }

    /**
     * The report of the last {@link #apply}, also when it threw (an observer hook): what it had
     * applied by then, nothing for a buffer refused before playback. Valid until the next call.
     */
    PlaybackReport lastReport() {
        return report;
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
     * @throws IllegalArgumentException if two buffers share an id, or if one holds a command
     *     of another world's component (its own, or a template's or shape's): then nothing is
     *     applied and every buffer is cleared
     * @throws RefusedCommandException in strict mode, when a command was refused (after
     *     applying every other one)
     */
    public PlaybackReport apply(World world, List<CommandBuffer> buffers) {
        report.reset(); // first: a refusal below reports nothing applied, not the last playback's counts
        try {
            for (int b = 0; b < buffers.size(); b++) { // before anything is applied: ids of another world name other columns
                RecordedColumns.checkOwner(java.util.Objects.requireNonNull(buffers.get(b), "command buffer"),
                        world.components());
            }
        } catch (IllegalArgumentException foreign) {
            // None of it can ever apply here: cleared, as after any playback, or the executor would
            // play the same buffers again at every later sync point and fail there too.
            for (int b = 0; b < buffers.size(); b++) {
                if (buffers.get(b) != null) {
                    buffers.get(b).clear();
                }
            }
            throw foreign;
        }
        archetypes = world.storage().archetypes();
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
        // Observer hooks queue their events while the playback runs and fire once it is done,
        // when every spawn has its values (settle): in playback order, on this thread.
        world.changes().beginBatch();
        boolean applied = false;
        try {
            if (total > 0) {
                index(buffers, total);
                run(world, total);
            }
            applied = true;
        } finally {
            if (!applied) {
                world.changes().abortBatch();
            }
            if (deferred.count() > 0) { // playback stopped early: the spawns made still get their values
                settle(world, 1);
            }
            for (int b = 0; b < buffers.size(); b++) {
                byId[buffers.get(b).id()] = null;
                buffers.get(b).clear();
            }
            endBatch();
            pendingSparseCount = 0;
            batchSpawn = false;
            batchViaShape = false;
            batchLayout = null;
        }
        world.changes().endBatch(world);
        if (strict && report.rejected() > 0) {
            throw new RefusedCommandException(report);
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
            // Each command's key through the starts the buffer recorded: independent loads, where
            // walking the headers waits at every step for the last one's payload length.
            int[] starts = buf.starts;
            long id = (long) buf.id() << 32;
            for (int i = 0, count = buf.commandCount(); i < count; i++) {
                int at = starts[i];
                keys[n] = d[at];
                locators[n] = id | at;
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
            int op = CommandHeader.op(header);
            long entity = d[at + 2];
            if (op == CommandBuffer.OP_SPAWN || op == CommandBuffer.OP_SPAWN_SHAPE) {
                // The entity is created at the flush, straight into the archetype its adds
                // lead to; nothing allocates an id before then (every other entity's command
                // flushes first), so the id it will get is known now.
                flush(world);
                long real = world.storage().entityTable().nextId();
                buf.resolved[(Entity.index(entity) & 0xFF_FFFF) - 1] = real;
                batchEntity = real;
                batchSpawn = true;
                if (op == CommandBuffer.OP_SPAWN_SHAPE) {
                    ShapeLayout layout = (ShapeLayout) buf.refs[CommandHeader.aux(header)];
                    if (layout != batchLayout) {
                        batchLayout = layout;
                    }
                    batchViaShape = true;
                    batchSpawnLocator = loc;
                    batchSource = ownArchetype(world, layout).id();
                } else {
                    batchSource = archetypes.empty().id();
                }
                batchTarget = batchSource;
                pendingCount = 0;
                report.count(op, CommandOutcome.APPLIED);
                continue;
            }
            if (op == CommandBuffer.OP_SPAWN_TEMPLATE) {
                flush(world);
                long real = world.spawn((Template) buf.refs[CommandHeader.aux(header)]);
                buf.resolved[(Entity.index(entity) & 0xFF_FFFF) - 1] = real;
                startBatch(world, real);
                report.count(op, CommandOutcome.APPLIED);
                continue;
            }
            long e = resolve(entity);
            if (e == Entity.NULL) {
                report.note(unresolved(entity), op, d[at], entity, columnOf(world, op, header), 0, null);
                continue;
            }
            if (op == CommandBuffer.OP_ADD_PAIR || op == CommandBuffer.OP_REMOVE_PAIR) {
                flush(world);
                settle(world, parallel.threads()); // the pair may move the holder's row, or one a cascade reaches
                applyPair(world, op, header, buf, at, e);
                continue;
            }
            if (e != batchEntity) {
                flush(world);
                if (!world.isAlive(e)) {
                    report.note(PlaybackReport.Note.DEAD, op, d[at], e, columnOf(world, op, header), 0, null);
                    continue;
                }
                startBatch(world, e);
            }
            applyToBatch(world, op, header, buf, at);
        }
        flush(world);
        settle(world, parallel.threads());
    }

    /**
     * Applies a pair command on resolved holder {@code e} through the world's relations: a dead
     * holder or target skips it, a refused pair (a cycle, or the holder as its own target) is
     * counted as refused with the store's reason.
     */
    private void applyPair(World world, int op, long header, CommandBuffer buf, int at, long e) {
        long[] d = buf.data;
        Component<?> column = world.components().column(CommandHeader.column(header));
        Relation r = (Relation) column.relation();
        long recorded = d[at + CommandBuffer.HEADER_WORDS];
        long t = resolve(recorded);
        if (t == Entity.NULL) {
            report.note(unresolved(recorded), op, d[at], recorded, column, 0, null);
            return;
        }
        if (!world.isAlive(e)) {
            report.note(PlaybackReport.Note.DEAD, op, d[at], e, column, 0, null);
            return;
        }
        if (!world.isAlive(t)) { // a despawn took the pair with it (or it never was): skipped, as the book says
            report.noteDeadTarget(op, d[at], e, column, t);
            return;
        }
        if (op == CommandBuffer.OP_REMOVE_PAIR) {
            if (world.relations().removeFromPlayback(e, r, t)) {
                report.count(op, CommandOutcome.APPLIED);
            } else {
                report.noteMissingPair(op, d[at], e, column, t, world.relations().targetCount(e, r));
            }
            return;
        }
        String refusal = world.relations().addFromPlayback(e, r, t);
        if (refusal == null) {
            report.count(op, CommandOutcome.APPLIED);
        } else {
            report.note(PlaybackReport.Note.PAIR_REFUSED, op, d[at], e, column, 0, refusal);
        }
    }

    /** The component a non-spawn command names, {@code null} for a despawn. */
    private static Component<?> columnOf(World world, int op, long header) {
        return op == CommandBuffer.OP_DESPAWN ? null : world.components().column(CommandHeader.column(header));
    }

    /** The archetype of {@code layout}'s shape, refused when the shape was prepared by another world. */
    private static Archetype ownArchetype(World world, ShapeLayout layout) {
        Archetype a = layout.shape.archetype();
        Archetypes own = world.storage().archetypes();
        if (a.id() >= own.count() || own.get(a.id()) != a) {
            throw new IllegalArgumentException("a command buffer spawned through " + layout.shape + ", which another "
                    + "world prepared; prepare the shape with world.shape(...) of the world the commands apply to");
        }
        return a;
    }

    /** Why {@code entity} resolved to no entity: a buffer's handle used too early, or not a handle at all. */
    private int unresolved(long entity) {
        int index = Entity.index(entity);
        CommandBuffer owner = CommandBuffer.isProvisional(entity) ? byId[index >>> 24] : null;
        int local = (index & 0xFF_FFFF) - 1;
        return owner != null && local >= 0 && local < owner.spawned ? PlaybackReport.Note.EARLY_HANDLE
                : PlaybackReport.Note.NOT_A_HANDLE;
    }

    private long resolve(long entity) {
        if (!CommandBuffer.isProvisional(entity)) {
            return entity;
        }
        int index = Entity.index(entity);
        CommandBuffer owner = byId[index >>> 24];
        int local = (index & 0xFF_FFFF) - 1;
        if (owner == null || local < 0 || local >= owner.spawned) {
            return Entity.NULL;
        }
        return owner.resolved[local];
    }

    private void startBatch(World world, long e) {
        batchEntity = e;
        batchSource = world.archetypeOf(e).id();
        batchTarget = batchSource;
        pendingCount = 0;
    }

    private void applyToBatch(World world, int op, long header, CommandBuffer buf, int at) {
        int columnId = CommandHeader.column(header);
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
                settle(world, parallel.threads()); // the despawn moves a row, maybe one still waiting for its values
                if (batchSpawn) {
                    // Spawned and despawned in one batch: the entity still takes and frees its id.
                    makeSpawn(world, archetypes.empty());
                    applyPendingSparse(world);
                }
                world.despawn(batchEntity);
                endBatch();
                report.count(op, CommandOutcome.APPLIED);
                return;
            }
            case CommandBuffer.OP_ADD: {
                Component<?> column = world.components().column(columnId);
                if (!archetypes.get(batchTarget).has(columnId) && archetypes.get(batchSource).has(columnId)) {
                    // Removed earlier in this batch and added again: apply the removal first so
                    // the new instance starts from zero instead of inheriting the old value.
                    long e = batchEntity;
                    flush(world);
                    startBatch(world, e);
                }
                if (!archetypes.get(batchTarget).has(columnId)) {
                    try {
                        batchTarget = archetypes.withAdded(archetypes.get(batchTarget), column).id();
                    } catch (IllegalArgumentException nameTaken) {
                        report.note(PlaybackReport.Note.NAME_TAKEN, op, buf.data[at], batchEntity, column, 0,
                                nameTaken.getMessage());
                        return;
                    }
                }
                if (CommandHeader.payload(header) > 0 || column.kind() == ComponentKind.REFERENCE) {
                    pend(buf, at);
                }
                report.count(op, CommandOutcome.APPLIED);
                return;
            }
            case CommandBuffer.OP_REMOVE: {
                if (!archetypes.get(batchTarget).has(columnId)) {
                    report.note(PlaybackReport.Note.REMOVE_MISSING, op, buf.data[at], batchEntity,
                            world.components().column(columnId), 0, null);
                    return;
                }
                batchTarget = archetypes.withRemoved(archetypes.get(batchTarget),
                        world.components().column(columnId)).id();
                dropPending(columnId);
                report.count(op, CommandOutcome.APPLIED);
                return;
            }
            case CommandBuffer.OP_SET:
            case CommandBuffer.OP_SET_FIELD: {
                if (!archetypes.get(batchTarget).has(columnId)) {
                    report.note(PlaybackReport.Note.SET_MISSING, op, buf.data[at], batchEntity,
                            world.components().column(columnId), 0, null);
                    return;
                }
                pend(buf, at);
                report.count(op, CommandOutcome.APPLIED);
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
        Component<?> column = world.components().column(CommandHeader.column(header));
        SparseColumn set = world.storage().sparse().of(column);
        int idx = Entity.index(batchEntity);
        if (op == CommandBuffer.OP_REMOVE) {
            if (world.remove(batchEntity, column)) {
                report.count(op, CommandOutcome.APPLIED);
            } else {
                report.note(PlaybackReport.Note.REMOVE_MISSING, op, buf.data[at], batchEntity, column, 0, null);
            }
            return;
        }
        if (op == CommandBuffer.OP_ADD && !set.contains(idx)) {
            world.add(batchEntity, column);
        } else if (op != CommandBuffer.OP_ADD && !set.contains(idx)) {
            report.note(PlaybackReport.Note.SET_MISSING, op, buf.data[at], batchEntity, column, 0, null);
            return;
        }
        if (op != CommandBuffer.OP_ADD || CommandHeader.payload(header) > 0 || column.kind() == ComponentKind.REFERENCE) {
            writeValue(column, header, buf, at, set.arrays(), set.positionOf(idx));
        }
        report.count(op, CommandOutcome.APPLIED);
    }

    /** Applies the sparse commands kept for the batch spawn, which the flush has just made. */
    private void applyPendingSparse(World world) {
        for (int i = 0; i < pendingSparseCount; i++) {
            long loc = pendingSparse[i];
            CommandBuffer buf = byId[(int) (loc >>> 32)];
            int at = (int) loc;
            long header = buf.data[at + 1];
            applySparse(world, CommandHeader.op(header), header, buf, at);
        }
        pendingSparseCount = 0;
    }

    private void dropPending(int columnId) {
        int kept = 0;
        for (int i = 0; i < pendingCount; i++) {
            long loc = pendingWrites[i];
            long header = byId[(int) (loc >>> 32)].data[(int) loc + 1];
            if (CommandHeader.column(header) != columnId) {
                pendingWrites[kept++] = loc;
            }
        }
        pendingCount = kept;
    }

    private void flush(World world) {
        if (batchEntity == Entity.NULL) {
            return;
        }
        if (batchSpawn && pendingSparseCount == 0 && deferSpawn(world)) {
            return;
        }
        settle(world, parallel.threads()); // what follows may move or write rows still waiting for their values
        long e = batchEntity;
        Archetype target = archetypes.get(batchTarget);
        if (batchSpawn) {
            boolean viaShape = batchViaShape;
            makeSpawn(world, target);
            if (batchSource != batchTarget) {
                if (viaShape) {
                    world.moveTo(e, target); // adds or removes after a spawn through a shape
                }
                report.moves++;
            }
        } else if (batchSource != batchTarget) {
            world.moveTo(e, target);
            report.moves++;
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
            long tick = archetypes.clock().now();
            for (int i = 0; i < pendingCount; i++) {
                long loc = pendingWrites[i];
                CommandBuffer buf = byId[(int) (loc >>> 32)];
                int at = (int) loc;
                long header = buf.data[at + 1];
                int slot = target.slotOf(CommandHeader.column(header));
                writeValue(target.component(slot), header, buf, at, chunk.columnArrays(slot), row);
                chunk.markRowChanged(slot, row, tick);
                if (CommandHeader.op(header) != CommandBuffer.OP_ADD) {
                    world.changes().set(e, target.component(slot));
                }
            }
        }
        endBatch();
    }

    /** Ends the batch: no entity, no archetypes, no pending writes. */
    private void endBatch() {
        pendingCount = 0;
        batchEntity = Entity.NULL;
        batchSource = NO_ARCHETYPE;
        batchTarget = NO_ARCHETYPE;
    }

    /**
     * Makes the batch's spawn now and leaves its values for {@link #settle}, when they may
     * wait: a shape spawn with no later command in the batch and a {@link ShapeLayout#deferred}
     * layout, or a {@code spawn()} whose adds {@link AddedSpawnKinds} finds plain (made straight
     * in the archetype the adds lead to, with the id, row, report and change stamps
     * {@link #makeSpawn} would give it: the row's arrival stamps every column at this tick).
     * Returns false, changing nothing, for any other batch spawn.
     */
    private boolean deferSpawn(World world) {
        if (batchViaShape) {
            ShapeLayout layout = batchLayout;
            SpawnWords words = layout.deferred;
            if (words == null || batchSource != batchTarget || pendingCount != 0) {
                return false;
            }
            long real = layout.shape.spawnEmpty(!words.coversRow);
            checkPromised(real);
            defer(real, words, batchSpawnLocator);
            return true;
        }
        SpawnWords words = pendingCount == 0 ? null
                : addedKinds.find(world, archetypes.get(batchTarget), pendingWrites, pendingCount, byId);
        if (words == null) {
            return false;
        }
        long real = world.spawnEmpty(words.archetype, !words.coversRow);
        checkPromised(real);
        report.moves++; // as flush counts a plain spawn's move out of the empty archetype
        defer(real, words, pendingWrites[0]);
        return true;
    }

    /**
     * Leaves spawn {@code real}'s values for {@link #settle}: laid out as {@code words} from the
     * payload of the command at {@code locator} on, and ends the batch.
     */
    private void defer(long real, SpawnWords words, long locator) {
        deferred.add(real, words, byId[(int) (locator >>> 32)].data, (int) locator + CommandBuffer.HEADER_WORDS);
        batchSpawn = false;
        batchViaShape = false;
        endBatch();
    }

    /**
     * Writes the values of every spawn left by {@link #defer} ({@link DeferredSpawns}), split
     * over up to {@code threads} threads of {@link #parallel} when enough wait.
     */
    private void settle(World world, int threads) {
        deferred.settle(world, parallel, threads);
    }

    /**
     * Creates the batch's pending spawn with the id promised at its spawn command: through its
     * shape (in the shape's archetype, with the recorded field values), or else in
     * {@code plainTarget}, unzeroed when the batch's pending values fill every field of it, as
     * the flush writes them next.
     */
    private void makeSpawn(World world, Archetype plainTarget) {
        ShapeLayout layout = batchViaShape ? batchLayout : null;
        long real = layout != null ? layout.shape.spawn()
                : world.spawnEmpty(plainTarget, !pendingCoversRow(plainTarget));
        batchSpawn = false;
        batchViaShape = false;
        checkPromised(real);
        if (layout != null && layout.words > 0) {
            writeShapeValues(world, layout, real, batchSpawnLocator);
        }
    }

    /**
     * True when the pending writes hold a whole value (an add or set with its value, or a
     * reference) for every column of {@code target} that has fields; a one-field set does not
     * count.
     */
    private boolean pendingCoversRow(Archetype target) {
        long slots = 0;
        for (int i = 0; i < pendingCount; i++) {
            long loc = pendingWrites[i];
            long header = byId[(int) (loc >>> 32)].data[(int) loc + 1];
            if (CommandHeader.op(header) != CommandBuffer.OP_SET_FIELD) {
                int slot = target.slotOf(CommandHeader.column(header));
                slots |= slot < Long.SIZE ? 1L << slot : 0L;
            }
        }
        return target.fieldsAllIn(slots);
    }

    private void checkPromised(long real) {
        if (real != batchEntity) {
            throw new IllegalStateException("spawn in playback got " + Entity.toString(real) + " instead of "
                    + Entity.toString(batchEntity) + "; an id was allocated between a spawn command and its flush");
        }
    }

    /**
     * Writes the field values recorded with the spawn command at {@code locator}, through
     * {@code layout}'s shape, into entity {@code e}.
     */
    private void writeShapeValues(World world, ShapeLayout layout, long e, long locator) {
        CommandBuffer buf = byId[(int) (locator >>> 32)];
        int at = (int) locator;
        long key = buf.data[at];
        int payload = at + CommandBuffer.HEADER_WORDS;
        Archetype a = layout.shape.archetype();
        EntityTable table = world.storage().entityTable();
        int idx = Entity.index(e);
        Chunk chunk = a.chunk(table.chunk(idx));
        int row = table.row(idx);
        Component<?>[] columns = layout.columns;
        for (int i = 0; i < columns.length; i++) {
            int off = layout.offsets[i];
            if (off < 0) {
                continue;
            }
            Component<?> c = columns[i];
            if (c.isSparse()) {
                SparseColumn set = world.storage().sparse().of(c);
                writeFields(c, key, buf.data, payload + off, c.type().fieldCount(), set.arrays(),
                        set.positionOf(idx));
            } else {
                writeFields(c, key, buf.data, payload + off, c.type().fieldCount(),
                        chunk.columnArrays(a.slotOf(c.id())), row);
            }
        }
    }

    /** Writes the value command at {@code at} of {@code buf} (its whole value, or one field) at {@code row}. */
    private void writeValue(Component<?> column, long header, CommandBuffer buf, int at, Object[] arrays, int row) {
        long[] data = buf.data;
        int payloadAt = at + CommandBuffer.HEADER_WORDS;
        if (CommandHeader.op(header) == CommandBuffer.OP_SET_FIELD) {
            int f = CommandHeader.aux(header);
            column.type().fieldType(f).setBits(arrays[f], row, fieldBits(column, f, data[payloadAt], data[at]));
            return;
        }
        if (column.kind() == ComponentKind.REFERENCE) {
            ((Object[]) arrays[0])[row] = buf.refs[CommandHeader.aux(header)];
            return;
        }
        writeFields(column, data[at], data, payloadAt, CommandHeader.payload(header), arrays, row);
    }

    /** Writes fields {@code 0..n)} of {@code column} from {@code data[from..)} at {@code row}. */
    private void writeFields(Component<?> column, long key, long[] data, int from, int n, Object[] arrays, int row) {
        ComponentType<?> type = column.type();
        for (int f = 0; f < n; f++) {
            type.fieldType(f).setBits(arrays[f], row, fieldBits(column, f, data[from + f], key));
        }
    }

    private long fieldBits(Component<?> column, int field, long bits, long key) {
        if (column.type().isEntityRef(field) && CommandBuffer.isProvisional(bits)) {
            long real = resolve(bits);
            if (real == Entity.NULL) {
                report.note(PlaybackReport.Note.UNRESOLVED_REFERENCE, CommandBuffer.OP_SET, key, bits, column, field,
                        null);
            }
            return real;
        }
        return bits;
    }
}
