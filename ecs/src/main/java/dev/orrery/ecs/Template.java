package dev.orrery.ecs;

import dev.orrery.ecs.archetype.Archetype;
import dev.orrery.ecs.component.Component;
import dev.orrery.ecs.prototype.SpawnChain;
import dev.orrery.ecs.structure.EntityRows;
import java.lang.ref.WeakReference;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Objects;

/**
 * A named, ordered list of named component instances with initial values: the Stingray
 * "entity resource". Spawning from a template ({@code World.spawn(Template)},
 * {@code World.spawnMany(Template, n)}) places the entity in its archetype in one step and
 * registers the instance names in the prototype index in the template's order, so every
 * entity spawned from one template shares one prototype chain.
 *
 * <pre>{@code
 * Template lamp = Template.named("Lamp")
 *         .with(transform, new Transform(0, 0, 0))
 *         .with(fog, new RenderData(0.2f))       // RenderData:Fog
 *         .with(vignette, new RenderData(0.8f))  // RenderData:Vignette
 *         .build();
 * long[] lamps = world.spawnMany(lamp, 10_000);
 * }</pre>
 *
 * <p>Instance names are unique within a template; {@link Builder#with} rejects a repeat
 * with the template's name and the instance name. A template is immutable; values are
 * shared by every entity spawned from it (records are immutable; a reference component's
 * object is stored by reference in each entity).
 *
 * <p>The first spawn into a world resolves the template's archetype there; the world keeps
 * that resolution and the template remembers it, so later spawns (and command playback's) look
 * nothing up and allocate nothing beyond storage growth. The template remembers it weakly: a
 * template kept after its world was dropped does not keep the world (its archetypes and rows)
 * reachable; its component handles keep only that world's small component registry. While
 * the world lives it holds the resolution, so a collection never makes a spawn resolve again.
 *
 * <p><b>Threading:</b> immutable once built, so any thread may read or share it; spawning
 * from it follows the world's rules. The resolution it remembers is one volatile reference,
 * replaced whole, and used only by the owning thread of the world that made it: a spawn reads
 * it and uses it only when it names the spawning world. A template spawns only into the world
 * that registered its components, except one with no components, which any world takes: worlds
 * on two threads that share such a template at worst replace each other's resolution and take
 * their own again from their world.
 */
public final class Template {
    private final String name;
    private final Component<?>[] columns;
    private final Object[] values;
    // The archetype and spawn chain the last world this template spawned into resolved it to,
    // replaced whole (never changed in place), so later spawns skip the look-up. Weak: that
    // world holds the resolution strongly (World.prepared), so it lasts exactly as long as the
    // world, and the template does not keep a dropped world reachable.
    private volatile WeakReference<Prepared> prepared;

    private Template(String name, Component<?>[] columns, Object[] values) {
        this.name = name;
        this.columns = columns;
        this.values = values;
    }

    /**
     * Starts building a template called {@code name} ("Lamp"), used in error messages.
     *
     * @param name the template's name, not null
     * @return a new, empty builder
     */
    public static Builder named(String name) {
        Objects.requireNonNull(name, "template name");
        return new Builder(name);
    }

    /**
     * The template's name.
     *
     * @return the name given to {@link #named}
     */
    public String name() {
        return name;
    }

    /**
     * Number of component instances.
     *
     * @return the count of instances, 0 or more
     */
    public int size() {
        return columns.length;
    }

    /**
     * The columns in template order.
     *
     * @return an unmodifiable list, {@link #size()} long
     */
    public List<Component<?>> columns() {
        return List.of(columns);
    }

    /**
     * The column at position {@code i}.
     *
     * @param i a position, in {@code [0, size())}
     * @return the column at {@code i}
     * @throws IndexOutOfBoundsException if {@code i} is outside {@code [0, size())}
     */
    public Component<?> column(int i) {
        return columns[i];
    }

    /**
     * The initial value at position {@code i}, or {@code null} for zeroed fields (and tags).
     *
     * @param i a position, in {@code [0, size())}
     * @return the value shared by every entity spawned from the template, or {@code null}
     * @throws IndexOutOfBoundsException if {@code i} is outside {@code [0, size())}
     */
    public Object value(int i) {
        return values[i];
    }

    /** The columns as a new array, in template order. */
    Component<?>[] columnArray() {
        return columns.clone();
    }

    /** The initial values, aligned with the columns: the template's own array (callers must not write it). */
    Object[] values() {
        return values;
    }

    /**
     * What {@code world} resolved this template to, or null when another world (or none) did
     * last, or that world was collected. Allocates nothing.
     */
    Prepared preparedFor(World world) {
        WeakReference<Prepared> r = prepared;
        Prepared p = r == null ? null : r.get();
        return p != null && p.world == world ? p : null;
    }

