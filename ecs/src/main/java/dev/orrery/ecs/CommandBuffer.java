package dev.orrery.ecs;

import dev.orrery.ecs.access.StructuralEffects;
import dev.orrery.ecs.component.Component;
import dev.orrery.ecs.component.ComponentKind;
import dev.orrery.ecs.component.Entity;
import dev.orrery.ecs.component.Field;
import dev.orrery.ecs.component.FieldType;
import dev.orrery.ecs.ownership.OwnerThread;
import dev.orrery.ecs.structure.EntityRows;
import java.util.Arrays;
import java.util.IdentityHashMap;
import java.util.Map;

/**
 * Records structural changes (spawn, despawn, add, remove, and value writes that must wait
 * for them) for later playback at a sync point (or by {@link World#apply(CommandBuffer)}).
 *
 * <p><b>Encoding.</b> Commands go into one growing {@code long[]} stream, three words of
 * header (sort key; opcode, payload length, column, aux; entity) followed by the payload:
 * a value component's fields as raw bits, one word each, read from the record through
 * typed method handles, so nothing is boxed. Reference payloads go to a side
 * {@code Object[]}. After warm-up (once the arrays have grown to a tick's volume),
 * recording allocates nothing.
 *
 * <p><b>Sort key.</b> Every command carries {@code (system order, chunk ordinal, sequence)}
 * packed into one {@code long}: 12, 24 and 27 bits. The scheduler sets the first two with
 * {@link #beginChunk} before a job processes a chunk; the sequence counts commands within
 * that chunk. Because one job processes a chunk on one thread in row order, the sequence
 * orders the commands exactly as (row, sequence within the row) would, with fewer bits.
 * Playback merges all buffers by this key, so which worker ran which chunk never changes
 * the result.
 *
 * <p><b>Provisional handles.</b> {@link #spawn()} returns at once a handle with generation 0
 * (which no live entity has) and an index made of this buffer's id (8 bits) and a local
 * counter (24 bits). Later commands may use the handle, also inside
 * {@link dev.orrery.ecs.component.EntityRef} fields of other components; playback resolves
 * it to the real id. Only this buffer's commands may carry it: a write straight to the world
 * of an entity-ref field holding a provisional handle is refused, naming the field.
 *
 * <p><b>Spawning without records.</b> {@link #spawn(Shape)} records a spawn straight into a
 * prepared shape's archetype, with room for the shape's field values in the command itself;
 * the typed writes that follow on the handle ({@link #setFloat}, {@link #setInt}, ...) fill
 * that room instead of recording commands of their own, as long as nothing else was
 * recorded in between. Once warm, recording and playing back such spawns allocates nothing:
 *
 * <pre>{@code
 * Shape particle = world.shape(pos, vel);            // once, on the world's thread
 * long p = commands.spawn(particle);                  // in a job
 * commands.setFloat(p, px, x);
 * commands.setFloat(p, vy, 2f);
 * }</pre>
 *
 * <p><b>Threading:</b> a buffer has one recording thread at a time (its worker); when an
 * owner is bound with {@link #bindOwner}, recording from another thread fails an assertion.
 * Recording must happen-before playback: the scheduler publishes a worker's buffer to the
 * applying thread through the job-completion signal (a volatile write by the worker, read by
 * the applying thread), and no job records while playback runs.
 *
 * <p>(Over 500 lines on purpose: every recording call is public surface, documented with
 * its tags, and the encoding they share sits beside them.)
 */
public final class CommandBuffer {
    static final int HEADER_WORDS = 3;
    static final int OP_SPAWN = 1;
    static final int OP_DESPAWN = 2;
    static final int OP_ADD = 3;
    static final int OP_REMOVE = 4;
    static final int OP_SET = 5;
    static final int OP_SET_FIELD = 6;
    static final int OP_SPAWN_TEMPLATE = 7;
    static final int OP_SPAWN_SHAPE = 8;
    static final int OP_ADD_PAIR = 9;
    static final int OP_REMOVE_PAIR = 10;

    static final int SYSTEM_BITS = 12;
    static final int CHUNK_BITS = 24;
    static final int SEQ_BITS = 27;
    static final int MAX_LOCAL_SPAWNS = (1 << 24) - 2;

