package dev.orrery.ecs;

import dev.orrery.ecs.archetype.Archetype;
import dev.orrery.ecs.archetype.ChangeClock;
import dev.orrery.ecs.archetype.StructureLock;
import dev.orrery.ecs.component.Component;
import dev.orrery.ecs.component.ComponentRegistry;
import dev.orrery.ecs.component.Entity;
import dev.orrery.ecs.structure.RowEvents;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicReference;

/**
 * A world's change state beside the chunk versions: the change clock, each scheduled
 * system's last-run tick (by system name), the removal logs of the components a reader asked
 * for, and the observer hooks with their queue of pending events. {@code world.changes()}.
 *
 * <p><b>Ticks.</b> Structural changes and direct writes stamp the chunk columns they touch
 * with the clock's current tick; a reader (a filtered query's direct iteration, a scheduled
 * system run) takes the current tick as its own, advances the clock, and later sees what
 * was stamped after its previous tick. The scheduler gives every system run a tick in
 * dispatch order on the owner thread; a system that could see another's writes is ordered
 * against it by the graph, so what each filter passes is the same on any number of workers.
 *
 * <p><b>Removals</b> are logged only for components named to {@link #trackRemoved}, and kept
 * for {@value #RETAINED_RUNS} schedule runs (the executor calls {@link #retire} as each run
 * starts; a loop without a schedule calls it through {@code World.retireRemovals}). Each log
 * remembers the tick of the newest entry it retired, so a window that reaches further back
 * says it {@linkplain RemovedEntities#missed missed} entries.
 *
 * <p><b>Observers</b>: see {@link ComponentObservers}. Events are queued while a playback
 * runs (or a direct call is under way) and fired when it ends, round after round: the hooks
 * of a round record commands into one buffer that is then applied, whose events form the
 * next round. A cascade is bounded by its work: the hooks may record at most
 * {@link #cascadeLimit()} commands in all (spawns included, rounds together; default
 * {@value #DEFAULT_CASCADE_COMMANDS}), and the command past it is refused at once, before it
 * is stored, with an {@link ObserverCascadeException} naming the chain; a loop that records
 * little per round is refused after {@value #MAX_CASCADE_ROUNDS} rounds.
 *
 * <p>Sparse components ({@code Storage.SPARSE}) keep no versions, logs or observers here:
 * {@link #trackRemoved} and {@link #observe} refuse them.
 *
 * <p><b>Threading:</b> everything runs on the world's owning thread; jobs read removal logs
 * through {@link RemovedEntities} windows while nothing appends. The one exception is
 * {@link #firingHook()}, which any thread may read (a tick watchdog): the owning thread
 * publishes the label of the hooks it runs with a release store, the reader reads it with an
 * acquire load, and a label is a string built when its hook was registered.
 *
 * <p>(Over 500 lines on purpose: the removal logs, the observer event queue and the cascade
 * that drains it share one per-column index and the structural events of {@link RowEvents};
 * a third of the file is documentation, and splitting the queue from its cascade would
 * expose the queue's parallel arrays to a second class.)
 */
final class ChangeTracker implements RowEvents {
    /** Schedule runs a removal stays in its log. */
    public static final int RETAINED_RUNS = 2;
    /**
     * The default of {@link #cascadeLimit()}: the commands observer hooks may record in one
     * cascade, rounds together, before {@link ObserverCascadeException}. A million commands
     * is about 24 MB of buffer and a million entities at most, far from running out of memory
     * on a default heap, and far above what hooks that react to a tick's changes record.
     */
    public static final int DEFAULT_CASCADE_COMMANDS = 1_000_000;
    /**
     * Rounds one cascade may run, whatever its commands: far deeper than any hierarchy or
     * chain of reactions, so a cascade this deep is a loop (an add that a hook removes, which
     * a hook adds back); it is refused in milliseconds instead of running a million rounds.
     */
    public static final int MAX_CASCADE_ROUNDS = 10_000;
    /** The first rounds of a refused cascade its message names (then the last one). */
    private static final int CHAIN_SHOWN = 8;
    private static final int KINDS = 4;
    private static final HookKind[] KIND = HookKind.values();
    private static final Hook[] NO_HOOKS = new Hook[0];
    private static final byte REMOVE = (byte) HookKind.REMOVE.ordinal();

