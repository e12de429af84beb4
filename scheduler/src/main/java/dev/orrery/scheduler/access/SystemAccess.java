package dev.orrery.scheduler.access;

import dev.orrery.ecs.access.AccessPolicy;
import dev.orrery.ecs.access.StructuralEffects;
import dev.orrery.ecs.component.Component;
import dev.orrery.scheduler.EventKey;
import dev.orrery.scheduler.ResourceKey;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.Comparator;
import java.util.List;
import java.util.Objects;

/**
 * The declared reads and writes of one system: components (ECS columns) and resources,
 * the columns its query names, and the structural changes it may record
 * ({@link StructuralEffects}: spawns, adds, removes, deferred sets, despawns). A write
 * implies a read. Two accesses conflict when one writes a component or resource
 * that the other reads or writes; an exclusive access (a system that needs the whole
 * world) conflicts with every other access.
 *
 * <p>It is also the {@link AccessPolicy} given to the system's chunk views, so a job that
 * asks for an undeclared column, or writes one it declared read-only, fails with an
 * {@code UndeclaredAccessException} naming the system and the component. The check is an
 * array look-up by column id.
 *
 * <p>A relation's marker column ({@code relation.column()}) may be read, and its pairs
 * changed by command ({@code .adds}/{@code .removes} of it), but a declared write or deferred
 * set of it is refused when the access is built (at schedule build): only the relation store
 * writes it.
 *
 * <p>Over 500 lines (about 510), on purpose: the access and its builder are one declaration,
 * read by the graph, the executor's checks and the kit, and split they would share every field.
 *
 * <p><b>Threading:</b> immutable once built; built on one thread and then read by worker
 * threads, published to them by the executor's job hand-off.
 */
public final class SystemAccess implements AccessPolicy {
    private final String owner;
    private final boolean exclusive;
    private final boolean syncBefore;
    private final boolean noAutoSync;
    private final boolean otherEntities;
    private final List<Component<?>> reads;
    private final List<Component<?>> writes;
    private final List<ResourceKey<?>> resourceReads;
    private final List<ResourceKey<?>> resourceWrites;
    private final List<ResourceKey<?>> resourceReductions;
    /** Writes and reductions: what orders this system against others' reads and writes of a resource. */
    private final List<ResourceKey<?>> orderedWrites;
    private final boolean[] readable;
    private final boolean[] writable;
    private final StructuralEffects effects;
    private final int[] queryColumns;
    private final List<EventKey<?>> eventReads;
    private final List<EventKey<?>> eventWrites;

    private SystemAccess(Builder b) {
        this.owner = b.owner;
        this.exclusive = b.exclusive;
        this.syncBefore = b.syncBefore;
        this.noAutoSync = b.noAutoSync;
        this.otherEntities = b.otherEntities;
        if (syncBefore && noAutoSync) {
            throw new IllegalStateException("system '" + owner + "' declared both afterStructuralChanges() and "
                    + "beforeStructuralChanges(); keep the one that says what it must see");
        }
        refuseRelationMarkerWrites(owner, b.writes, "writes");
        this.effects = b.effects.build();
        refuseRelationMarkerWrites(owner, effects.setComponents(), "setsLater");
        this.queryColumns = b.queryColumns.clone();
        this.eventReads = List.copyOf(b.eventReads);
        this.eventWrites = List.copyOf(b.eventWrites);
        this.writes = sorted(b.writes);
        List<Component<?>> r = new ArrayList<>(b.reads);
        r.removeAll(b.writes);
        this.reads = sorted(r);
        this.resourceWrites = List.copyOf(b.resourceWrites);
        List<ResourceKey<?>> rr = new ArrayList<>(b.resourceReads);
        rr.removeAll(b.resourceWrites);
        List<ResourceKey<?>> red = new ArrayList<>(b.resourceReductions);
        red.removeAll(b.resourceWrites);
        this.resourceReductions = List.copyOf(red);
        List<ResourceKey<?>> ordered = new ArrayList<>(b.resourceWrites);
        ordered.addAll(red);
        this.orderedWrites = List.copyOf(ordered);
        rr.removeAll(red);
        this.resourceReads = List.copyOf(rr);
        int max = -1;
        for (Component<?> c : b.reads) {
            max = Math.max(max, c.id());
        }
        for (Component<?> c : b.writes) {
            max = Math.max(max, c.id());
        }
        this.readable = new boolean[max + 1];
        this.writable = new boolean[max + 1];
        for (Component<?> c : b.reads) {
            readable[c.id()] = true;
        }
        for (Component<?> c : b.writes) {
            readable[c.id()] = true;
            writable[c.id()] = true;
        }
    }