    private final int id;
    long[] data = new long[256];
    int size;
    Object[] refs = new Object[16];
    int refCount;
    int spawned;
    long[] resolved = new long[16];
    private long keyBase;
    private int seq;
    private int count;
    // Where each command starts in data, in recording order (a command takes at least HEADER_WORDS).
    int[] starts = new int[data.length / HEADER_WORDS];
    // The most commands this buffer stores before refusing the next (observer hooks' cascade
    // budget; unlimited otherwise), and whether a command was refused since the last clear.
    private int commandLimit = Integer.MAX_VALUE;
    private boolean limitReached;
    private final OwnerThread owner;
    private StructuralEffects effects = StructuralEffects.ANY;
    // The shapes this buffer spawned through, with their payload layouts (the last one at hand, and
    // where refs holds it: no reference stored per spawn, which would pay G1's write barrier).
    private Map<Shape, ShapeLayout> layouts;
    private ShapeLayout lastLayout;
    private int lastLayoutRef;
    // The last spawn through a shape (of lastLayout) while it is still the last command recorded:
    // typed writes to its handle go into its payload. openEnd is the buffer size right after it.
    private long openSpawn = Entity.NULL;
    private int openPayload;
    private int openEnd = -1;
    // Typed writes into the open spawn so far: the index into its layout's write order (ShapeLayout.offsetOfWrite).
    private int openWrites;
    // The last layout whose columns passed the spawn check against the last effects: a job
    // spawning through one shape checks it once, not per spawn (both are immutable).
    private ShapeLayout checkedLayout;
    private StructuralEffects checkedEffects;
    // The same for the last template spawned from (immutable too).
    private Template checkedTemplate;
    private StructuralEffects checkedTemplateEffects;
    // The columns recorded, by id: playback refuses the buffer when one is another world's (RecordedColumns).
    Component<?>[] recordedColumns = RecordedColumns.NONE;

    /**
     * A buffer with id {@code id} (0..255). Buffers applied together must have distinct ids:
     * the id is part of each provisional handle.
     *
     * @param id the buffer's id, 0 to 255, unique among the buffers applied together
     * @throws IllegalArgumentException if {@code id} is outside 0..255
     */
    public CommandBuffer(int id) {
        if (id < 0 || id > 255) {
            throw new IllegalArgumentException("command buffer id " + id + " out of range 0..255");
        }
        this.id = id;
        this.owner = new OwnerThread("command buffer " + id);
    }

    /**
     * The buffer's id.
     *
     * @return the id given at construction, 0 to 255
     */
    public int id() {
        return id;
    }

    /**
     * Binds the recording thread ({@code null} unbinds); recording from another thread then
     * fails an assertion (under {@code -ea}). The scheduler binds each worker's buffer to
     * that worker; see {@link OwnerThread} for the happens-before a re-binding needs.
     *
     * @param thread the one thread that may record, or {@code null} to allow any
     */
    public void bindOwner(Thread thread) {
        owner.bind(thread);
    }

    /**
     * Declares what the commands that follow may be: the scheduler binds the running system's
     * declared effects before its job records, so an undeclared spawn, despawn, add, remove
     * or set fails at once with an {@link UndeclaredCommandException} naming the system and
     * the component. {@code null} (or {@link StructuralEffects#ANY}, the default) checks nothing.
     * Same thread rules as recording.
     */
    void declareEffects(StructuralEffects effects) {
        this.effects = effects == null ? StructuralEffects.ANY : effects;
    }

    /** The effects bound by {@link #declareEffects}; {@link StructuralEffects#ANY} when none. */
    StructuralEffects declaredEffects() {
        return effects;
    }

    /**
     * Sets the sort key prefix for the commands that follow: the system's position in the
     * schedule and the chunk's ordinal within that system's matching chunks. Resets the
     * sequence. Code outside the scheduler need not call it: commands then sort by
     * recording order.
     */
    void beginChunk(int systemOrder, int chunkOrdinal) {
        if (systemOrder < 0 || systemOrder >= 1 << SYSTEM_BITS) {
            throw new IllegalArgumentException("system order " + systemOrder + " exceeds " + ((1 << SYSTEM_BITS) - 1));
        }
        if (chunkOrdinal < 0 || chunkOrdinal >= 1 << CHUNK_BITS) {
            throw new IllegalArgumentException("chunk ordinal " + chunkOrdinal + " exceeds " + ((1 << CHUNK_BITS) - 1));
        }
        keyBase = ((long) systemOrder << (CHUNK_BITS + SEQ_BITS)) | ((long) chunkOrdinal << SEQ_BITS);
        seq = 0;
        openEnd = -1;
    }