    private final ChangeClock clock;
    private final ComponentRegistry registry;
    private final StructureLock structure;
    // Per column id: its removal log (null: not tracked), its hooks per kind.
    private RemovedLog[] logs = new RemovedLog[0];
    private Hook[][] hooks = new Hook[0][];
    // Per column id: the hooks that get the value leaving an entity (null: none).
    private ValueHook<?>[][] valueHooks = new ValueHook<?>[0][];
    // What the watchdog names while the hooks run (see firingHook): per column id and kind, then per column id
    // for value hooks; built at registration, so firing them allocates nothing.
    private String[] hookLabels = new String[0];
    private String[] valueHookLabels = new String[0];
    private final AtomicReference<String> firingHook = new AtomicReference<>();
    // True once anything (a log or a hook) wants structural events: the capture calls return at once otherwise.
    private boolean active;
    private final long[] runStarts = new long[RETAINED_RUNS];
    /** Schedule runs retired so far: a long, as a loop calling World.retireRemovals may pass 2^31 of them. */
    private long runs;
    // System last-run ticks, by name.
    private final Map<String, Integer> systemSlots = new HashMap<>();
    private final List<String> systemNames = new ArrayList<>();
    private long[] lastRuns = new long[8];
    // Pending observer events: entity, column id, kind.
    private long[] evEntity = new long[64];
    private int[] evColumn = new int[64];
    private byte[] evKind = new byte[64];
    // The value a REMOVE event's column held, read before its row went: only for columns with value hooks.
    private Object[] evValue = new Object[64];
    private int events;
    private int depth;
    private boolean firing;
    private final CommandBuffer hookCommands = new CommandBuffer(255);
    private CommandPlayback hookPlayback;
    private final int[] roundStarts = new int[CHAIN_SHOWN];
    private int cascadeLimit = DEFAULT_CASCADE_COMMANDS;

    /** The tracker of one world's storage parts (made by the world). */
    public ChangeTracker(ChangeClock clock, ComponentRegistry registry, StructureLock structure) {
        this.clock = clock;
        this.registry = registry;
        this.structure = structure;
    }

    /** The world's change clock. */
    public ChangeClock clock() {
        return clock;
    }

    // ------------------------------------------------------------------ system ticks

    /** The slot of the system named {@code name}, registered on first use (executors, at construction). */
    public int systemSlot(String name) {
        Integer slot = systemSlots.get(name);
        if (slot != null) {
            return slot;
        }
        int s = systemNames.size();
        systemNames.add(name);
        systemSlots.put(name, s);
        if (s == lastRuns.length) {
            lastRuns = Arrays.copyOf(lastRuns, s * 2);
        }
        return s;
    }

    /** The tick of the last run of the system in {@code slot}; 0 before its first. */
    public long lastRun(int slot) {
        return lastRuns[slot];
    }

    /** Records that the system in {@code slot} ran at {@code tick}. */
    public void lastRun(int slot, long tick) {
        lastRuns[slot] = tick;
    }

    // ------------------------------------------------------------------ removals

    /**
     * Starts logging the removals of {@code column} (set-up, on the owning thread); a second
     * call changes nothing.
     *
     * @throws IllegalArgumentException for a sparse column or one of another world
     */
    public void trackRemoved(Component<?> column) {
        requireTable(column, "trackRemoved");
        int id = column.id();
        grow(id);
        if (logs[id] == null) {
            logs[id] = new RemovedLog(column);
        }
        active = true;
    }

    /** True when the removals of {@code column} are logged. */
    public boolean tracksRemoved(Component<?> column) {
        return column.id() < logs.length && logs[column.id()] != null;
    }

    /**
     * A new window onto the removal log of {@code column} (cold: keep it and position it with
     * {@link RemovedEntities#since} each time).
     *
     * @throws IllegalStateException if the column's removals are not tracked
     */
    public RemovedEntities removed(Component<?> column) {
        if (!tracksRemoved(column)) {
            throw new IllegalStateException("the removals of " + column + " are not logged; call world.trackRemoved("
                    + column + ") during set-up, before the removals you want to read");
        }
        return new RemovedEntities(logs[column.id()]);
    }