    /**
     * Refuses a declared write of a relation's marker column: only the relation store writes
     * it (keeping it equal to the holder's first target), so jobs change pairs by command.
     *
     * @throws IllegalArgumentException naming the system, the relation and the commands to use
     */
    private static void refuseRelationMarkerWrites(String owner, List<Component<?>> written, String declaration) {
        for (Component<?> c : written) {
            if (c.isRelationMarker()) {
                throw new IllegalArgumentException("system '" + owner + "' declares ." + declaration + "(...) of " + c
                        + ", the marker column of relation " + c.relation() + ", which only the relation store writes; "
                        + "drop it (a .reads(...) of it reads the targets) and change pairs with job.commands().addPair("
                        + "holder, " + c.relation() + ", target) / removePair(...), declared with .adds(relation.column()) "
                        + "/ .removes(relation.column())");
            }
        }
    }

    private static List<Component<?>> sorted(List<Component<?>> cs) {
        List<Component<?>> out = new ArrayList<>(cs);
        out.sort(Comparator.comparingInt(Component::id));
        return Collections.unmodifiableList(out);
    }

    /** Starts declaring the access of the system named {@code owner}. */
    public static Builder builder(String owner) {
        return new Builder(owner);
    }

    @Override
    public String owner() {
        return owner;
    }

    @Override
    public boolean canRead(Component<?> column) {
        int id = column.id();
        return exclusive || (id < readable.length && readable[id]);
    }

    @Override
    public boolean canWrite(Component<?> column) {
        int id = column.id();
        return exclusive || (id < writable.length && writable[id]);
    }

    /** True when the owner declared a read, a write or a reduction of {@code resource} (or is exclusive). */
    public boolean canReadResource(ResourceKey<?> resource) {
        return exclusive || resourceReads.contains(resource) || resourceWrites.contains(resource)
                || resourceReductions.contains(resource);
    }

    /** True when the owner declared a write of {@code resource} (or is exclusive). */
    public boolean canWriteResource(ResourceKey<?> resource) {
        return exclusive || resourceWrites.contains(resource);
    }

    /** True when the owner declared a reduction into, or a write of, {@code resource} (or is exclusive). */
    public boolean canReduceResource(ResourceKey<?> resource) {
        return exclusive || resourceReductions.contains(resource) || resourceWrites.contains(resource);
    }

    /** True when the owner declared {@code readsEvents(channel)}. */
    public boolean canReadEvents(EventKey<?> channel) {
        return eventReads.contains(channel);
    }

    /** True when the owner declared {@code writesEvents(channel)}. */
    public boolean canWriteEvents(EventKey<?> channel) {
        return eventWrites.contains(channel);
    }

    /** Event channels read, in declaration order. */
    public List<EventKey<?>> eventReads() {
        return eventReads;
    }

    /** Event channels written, in declaration order. */
    public List<EventKey<?>> eventWrites() {
        return eventWrites;
    }

    /**
     * Resources reduced into (declared {@code reducesResource}, not also written), in
     * declaration order. A reduction reads nothing back; it is ordered like a write.
     */
    public List<ResourceKey<?>> resourceReductions() {
        return resourceReductions;
    }

    /** True for a system that needs the whole world and so runs alone. */
    public boolean exclusive() {
        return exclusive;
    }

    /**
     * True for a system that must see the structural changes recorded by the systems before
     * it: a sync point is placed before it, so it is ordered after every earlier system of
     * its phase and before every later one.
     */
    public boolean syncBefore() {
        return syncBefore;
    }

    /**
     * The structural changes the system may record into its command buffer, built once;
     * empty (nothing may be recorded) unless declared. Exclusive systems change the world
     * directly and are not checked against it.
     */
    public StructuralEffects effects() {
        return effects;
    }

    /**
     * True when the system declared structural effects, so its jobs may record commands for
     * the next sync point (an exclusive system's own commands are applied as it ends: false).
     */
    public boolean mayRecordCommands() {
        return !exclusive && !effects.isEmpty();
    }

    /** Ids of the columns the system's query names (every term), ascending; empty without a query. */
    public int[] queryColumnIds() {
        return queryColumns.clone();
    }

    /**
     * True when the system could see a structural change of {@code column}: its query names
     * it, or it declared a read or write of it.
     */
    public boolean sees(Component<?> column) {
        return canRead(column) || Arrays.binarySearch(queryColumns, column.id()) >= 0;
    }