    /** The system order (the schedule position given to {@link #beginChunk}) in a command's sort key. */
    static int systemOrder(long key) {
        return (int) (key >>> (CHUNK_BITS + SEQ_BITS));
    }

    /**
     * Number of commands recorded since the last playback.
     *
     * @return the commands recorded, 0 or more; typed writes folded into a shape's spawn do not count
     */
    public int commandCount() {
        return count;
    }

    /**
     * True when nothing is recorded.
     *
     * @return true when {@link #commandCount()} is 0
     */
    public boolean isEmpty() {
        return count == 0;
    }

    /**
     * Records the spawn of an empty entity and returns its provisional handle.
     *
     * @return a provisional handle (generation 0), valid in this buffer's later commands until playback
     *     resolves it to the real id
     * @throws IllegalStateException naming the buffer when it already holds 16 million spawns; add a sync
     *     point
     */
    public long spawn() {
        EffectChecks.check(effects, OP_SPAWN, null);
        long handle = nextHandle();
        header(OP_SPAWN, 0, 0, 0, handle); // first: a refused recording leaves the counter as it was
        spawned++;
        return handle;
    }

    /**
     * Records a spawn from {@code template} (its named instances and values, registered in
     * the prototype index in the template's order) and returns the provisional handle; later
     * commands may add to or change the new entity. Under declared effects it needs the spawn
     * and every column of the template declared ({@code .spawns(columns...)}), as a spawn
     * through a shape does. Its columns count as recorded: a
     * template built from another world's handles makes playback refuse the buffer before
     * anything is applied.
     *
     * @param template the template to spawn from, not null
     * @return a provisional handle, valid in this buffer's later commands
     */
    public long spawn(Template template) {
        java.util.Objects.requireNonNull(template, "template");
        if (template != checkedTemplate || effects != checkedTemplateEffects) {
            EffectChecks.checkSpawn(effects, template);   // every column declared, as for a shape
            checkedTemplate = template;
            checkedTemplateEffects = effects;
        }
        RecordedColumns.recorded(this, template);
        long handle = nextHandle();
        header(OP_SPAWN_TEMPLATE, 0, 0, addRef(template), handle);
        spawned++;
        return handle;
    }

    /**
     * Records a spawn of an entity of {@code shape} (every field zero, its columns' instance
     * names registered as {@link Shape#spawn()} registers them) and returns the provisional
     * handle. Typed field writes on the handle right after ({@link #setFloat},
     * {@link #setInt}, {@link #setLong}, {@link #setDouble}, {@link #setBits}) are stored
     * in the spawn command itself, so playback creates the entity straight in the shape's
     * archetype with its values; later commands may still add to or change it. Under
     * declared effects, a spawn through a shape needs the spawn and every column of the
     * shape declared ({@code .spawns(columns...)}).
     *
     * @param shape a shape prepared by the world this buffer is applied to, not null
     * @return a provisional handle; typed writes on it that follow at once fill the spawn's values
     * @throws IllegalArgumentException if the shape has more value fields than one command holds (255)
     */
    public long spawn(Shape shape) {
        ShapeLayout layout = layout(shape);
        if (layout != checkedLayout || effects != checkedEffects) {
            EffectChecks.checkSpawn(effects, layout.columns);
            checkedLayout = layout;
            checkedEffects = effects;
        }
        long handle = nextHandle();
        if (lastLayoutRef >= refCount || refs[lastLayoutRef] != layout) {
            lastLayoutRef = addRef(layout); // once per shape and tick, while one shape spawns
        }
        int at = header(OP_SPAWN_SHAPE, layout.words, 0, lastLayoutRef, handle);
        Arrays.fill(data, at, at + layout.words, 0L);
        spawned++;
        openSpawn = handle;
        openPayload = at;
        openEnd = size;
        openWrites = 0;
        return handle;
    }