    /**
     * Marks the start of a schedule run: removals older than the start of the run
     * {@value #RETAINED_RUNS} runs back are dropped. The executors call it. Entries are
     * stamped with the change clock, which systems and sync points move; when nothing moved it
     * since the last run started (a schedule with no system, or none that ran), this moves it
     * one tick, so that the removals made meanwhile age out like any others instead of
     * staying for good. A world no schedule drives gets here from {@code World.retireRemovals},
     * once per iteration of its owner's loop; without it, its logs keep every entry.
     */
    public void retire() {
        if (runs > 0 && clock.now() == runStarts[(int) ((runs - 1) % RETAINED_RUNS)]) {
            clock.advance();
        }
        long cutoff = runs >= RETAINED_RUNS ? runStarts[(int) (runs % RETAINED_RUNS)] : 0;
        if (cutoff > 0) {
            for (RemovedLog log : logs) {
                if (log != null) {
                    log.retire(cutoff);
                }
            }
        }
        runStarts[(int) (runs % RETAINED_RUNS)] = clock.now();
        runs++;
    }

    // ------------------------------------------------------------------ observers

    /**
     * The observers of {@code column}: register hooks on what it returns.
     *
     * @throws IllegalArgumentException for a sparse column or one of another world
     */
    public <T> ComponentObservers<T> observe(Component<T> column) {
        requireTable(column, "observe");
        return new ComponentObservers<>(this, column);
    }

    /** True when a hook observes {@code column}. */
    public boolean isObserved(Component<?> column) {
        int id = column.id();
        for (int k = 0; id < logs.length && k < KINDS; k++) {
            if (hooks[id * KINDS + k] != null) {
                return true;
            }
        }
        return id < logs.length && valueHooks[id] != null;
    }

    void register(Component<?> column, HookKind kind, Hook hook) {
        java.util.Objects.requireNonNull(hook, "hook");
        int id = column.id();
        grow(id);
        int k = id * KINDS + kind.ordinal();
        Hook[] list = hooks[k] == null ? NO_HOOKS : hooks[k];
        list = Arrays.copyOf(list, list.length + 1);
        list[list.length - 1] = hook;
        hooks[k] = list;
        hookLabels[k] = "the " + kind.method() + " observer hook on " + column;
        active = true;
    }

    void registerValueHook(Component<?> column, ValueHook<?> hook) {
        java.util.Objects.requireNonNull(hook, "hook");
        int id = column.id();
        grow(id);
        ValueHook<?>[] list = valueHooks[id] == null ? new ValueHook<?>[0] : valueHooks[id];
        list = Arrays.copyOf(list, list.length + 1);
        list[list.length - 1] = hook;
        valueHooks[id] = list;
        valueHookLabels[id] = "the onRemove observer hook (with the value) on " + column;
        active = true;
    }

    /** True when a hook wants the values {@code column} takes away (block moves then go entity by entity). */
    boolean hasValueHooks(Component<?> column) {
        return column.id() < logs.length && valueHooks[column.id()] != null;
    }

    private void requireTable(Component<?> column, String what) {
        if (!registry.owns(column)) {
            throw new IllegalArgumentException(column + " was registered by another world; " + what
                    + " this world's component");
        }
        if (column.isSparse()) {
            throw new IllegalArgumentException(what + "(" + column + "): sparse components keep no change state; "
                    + "register it with Storage.TABLE to observe it or log its removals");
        }
    }

    private void grow(int id) {
        if (id >= logs.length) {
            int n = Math.max(id + 1, logs.length * 2);
            logs = Arrays.copyOf(logs, n);
            hooks = Arrays.copyOf(hooks, n * KINDS);
            valueHooks = Arrays.copyOf(valueHooks, n);
            hookLabels = Arrays.copyOf(hookLabels, n * KINDS);
            valueHookLabels = Arrays.copyOf(valueHookLabels, n);
        }
    }