    /** True when the system has a query or declared component access, so it could see a despawn. */
    public boolean seesEntities() {
        return exclusive || queryColumns.length > 0 || !reads.isEmpty() || !writes.isEmpty();
    }

    /**
     * True for a system that asked for no automatic sync point before it: it sees the world
     * as of the last sync point even where earlier systems of its phase declared changes it
     * could see (their changes are applied at the next sync point).
     */
    public boolean noAutoSync() {
        return noAutoSync;
    }

    /**
     * True for a system that declared it reads or writes, by id, entities outside the chunk
     * its job runs on: the parallel executor never fuses it into a chunk pipeline.
     */
    public boolean touchesOtherEntities() {
        return otherEntities;
    }

    /** Components read and not written, in column-id order. */
    public List<Component<?>> reads() {
        return reads;
    }

    /** Components written (and so also read), in column-id order. */
    public List<Component<?>> writes() {
        return writes;
    }

    /** Resources read and not written, in declaration order. */
    public List<ResourceKey<?>> resourceReads() {
        return resourceReads;
    }

    /** Resources written (and so also read), in declaration order. */
    public List<ResourceKey<?>> resourceWrites() {
        return resourceWrites;
    }

    /**
     * What makes this access and {@code other} unable to run at the same time, or
     * {@code null} when they can: {@code "exclusive"}, or the name of the first component (by
     * column id) or resource that one writes and the other reads or writes, or
     * {@code "events <channel>"} for an event channel one writes and the other reads (two
     * writers of a channel do not conflict: their events are merged by a fixed key).
     */
    public String conflictWith(SystemAccess other) {
        if (syncBefore || other.syncBefore) {
            return exclusive || other.exclusive ? "exclusive" : "sync";
        }
        return dataConflictWith(other);
    }

    /**
     * Like {@link #conflictWith} but ignoring {@link #syncBefore()}: what the two systems'
     * data accesses alone forbid ({@code "exclusive"}, a component or a resource), or
     * {@code null}. The graph adds the sync-point edges itself.
     */
    public String dataConflictWith(SystemAccess other) {
        if (exclusive || other.exclusive) {
            return "exclusive";
        }
        Component<?> best = null;
        best = firstShared(writes, other.writes, best);
        best = firstShared(writes, other.reads, best);
        best = firstShared(reads, other.writes, best);
        if (best != null) {
            return best.toString();
        }
        for (ResourceKey<?> r : orderedWrites) {
            if (other.orderedWrites.contains(r) || other.resourceReads.contains(r)) {
                return r.name();
            }
        }
        for (ResourceKey<?> r : resourceReads) {
            if (other.orderedWrites.contains(r)) {
                return r.name();
            }
        }
        for (EventKey<?> e : eventWrites) {
            if (other.eventReads.contains(e)) {
                return "events " + e.name();
            }
        }
        for (EventKey<?> e : eventReads) {
            if (other.eventWrites.contains(e)) {
                return "events " + e.name();
            }
        }
        return null;
    }

    private static Component<?> firstShared(List<Component<?>> a, List<Component<?>> b, Component<?> best) {
        for (Component<?> c : a) {
            if (best != null && c.id() >= best.id()) {
                return best;
            }
            if (b.contains(c)) {
                return c;
            }
        }
        return best;
    }

    /** {@code "reads [Velocity] writes [Position] resources r[Time] w[]"}, or {@code "exclusive"}. */
    @Override
    public String toString() {
        if (exclusive) {
            return "exclusive";
        }
        StringBuilder sb = new StringBuilder();
        sb.append("reads ").append(reads).append(" writes ").append(writes);
        if (!resourceReads.isEmpty() || !resourceWrites.isEmpty()) {
            sb.append(" resources r").append(resourceReads).append(" w").append(resourceWrites);
        }
        if (!resourceReductions.isEmpty()) {
            sb.append(" reduces ").append(resourceReductions);
        }
        if (!effects.isEmpty()) {
            sb.append(" records ").append(effects);
        }
        if (!eventReads.isEmpty() || !eventWrites.isEmpty()) {
            sb.append(" events r").append(eventReads).append(" w").append(eventWrites);
        }
        return sb.toString();
    }