    private ShapeLayout layout(Shape shape) {
        ShapeLayout l = lastLayout;
        if (l != null && l.shape == shape) {
            return l;
        }
        java.util.Objects.requireNonNull(shape, "shape");
        if (layouts == null) {
            layouts = new IdentityHashMap<>();
        }
        l = layouts.get(shape);
        if (l == null) {
            l = new ShapeLayout(shape);
            layouts.put(shape, l);
        }
        openEnd = -1; // typed writes to an open spawn of the former layout are commands of their own now
        RecordedColumns.recorded(this, l.columns); // another world's shape: the buffer is refused before playback
        lastLayout = l;
        return l;
    }

    /** The next provisional handle, not yet counted (the caller counts it once its command is recorded). */
    private long nextHandle() {
        if (spawned >= MAX_LOCAL_SPAWNS) {
            throw new IllegalStateException("command buffer " + id + " holds " + spawned + " spawns, the most one "
                    + "buffer can hold between sync points; add a sync point or spread the spawns over systems");
        }
        return Entity.of((id << 24) | (spawned + 1), 0);
    }

    /** Keeps {@code ref} in the side array; returns its index. */
    private int addRef(Object ref) {
        if (refCount == refs.length) {
            refs = Arrays.copyOf(refs, refCount * 2);
        }
        refs[refCount] = ref;
        return refCount++;
    }

    /**
     * True when {@code entity} is a provisional handle (spawned in a buffer, not yet played back).
     *
     * @param entity any entity id
     * @return true for a handle from a buffer's {@code spawn}, false for a real id and for
     *     {@link Entity#NULL}
     */
    public static boolean isProvisional(long entity) {
        return Entity.generation(entity) == 0 && entity != Entity.NULL;
    }

    /**
     * Records a despawn of an entity (real id or provisional handle).
     *
     * @param entity a real id or a provisional handle of this buffer; one dead by playback cannot apply
     *     (see {@link World#apply(CommandBuffer)})
     */
    public void despawn(long entity) {
        RecordedColumns.refuseNull(entity, "despawn");
        EffectChecks.check(effects, OP_DESPAWN, null);
        header(OP_DESPAWN, 0, 0, 0, entity);
    }

    /**
     * Records making {@code holder} hold pair {@code (relation, target)} (for an exclusive
     * relation such as {@code ChildOf}, replacing its target: reparenting). Both may be
     * provisional handles from this tick's spawns. Playback applies it through
     * {@code world.relations()}: a pair that would close a cycle, or name the holder itself, is
     * refused; a dead holder or target skips it. A system declares it with
     * {@code .adds(relation.column())}.
     *
     * @param holder the entity that is to hold the pair (a child, for {@code ChildOf})
     * @param relation the relation, not null
     * @param target the pair's target (the parent, for {@code ChildOf})
     */
    public void addPair(long holder, Relation relation, long target) {
        Component<?> column = RecordedColumns.recorded(this, java.util.Objects.requireNonNull(relation, "relation").column(), "addPair");
        EffectChecks.check(effects, OP_ADD, column);
        int at = header(OP_ADD_PAIR, 1, column.id(), 0, holder);
        data[at] = target;
    }

    /**
     * Records removing pair {@code (relation, target)} from {@code holder}; a no-op at playback
     * when it does not hold it (counted in {@link PlaybackReport#removedMissing()}), skipped when
     * the holder or the target is dead by then (counted in {@link PlaybackReport#skippedDead()}:
     * the despawn took the pair). Declared with {@code .removes(relation.column())}.
     *
     * @param holder the entity holding the pair
     * @param relation the relation, not null
     * @param target the pair's target
     */
    public void removePair(long holder, Relation relation, long target) {
        Component<?> column = RecordedColumns.recorded(this, java.util.Objects.requireNonNull(relation, "relation").column(), "removePair");
        EffectChecks.check(effects, OP_REMOVE, column);
        int at = header(OP_REMOVE_PAIR, 1, column.id(), 0, holder);
        data[at] = target;
    }

    /**
     * Records adding {@code column} with zero values (or a tag).
     *
     * @param entity a real id or a provisional handle of this buffer
     * @param column a column of the world the buffer is applied to
     */
    public void add(long entity, Component<?> column) {
        RecordedColumns.recorded(this, column, "add").refuseIfRelationMarker("add");
        EffectChecks.check(effects, OP_ADD, column);
        header(OP_ADD, 0, column.id(), 0, entity);
    }