    /**
     * A new resolution of this template in {@code world}, to {@code archetype}; the world keeps
     * it and hands it to {@link #remember}.
     */
    Prepared prepare(World world, Archetype archetype) {
        return new Prepared(world, archetype, new SpawnChain(columns));
    }

    /**
     * Remembers {@code p} (which its world holds, and which may have been made for another
     * template with the same columns in the same order) for the next spawn. Allocates nothing.
     */
    void remember(Prepared p) {
        prepared = p.self;
    }

    /**
     * A template resolved in one world: its archetype and its spawn chain (which remembers the
     * prototype its names lead to). The world holds it; templates hold it weakly, through the
     * one {@link #self} reference, so remembering it again allocates nothing. Used on that
     * world's owning thread, as the world is.
     */
    static final class Prepared {
        final World world;
        final Archetype archetype;
        final SpawnChain chain;
        /** The weak reference every template that remembers this resolution holds. */
        final WeakReference<Prepared> self = new WeakReference<>(this);

        Prepared(World world, Archetype archetype, SpawnChain chain) {
            this.world = world;
            this.archetype = archetype;
            this.chain = chain;
        }
    }

    @Override
    public String toString() {
        return "Template '" + name + "' " + Arrays.toString(columns);
    }

    /**
     * Collects a template's instances in order.
     *
     * <p><b>Threading:</b> confine a builder to one thread.
     */
    public static final class Builder {
        private final String name;
        private final List<Component<?>> columns = new ArrayList<>();
        private final List<Object> values = new ArrayList<>();

        private Builder(String name) {
            this.name = name;
        }

        /**
         * Adds an instance whose fields start at zero (a null reference for a reference
         * column; or a tag).
         *
         * @param column the instance's column, not null, its instance name new to the template
         * @return this builder
         * @throws IllegalArgumentException for a relation's marker column, which only the
         *     relation store changes: spawn from the template, then add the pair
         */
        public Builder with(Component<?> column) {
            return put(column, null);
        }

        /**
         * Adds an instance with its initial value.
         *
         * @param <T> the column's value type
         * @param column the instance's column, not null, its instance name new to the template
         * @param value the initial value, not null and of the column's type; shared, not copied
         * @return this builder
         * @throws NullPointerException naming the template and the fix when {@code value} is
         *     null: to add the instance zeroed (or a tag) call {@link #with(Component)}, as
         *     {@code world.add(entity, column, null)} is refused alike
         * @throws IllegalArgumentException naming the template and the instance name when the
         *     template already has an instance by that name, or naming the relation for a
         *     relation's marker column (spawn from the template, then add the pair)
         */
        public <T> Builder with(Component<T> column, T value) {
            if (value == null) {
                throw EntityRows.nullBuilderValue("Template.named(\"" + name + "\").with", Objects.requireNonNull(column,
                        "column"));
            }
            return put(column, value);
        }

        private Builder put(Component<?> column, Object value) {
            Objects.requireNonNull(column, "column");
            // Refused here, not at the spawn: a command buffer's spawn(template) would otherwise
            // fail half-way through a playback, dropping the commands after it.
            column.refuseIfRelationMarker("template '" + name + "' with");
            if (value != null && !column.type().javaClass().isInstance(value)) {
                throw new IllegalArgumentException("template '" + name + "': value of type " + value.getClass().getName()
                        + " given for " + column + ", which holds " + column.type().javaClass().getName());
            }
            if (value != null) { // a template's values go to the world as they are: no playback resolves a handle in them
                dev.orrery.ecs.structure.ProvisionalRefs.refuse(column, value);
            }
            for (Component<?> c : columns) {
                if (c == column) {
                    throw new IllegalArgumentException("template '" + name + "' already holds " + column
                            + "; give each instance once (one .with(" + column.name() + ", value) call)");
                }
                if (c.nameHash() == column.nameHash()) {
                    throw new IllegalArgumentException("template '" + name + "' already has a component named '"
                            + column.name() + "' (of " + c.type().javaClass().getName() + "), so " + column + " (of "
                            + column.type().javaClass().getName() + ") cannot join it; names are unique within a "
                            + "template, so register one under a name of its own: world.component("
                            + column.type().javaClass().getSimpleName() + ".class, \"OtherName\")");
                }
            }
            columns.add(column);
            values.add(value);
            return this;
        }

        /**
         * The template; the builder may go on to build others.
         *
         * @return a new immutable template holding the instances added so far
         */
        public Template build() {
            return new Template(name, columns.toArray(new Component<?>[0]), values.toArray());
        }
    }
}
