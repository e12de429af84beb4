package dev.orrery.ecs.access;

import dev.orrery.ecs.component.Component;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Objects;

/**
 * The structural changes a recorder (a system) declared it may record into a
 * command buffer: spawns with which components, adds and removes of which components,
 * despawns. The scheduler builds one per system from its declaration, orders systems by it
 * (a later system that could see these changes gets a sync point before it), and binds it to
 * the worker's buffer while the system's job runs; the buffer then refuses an undeclared
 * command, naming the system and the component.
 *
 * <p>What each command needs: {@code spawn()} needs {@link #spawns} to be declared (with any
 * components); a spawn through a shape or from a template needs {@link #spawns} with every
 * column of the shape or template (or those columns among {@link #addComponents}); {@code despawn}
 * needs {@link #despawns}; {@code add} and {@code set} of a component need it among
 * {@link #spawnComponents} (the usual way to give a spawned entity its values),
 * {@link #addComponents} or {@link #setComponents}; {@code remove} needs it among
 * {@link #removeComponents}.
 *
 * <p><b>Threading:</b> immutable once built; safe to share between threads.
 */
public final class StructuralEffects {
    /** The effects of a recorder that may record anything (code outside a schedule). */
    public static final StructuralEffects ANY = new StructuralEffects("(unchecked)", true, true, null, null, null,
            null);

    private final String owner;
    private final boolean spawns;
    private final boolean despawns;
    private final long[] spawnBits;
    private final long[] addBits;
    private final long[] removeBits;
    private final long[] setBits;
    private final List<Component<?>> spawnList;
    private final List<Component<?>> addList;
    private final List<Component<?>> removeList;
    private final List<Component<?>> setList;

    private StructuralEffects(String owner, boolean spawns, boolean despawns, List<Component<?>> spawn,
            List<Component<?>> add, List<Component<?>> remove, List<Component<?>> set) {
        this.owner = owner;
        this.spawns = spawns;
        this.despawns = despawns;
        this.spawnList = freeze(spawn);
        this.addList = freeze(add);
        this.removeList = freeze(remove);
        this.setList = freeze(set);
        this.spawnBits = bits(spawn);
        this.addBits = bits(add);
        this.removeBits = bits(remove);
        this.setBits = bits(set);
    }

    /** Starts the declaration of {@code owner} (the system's name, used in error messages). */
    public static Builder builder(String owner) {
        return new Builder(owner);
    }

    /** The name errors give for the recorder. */
    public String owner() {
        return owner;
    }

    /** True when spawns (plain or from a template) are declared. */
    public boolean spawns() {
        return spawns;
    }

    /** True when despawns are declared. */
    public boolean despawns() {
        return despawns;
    }

    /** True when nothing at all may be recorded. */
    public boolean isEmpty() {
        return !spawns && !despawns && addList.isEmpty() && removeList.isEmpty() && setList.isEmpty()
                && this != ANY;
    }

    /** True for {@link #ANY}, which checks nothing. */
    public boolean isUnchecked() {
        return this == ANY;
    }

    /** The components spawned entities may be given. */
    public List<Component<?>> spawnComponents() {
        return spawnList;
    }

    /** The components that may be added to existing entities. */
    public List<Component<?>> addComponents() {
        return addList;
    }

    /** The components that may be removed. */
    public List<Component<?>> removeComponents() {
        return removeList;
    }

    /** The components whose values may be set later by command (not structural, but seen only after the sync point). */
    public List<Component<?>> setComponents() {
        return setList;
    }

    /**
     * Every component whose presence or value a later system could see change once these
     * commands are applied: the spawned, added, removed and set ones. Despawns are not
     * included (a despawn may touch any component); see {@link #despawns()}.
     */
    public List<Component<?>> touchedComponents() {
        List<Component<?>> all = new ArrayList<>(spawnList);
        for (List<Component<?>> l : List.of(addList, removeList, setList)) {
            for (Component<?> c : l) {
                if (!all.contains(c)) {
                    all.add(c);
                }
            }
        }
        return Collections.unmodifiableList(all);
    }