    /**
     * Records adding {@code column} with {@code value} (replacing the value if the entity already holds it).
     *
     * @param <T> the column's value type
     * @param entity a real id or a provisional handle of this buffer
     * @param column a column of the world the buffer is applied to
     * @param value the value, not null; a record's fields are copied now (a reference column keeps the
     *     object itself)
     * @throws NullPointerException naming the call and the fix when {@code value} is null: to
     *     add the column zeroed (or a tag) record {@link #add(long, Component)}; nothing is
     *     recorded ({@link World#add(long, Component, Object)} refuses it alike)
     */
    public <T> void add(long entity, Component<T> column, T value) {
        valueCommand(OP_ADD, entity, column, value);
    }

    /**
     * Records removing {@code column}.
     *
     * @param entity a real id or a provisional handle of this buffer
     * @param column a column of the world the buffer is applied to
     */
    public void remove(long entity, Component<?> column) {
        RecordedColumns.recorded(this, column, "remove").refuseIfRelationMarker("remove");
        EffectChecks.check(effects, OP_REMOVE, column);
        header(OP_REMOVE, 0, column.id(), 0, entity);
    }

    /**
     * Records overwriting {@code column}'s value. Jobs write columns their system declared
     * directly through the chunk view; this command is for entities spawned in the same
     * tick, and for columns a job may not write.
     *
     * @param <T> the column's value type
     * @param entity a real id or a provisional handle of this buffer
     * @param column a column the entity holds by playback
     * @param value the new value, not null; a record's fields are copied now (a reference column keeps
     *     the object itself)
     * @throws NullPointerException naming the call when {@code value} is null (a set takes the
     *     new value; nothing is recorded), as {@link World#set} refuses it
     */
    public <T> void set(long entity, Component<T> column, T value) {
        valueCommand(OP_SET, entity, column, value);
    }

    /**
     * Records overwriting one field from raw bits (see {@link FieldType#bits}); right after a
     * {@link #spawn(Shape)} of the same handle, the bits go into that spawn (see there).
     *
     * @param entity a real id or a provisional handle of this buffer
     * @param field a primitive field of a column the entity holds by playback
     * @param bits the value as raw bits; not checked against the field's range or validators
     * @throws IllegalArgumentException for a field that holds an object; record {@link #set} of the whole
     *     value instead
     */
    public void setBits(long entity, Field field, long bits) {
        if (java.util.Objects.requireNonNull(field, "field").type() == FieldType.OBJECT) {
            throw new IllegalArgumentException("field " + field + " holds an object; use set(entity, column, value)");
        }
        if (entity == openSpawn && size == openEnd) {
            // A write to the spawn just recorded through a shape: into the spawn's own payload.
            int off = lastLayout.offsetOfWrite(openWrites++, field);
            if (off >= 0) {
                assert owner.checkCaller("recording a command");
                data[openPayload + off] = bits;
                return;
            }
        }
        RecordedColumns.recorded(this, field.component(), "setBits").refuseIfRelationMarker("set");
        EffectChecks.check(effects, OP_SET_FIELD, field.component());
        int at = header(OP_SET_FIELD, 1, field.component().id(), field.index(), entity);
        data[at] = bits;
    }

    /**
     * Records overwriting one {@code float} field.
     *
     * @param entity a real id or a provisional handle of this buffer
     * @param field a {@code float} field of a column the entity holds by playback
     * @param value the new value; not checked against the field's range or validators
     * @throws IllegalArgumentException naming the fitting setter when the field is not a {@code float}
     */
    public void setFloat(long entity, Field field, float value) {
        setBits(entity, requireType(field, FieldType.FLOAT), Float.floatToRawIntBits(value));
    }

    /**
     * Records overwriting one {@code int} field.
     *
     * @param entity a real id or a provisional handle of this buffer
     * @param field a {@code int} field of a column the entity holds by playback
     * @param value the new value; not checked against the field's range or validators
     * @throws IllegalArgumentException naming the fitting setter when the field is not a {@code int}
     */
    public void setInt(long entity, Field field, int value) {
        setBits(entity, requireType(field, FieldType.INT), value);
    }

    /**
     * Records overwriting one {@code long} field.
     *
     * @param entity a real id or a provisional handle of this buffer
     * @param field a {@code long} field of a column the entity holds by playback
     * @param value the new value; not checked against the field's range or validators
     * @throws IllegalArgumentException naming the fitting setter when the field is not a {@code long}
     */
    public void setLong(long entity, Field field, long value) {
        setBits(entity, requireType(field, FieldType.LONG), value);
    }