    // ------------------------------------------------------------------ capture (storage calls these)

    /** {@code entity} was spawned into {@code a} (every column added). */
    @Override
    public void spawned(long entity, Archetype a) {
        if (!active) {
            return;
        }
        for (int s = 0, n = a.columnCount(); s < n; s++) {
            queue(entity, a.columnId(s), HookKind.ADD);
        }
    }

    /** {@code entity} is leaving {@code from} for {@code to}: the columns {@code to} lacks are removed. */
    @Override
    public void leaving(long entity, Archetype from, int chunk, int row, Archetype to) {
        if (!active) {
            return;
        }
        for (int s = 0, n = from.columnCount(); s < n; s++) {
            int id = from.columnId(s);
            if (!to.has(id)) {
                removedColumn(entity, id);
                queueRemove(entity, from, s, chunk, row);
            }
        }
    }

    /** {@code entity} moved from {@code from} to {@code to}: columns new to it were added. */
    @Override
    public void moved(long entity, Archetype from, Archetype to) {
        if (!active) {
            return;
        }
        for (int s = 0, n = to.columnCount(); s < n; s++) {
            if (!from.has(to.columnId(s))) {
                queue(entity, to.columnId(s), HookKind.ADD);
            }
        }
    }

    /** {@code entity}, still at ({@code chunk}, {@code row}) of {@code a}, is being despawned. */
    @Override
    public void despawned(long entity, Archetype a, int chunk, int row) {
        if (!active) {
            return;
        }
        for (int s = 0, n = a.columnCount(); s < n; s++) {
            removedColumn(entity, a.columnId(s));
            queueRemove(entity, a, s, chunk, row);
        }
        for (int s = 0, n = a.columnCount(); s < n; s++) {
            queue(entity, a.columnId(s), HookKind.DESPAWN);
        }
    }

    /** Queues the removal of slot {@code s} of {@code a}, with its value when a value hook wants it. */
    private void queueRemove(long entity, Archetype a, int s, int chunk, int row) {
        int id = a.columnId(s);
        if (id < logs.length && valueHooks[id] != null) {
            if (chunk < 0) {
                throw new IllegalStateException("a block move took " + registry.column(id) + " away after the fact, but "
                        + "a value hook observes it; the world moves such entities one by one (report this)");
            }
            queueEvent(entity, id, HookKind.REMOVE, a.component(s).type().read(a.chunk(chunk).columnArrays(s), row));
        } else {
            queue(entity, id, HookKind.REMOVE);
        }
    }

    /** A value of {@code column} on {@code entity} was set. */
    @Override
    public void set(long entity, Component<?> column) {
        if (active) {
            queue(entity, column.id(), HookKind.SET);
        }
    }

    private void removedColumn(long entity, int id) {
        if (id < logs.length && logs[id] != null) {
            logs[id].append(entity, clock.now());
        }
    }

    private void queue(long entity, int id, HookKind kind) {
        if (id >= logs.length || hooks[id * KINDS + kind.ordinal()] == null) {
            return;
        }
        queueEvent(entity, id, kind, null);
    }

    private void queueEvent(long entity, int id, HookKind kind, Object value) {
        if (events == evEntity.length) {
            evEntity = Arrays.copyOf(evEntity, events * 2);
            evColumn = Arrays.copyOf(evColumn, events * 2);
            evKind = Arrays.copyOf(evKind, events * 2);
            evValue = Arrays.copyOf(evValue, events * 2);
        }
        evEntity[events] = entity;
        evColumn[events] = id;
        evValue[events] = value;
        evKind[events++] = (byte) kind.ordinal();
    }

    // ------------------------------------------------------------------ firing

    /** A command playback starts: events are queued until the matching {@link #endBatch}. */
    public void beginBatch() {
        depth++;
    }

    /** The playback begun last ended normally: at the outermost level the queued hooks fire now. */
    public void endBatch(World world) {
        depth--;
        afterDirect(world);
    }

    /** The playback begun last failed: its queued events are dropped at the outermost level. */
    public void abortBatch() {
        if (--depth == 0 && !firing) {
            Arrays.fill(evValue, 0, events, null);
            events = 0;
        }
    }