    /** True when a spawned entity may be given {@code column} (declared among the spawned or added components). */
    public boolean mayGive(Component<?> column) {
        return this == ANY || has(spawnBits, column) || has(addBits, column);
    }

    /** True when {@code column} may be added to an entity: {@link #mayGive}, as a spawn's values are added too. */
    public boolean mayAdd(Component<?> column) {
        return mayGive(column);
    }

    /** True when {@code column} may be removed. */
    public boolean mayRemove(Component<?> column) {
        return this == ANY || has(removeBits, column);
    }

    /** True when {@code column}'s value may be set by command: declared set later, added or spawned. */
    public boolean maySet(Component<?> column) {
        return this == ANY || has(setBits, column) || mayGive(column);
    }

    private static boolean has(long[] bits, Component<?> column) {
        int id = column.id();
        int word = id >>> 6;
        return word < bits.length && (bits[word] & (1L << id)) != 0;
    }

    private static long[] bits(List<Component<?>> list) {
        if (list == null || list.isEmpty()) {
            return new long[0];
        }
        int max = 0;
        for (Component<?> c : list) {
            max = Math.max(max, c.id());
        }
        long[] bits = new long[(max >>> 6) + 1];
        for (Component<?> c : list) {
            bits[c.id() >>> 6] |= 1L << c.id();
        }
        return bits;
    }

    private static List<Component<?>> freeze(List<Component<?>> list) {
        return list == null ? List.of() : List.copyOf(list);
    }

    @Override
    public String toString() {
        if (this == ANY) {
            return "any";
        }
        StringBuilder s = new StringBuilder();
        if (spawns) {
            s.append("spawns").append(spawnList);
        }
        if (!addList.isEmpty()) {
            s.append(s.length() > 0 ? " " : "").append("adds").append(addList);
        }
        if (!removeList.isEmpty()) {
            s.append(s.length() > 0 ? " " : "").append("removes").append(removeList);
        }
        if (!setList.isEmpty()) {
            s.append(s.length() > 0 ? " " : "").append("sets").append(setList);
        }
        if (despawns) {
            s.append(s.length() > 0 ? " " : "").append("despawns");
        }
        return s.length() == 0 ? "none" : s.toString();
    }

    /**
     * Collects a recorder's declared effects.
     *
     * <p><b>Threading:</b> not thread-safe; use on one thread.
     */
    public static final class Builder {
        private final String owner;
        private boolean spawns;
        private boolean despawns;
        private final List<Component<?>> spawn = new ArrayList<>();
        private final List<Component<?>> add = new ArrayList<>();
        private final List<Component<?>> remove = new ArrayList<>();
        private final List<Component<?>> set = new ArrayList<>();

        private Builder(String owner) {
            this.owner = Objects.requireNonNull(owner, "owner");
        }

        /** Declares spawns, whose entities may be given these components (by add or set commands). */
        public Builder spawns(Component<?>... components) {
            spawns = true;
            addAll(spawn, components);
            return this;
        }

        /** Declares despawns. */
        public Builder despawns() {
            despawns = true;
            return this;
        }

        /** Declares adds (and sets) of these components on existing entities. */
        public Builder adds(Component<?>... components) {
            addAll(add, components);
            return this;
        }

        /** Declares removes of these components. */
        public Builder removes(Component<?>... components) {
            addAll(remove, components);
            return this;
        }

        /** Declares deferred value writes (set commands) of these components. */
        public Builder setsLater(Component<?>... components) {
            addAll(set, components);
            return this;
        }

        /** The declaration. */
        public StructuralEffects build() {
            return new StructuralEffects(owner, spawns, despawns, spawn, add, remove, set);
        }

        private static void addAll(List<Component<?>> into, Component<?>[] components) {
            for (Component<?> c : components) {
                Objects.requireNonNull(c, "component");
                if (!into.contains(c)) {
                    into.add(c);
                }
            }
        }
    }
}