    /**
     * Records overwriting one {@code double} field.
     *
     * @param entity a real id or a provisional handle of this buffer
     * @param field a {@code double} field of a column the entity holds by playback
     * @param value the new value; not checked against the field's range or validators
     * @throws IllegalArgumentException naming the fitting setter when the field is not a {@code double}
     */
    public void setDouble(long entity, Field field, double value) {
        setBits(entity, requireType(field, FieldType.DOUBLE), Double.doubleToRawLongBits(value));
    }

    private static Field requireType(Field field, FieldType type) {
        if (java.util.Objects.requireNonNull(field, "field").type() != type) {
            throw new IllegalArgumentException("field " + field + " is " + field.type() + ", not " + type + "; "
                    + World.fittingAccessor(field, "", new String[] {"set"}));
        }
        return field;
    }

    private void valueCommand(int op, long entity, Component<?> column, Object value) {
        RecordedColumns.recorded(this, column, op == OP_ADD ? "add" : "set");
        if (value == null) {
            throw EntityRows.nullValue(op == OP_ADD ? "commands.add" : "commands.set", column);
        }
        EntityRows.checkValueType(column, value);
        column.refuseIfRelationMarker(op == OP_ADD ? "add" : "set");
        EffectChecks.check(effects, op, column);
        ComponentKind kind = column.kind();
        if (kind == ComponentKind.REFERENCE) {
            header(op, 0, column.id(), addRef(value), entity);
        } else if (kind == ComponentKind.TAG) {
            header(op, 0, column.id(), 0, entity);
        } else {
            int at = header(op, column.type().fieldCount(), column.id(), 0, entity);
            try {
                column.type().writeBits(value, data, at);
            } catch (RuntimeException | Error t) { // a record accessor threw: the command is not kept
                size = at - HEADER_WORDS;
                count--;
                seq--;
                throw t;
            }
        }
    }

    /** Appends a header and reserves {@code payload} words; returns the payload's offset. */
    private int header(int op, int payload, int column, int aux, long entity) {
        assert owner.checkCaller("recording a command");
        if (seq >= 1 << SEQ_BITS | count >= commandLimit) { // one branch on the record path
            refuse();
        }
        int need = size + HEADER_WORDS + payload;
        if (need > data.length) {
            data = Arrays.copyOf(data, Math.max(need, data.length * 2));
            starts = Arrays.copyOf(starts, data.length / HEADER_WORDS);
        }
        long[] d = data;
        int at = size;
        starts[count] = at;
        d[at] = keyBase | seq++;
        d[at + 1] = ((long) op << 56) | ((long) payload << 48) | ((long) column << 24) | (aux & 0xFF_FFFFL);
        d[at + 2] = entity;
        size = need;
        count++;
        return at + HEADER_WORDS;
    }

    private void refuse() {
        if (count >= commandLimit) {
            limitReached = true;
            throw new CommandLimitReached(id, commandLimit);
        }
        throw new IllegalStateException("command buffer " + id + " refused a command: more than " + (1 << SEQ_BITS)
                + " commands recorded " + (keyBase == 0 ? "since it was last applied or cleared" : "by one job for one "
                + "chunk") + "; apply the buffer (world.apply) more often, or split the work into smaller jobs");
    }

    /**
     * Refuses every command past the first {@code max} stored from now until the limit is
     * set again (observer hooks' cascade budget); {@code Integer.MAX_VALUE} lifts it. The
     * refused command is not stored. Same thread rules as recording.
     */
    void limitCommands(int max) {
        commandLimit = Math.max(0, max);
    }

    /** True when a command was refused by {@link #limitCommands} since the last {@link #clear}. */
    boolean limitReached() {
        return limitReached;
    }

    /** Forgets everything recorded (playback calls it; also usable to drop a tick's commands). */
    public void clear() {
        limitReached = false;
        Arrays.fill(refs, 0, refCount, null);
        refCount = 0;
        Arrays.fill(recordedColumns, null);
        lastLayout = null; // so the next spawn through a shape notes its columns again
        size = 0;
        count = 0;
        spawned = 0;
        seq = 0;
        keyBase = 0;
        openSpawn = Entity.NULL;
        openEnd = -1;
    }
}