    /** A direct call on the world returned: fires the hooks it queued, unless a playback or a firing is under way. */
    public void afterDirect(World world) {
        if (events > 0 && depth == 0 && !firing) {
            fire(world);
        }
    }

    /**
     * What runs the observer hooks now, such as {@code "the onAdd observer hook on Hp"}, or
     * {@code null} while none runs: for a watchdog that names what a stuck tick is doing. Any
     * thread may call it (see the class's threading note); the answer may already be stale.
     */
    public String firingHook() {
        return firingHook.get();
    }

    /**
     * The most commands observer hooks may record in one cascade (the hooks fired by one
     * playback or one direct call, and every round their commands fire), rounds together;
     * default {@value #DEFAULT_CASCADE_COMMANDS}.
     */
    public int cascadeLimit() {
        return cascadeLimit;
    }

    /** Sets {@link #cascadeLimit()} (set-up, on the owning thread, not while hooks fire). */
    public void cascadeLimit(int commands) {
        if (commands < 1) {
            throw new IllegalArgumentException("the observer cascade limit must be at least 1 command, got " + commands);
        }
        if (firing) {
            throw new IllegalStateException("the observer cascade limit cannot change while hooks fire; set it during "
                    + "set-up");
        }
        cascadeLimit = commands;
    }

    private void fire(World world) {
        firing = true;
        int rounds = 0;
        long recorded = 0; // commands the hooks recorded, rounds together
        long spawns = 0;
        int i = 0;
        try {
            int start = 0;
            while (start < events) {
                if (rounds == MAX_CASCADE_ROUNDS) {
                    throw new ObserverCascadeException(chain("observer hooks cascaded through more than "
                            + MAX_CASCADE_ROUNDS + " rounds", rounds + 1, start, -1, recorded, spawns));
                }
                if (rounds < CHAIN_SHOWN) {
                    roundStarts[rounds] = start;
                }
                rounds++;
                int end = events;
                hookCommands.limitCommands((int) (cascadeLimit - recorded));
                structure.lock("an observer hook", "a hook runs with the structure locked, so record it in the command "
                        + "buffer the hook is handed (its third argument: commands.add(entity, column, value), "
                        + "commands.despawn(entity)), which the world applies after the round of hooks");
                try {
                    for (i = start; i < end; i++) {
                        int k = evColumn[i] * KINDS + evKind[i];
                        Hook[] list = hooks[k];
                        if (list != null) {
                            firingHook.lazySet(hookLabels[k]); // a release store: no fence, no allocation
                            for (Hook h : list) {
                                h.run(world, evEntity[i], hookCommands);
                            }
                        }
                        if (evKind[i] == REMOVE) {
                            runValueHooks(world, i);
                        }
                        if (hookCommands.limitReached()) { // a hook caught the refusal and went on
                            throw new CommandLimitReached(hookCommands.id(), (int) (cascadeLimit - recorded));
                        }
                    }
                } catch (CommandLimitReached over) {
                    throw new ObserverCascadeException(chain("observer hooks tried to record more than " + cascadeLimit
                            + " commands in one cascade", rounds, start, i, recorded + hookCommands.commandCount(),
                            spawns + hookCommands.spawned));
                } finally {
                    firingHook.lazySet(null);
                    structure.unlock();
                }
                start = end;
                int n = hookCommands.commandCount();
                if (n > 0) {
                    recorded += n;
                    spawns += hookCommands.spawned;
                    if (hookPlayback == null) {
                        hookPlayback = new CommandPlayback();
                    }
                    hookPlayback.apply(world, hookCommands);
                }
            }
        } finally {
            hookCommands.clear();
            hookCommands.limitCommands(Integer.MAX_VALUE);
            Arrays.fill(evValue, 0, events, null); // the values are the hooks' now, not the queue's
            events = 0;
            firing = false;
        }
    }