    /**
     * Declares an access; see {@link SystemAccess#builder}.
     *
     * <p><b>Threading:</b> not thread-safe; use on one thread.
     */
    public static final class Builder {
        private final String owner;
        private boolean exclusive;
        private boolean syncBefore;
        private boolean noAutoSync;
        private boolean otherEntities;
        private final List<Component<?>> reads = new ArrayList<>();
        private final List<Component<?>> writes = new ArrayList<>();
        private final List<ResourceKey<?>> resourceReads = new ArrayList<>();
        private final List<ResourceKey<?>> resourceWrites = new ArrayList<>();
        private final List<ResourceKey<?>> resourceReductions = new ArrayList<>();
        private final StructuralEffects.Builder effects;
        private int[] queryColumns = new int[0];
        private final List<EventKey<?>> eventReads = new ArrayList<>();
        private final List<EventKey<?>> eventWrites = new ArrayList<>();

        private Builder(String owner) {
            this.owner = Objects.requireNonNull(owner, "system name");
            this.effects = StructuralEffects.builder(owner);
        }

        /** Records the ids of the columns the system's query names (see {@code Query.termColumnIds()}). */
        public Builder queryColumns(int... ids) {
            this.queryColumns = Arrays.stream(ids).sorted().distinct().toArray();
            return this;
        }

        /**
         * The system's structural effects being declared (spawns, adds, removes, deferred
         * sets, despawns; see {@link StructuralEffects}), built with the access.
         */
        public StructuralEffects.Builder effects() {
            return effects;
        }

        /** Declares reads of these components. */
        public Builder reads(Component<?>... components) {
            for (Component<?> c : Objects.requireNonNull(components, () -> "system '" + owner + "' declares .reads(...) of "
                    + "a null array; give component handles")) {
                addOnce(reads, Objects.requireNonNull(c, () -> "system '" + owner + "' declares .reads(...) of a null "
                        + "component; give component handles from world.component(...)"));
            }
            return this;
        }

        /** Declares writes (and so reads) of these components. */
        public Builder writes(Component<?>... components) {
            for (Component<?> c : Objects.requireNonNull(components, () -> "system '" + owner + "' declares .writes(...) of "
                    + "a null array; give component handles")) {
                addOnce(writes, Objects.requireNonNull(c, () -> "system '" + owner + "' declares .writes(...) of a null "
                        + "component; give component handles from world.component(...)"));
            }
            return this;
        }

        /** Declares reads of these resources. */
        public Builder readsResource(ResourceKey<?>... resources) {
            for (ResourceKey<?> r : resources) {
                addOnce(resourceReads, Objects.requireNonNull(r, "resource"));
            }
            return this;
        }

        /** Declares writes (and so reads) of these resources. */
        public Builder writesResource(ResourceKey<?>... resources) {
            for (ResourceKey<?> r : resources) {
                addOnce(resourceWrites, Objects.requireNonNull(r, "resource"));
            }
            return this;
        }

        /**
         * Declares reductions into these resources (e.g. a {@code LongSum} the system's jobs
         * add to): ordered like a write against every other access of the key.
         */
        public Builder reducesResource(ResourceKey<?>... resources) {
            for (ResourceKey<?> r : resources) {
                addOnce(resourceReductions, Objects.requireNonNull(r, "resource"));
            }
            return this;
        }

        /** Declares reads of these event channels: the system's jobs may call {@code job.events(key)}. */
        public Builder readsEvents(EventKey<?>... channels) {
            for (EventKey<?> e : channels) {
                addOnce(eventReads, Objects.requireNonNull(e, "event channel"));
            }
            return this;
        }

        /** Declares writes of these event channels: the system's jobs may call {@code job.send(key, event)}. */
        public Builder writesEvents(EventKey<?>... channels) {
            for (EventKey<?> e : channels) {
                addOnce(eventWrites, Objects.requireNonNull(e, "event channel"));
            }
            return this;
        }

        /** Marks the access exclusive: the system needs the whole world and runs alone. */
        public Builder exclusive() {
            this.exclusive = true;
            return this;
        }

        /** Asks for a sync point before the system; see {@link SystemAccess#syncBefore()}. */
        public Builder syncBefore() {
            this.syncBefore = true;
            return this;
        }

        /** Declares by-id access to entities of other chunks; see {@link SystemAccess#touchesOtherEntities()}. */
        public Builder touchesOtherEntities() {
            this.otherEntities = true;
            return this;
        }

        /** Asks for no automatic sync point before the system; see {@link SystemAccess#noAutoSync()}. */
        public Builder noAutoSync() {
            this.noAutoSync = true;
            return this;
        }

        private static <E> void addOnce(List<E> list, E e) {
            if (!list.contains(e)) {
                list.add(e);
            }
        }

        /** The immutable access. */
        public SystemAccess build() {
            return new SystemAccess(this);
        }
    }
}