    @SuppressWarnings({"unchecked", "rawtypes"})
    private void runValueHooks(World world, int i) {
        ValueHook[] list = valueHooks[evColumn[i]];
        if (list != null) {
            firingHook.lazySet(valueHookLabels[evColumn[i]]);
            for (ValueHook h : list) {
                h.run(world, evEntity[i], evValue[i], hookCommands);
            }
        }
    }

    /**
     * The message of a cascade refused ({@code why}) in round {@code rounds} (1-based; it
     * began with event {@code lastStart}), while the hooks of event {@code at} ran ({@code -1}:
     * before they ran), after {@code recorded} commands ({@code spawns} spawns) in all: the
     * first event of each round, the first {@value #CHAIN_SHOWN} and the last.
     */
    private String chain(String why, int rounds, int lastStart, int at, long recorded, long spawns) {
        StringBuilder sb = new StringBuilder(why + " (" + recorded + " commands recorded in " + rounds + " round"
                + (rounds == 1 ? "" : "s") + ", " + spawns + " of them spawns; each round's hooks record commands whose "
                + "changes fire the next round's hooks). The chain, by the first event of each round: ");
        int shown = Math.min(rounds - 1, CHAIN_SHOWN);
        for (int r = 0; r < shown; r++) {
            sb.append(describe(roundStarts[r])).append(" -> ");
        }
        if (rounds - 1 > shown) {
            sb.append("... (").append(rounds - 1 - shown).append(" more rounds) -> ");
        }
        sb.append(describe(lastStart)).append(at >= 0 ? ", refused in the hooks of " + describe(at) : ", refused")
                .append(". The changes of the rounds before stay and the world is consistent; the commands the hooks "
                        + "recorded in the refused round were dropped. Make a hook stop recording once its change is in "
                        + "place (test the entity's state first) or record fewer commands per event; a cascade that "
                        + "really records more commands raises the limit with world.observerCascadeLimit(n)");
        return sb.toString();
    }

    private String describe(int i) {
        return KIND[evKind[i]].method() + "(" + registry.column(evColumn[i]) + ") of " + Entity.toString(evEntity[i]);
    }

    // ------------------------------------------------------------------ snapshot support

    /** The system names with a last-run tick, in slot order (snapshot support). */
    public List<String> systemNames() {
        return List.copyOf(systemNames);
    }

    /** The column ids whose removals are logged, ascending (snapshot support). */
    public int[] trackedRemovedIds() {
        int n = 0;
        int[] ids = new int[logs.length];
        for (int i = 0; i < logs.length; i++) {
            if (logs[i] != null) {
                ids[n++] = i;
            }
        }
        return Arrays.copyOf(ids, n);
    }

    /** The live entries of column {@code id}'s removal log: entities then ticks, each {@code count} long (snapshot support). */
    public long[][] removedEntries(int id) {
        RemovedLog log = logs[id];
        return new long[][] {Arrays.copyOfRange(log.entities, log.start, log.end),
                Arrays.copyOfRange(log.ticks, log.start, log.end)};
    }

    /** The tick of the newest entry column {@code id}'s log retired, 0 if none (snapshot support). */
    public long retiredThrough(int id) {
        return logs[id].retiredThrough;
    }

    /** Restores {@link #retiredThrough} of column {@code id}'s log, tracked by now (snapshot support). */
    public void restoreRetiredThrough(int id, long tick) {
        logs[id].retiredThrough = tick;
    }

    /** Appends restored entries to column {@code id}'s log, tracking it first if need be (snapshot support). */
    public void restoreRemoved(int id, long[] entities, long[] ticks) {
        trackRemoved(registry.column(id));
        for (int i = 0; i < entities.length; i++) {
            logs[id].append(entities[i], ticks[i]);
        }
    }

    /** The retire state: run count, then the run starts (snapshot support). */
    public long[] retireState() {
        long[] out = new long[RETAINED_RUNS + 1];
        out[0] = runs;
        System.arraycopy(runStarts, 0, out, 1, RETAINED_RUNS);
        return out;
    }

    /** Restores {@link #retireState} (snapshot support). */
    public void restoreRetireState(long[] state) {
        runs = state[0];
        System.arraycopy(state, 1, runStarts, 0, RETAINED_RUNS);
    }
}
