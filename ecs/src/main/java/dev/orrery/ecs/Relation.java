package dev.orrery.ecs;

import dev.orrery.ecs.component.Component;
import dev.orrery.ecs.component.Field;

/**
 * A registered relationship kind {@code R}: an entity (the holder) can hold pairs
 * {@code (R, target)}. {@code ChildOf} is one ({@link Relations#childOf()}); a game may
 * register its own ({@code Likes}, {@code Targets}, {@code DockedAt}).
 *
 * <p><b>Storage.</b> Pairs do not fragment archetypes: whatever its targets, a holder carries
 * one marker column per relation ({@link #column()}, of type {@link Pair}, named after the
 * relation), so {@code query().with(childOf.column())} is the wildcard {@code (R, *)} and a
 * chunk loop reads the (first) target from the {@link #target()} field. The pairs themselves,
 * both directions and in the order they were made, live in the world's relation store.
 *
 * <p><b>Traits</b>, fixed at registration:
 * <ul>
 *   <li>{@link #exclusive()}: at most one target per holder; adding another replaces it
 *       (reparenting).</li>
 *   <li>{@link #acyclic()}: a pair that would close a cycle ({@code a} under {@code b} under
 *       {@code a}) is refused; required for {@link Relations#hierarchy}.</li>
 *   <li>{@link #cleanup()}: what a target's despawn does to its holders.</li>
 * </ul>
 *
 * <p>Handles are made by {@link Relations#register} and compared by identity.
 */
public final class Relation {
    private final int id;
    private final String name;
    private final boolean exclusive;
    private final boolean acyclic;
    private final Cleanup cleanup;
    private Component<Pair> column;

    Relation(int id, String name, boolean exclusive, boolean acyclic, Cleanup cleanup) {
        this.id = id;
        this.name = name;
        this.exclusive = exclusive;
        this.acyclic = acyclic;
        this.cleanup = cleanup;
    }

    void column(Component<Pair> c) {
        this.column = c;
    }

    /**
     * Dense id among the world's relations, in registration order.
     *
     * @return the id, 0 to the world's relation count minus 1
     */
    public int id() {
        return id;
    }

    /**
     * The relation's name, also its marker column's instance name ({@code "ChildOf"}).
     *
     * @return the name given to {@code register}
     */
    public String name() {
        return name;
    }

    /**
     * True when a holder has at most one target of this relation.
     *
     * @return true for an exclusive relation ({@code ChildOf}: one parent)
     */
    public boolean exclusive() {
        return exclusive;
    }

    /**
     * True when pairs that would close a cycle are refused.
     *
     * @return true when cycles are refused
     */
    public boolean acyclic() {
        return acyclic;
    }

    /**
     * What despawning a target does to its holders.
     *
     * @return the cleanup given to {@code register}, never null
     */
    public Cleanup cleanup() {
        return cleanup;
    }

    /**
     * The marker column every holder carries: use it in queries as the wildcard {@code (R, *)},
     * and observe it ({@code world.observe(relation.column())}) to react to pairs; its value, a
     * {@link Pair}, names the (first) target.
     *
     * @return the marker column, held by every entity holding at least one pair of this relation
     */
    public Component<Pair> column() {
        return column;
    }

    /** The marker column, typed: for the relation store and playback. */
    Component<Pair> marker() {
        return column;
    }

    /**
     * The marker column's {@code target} field: the (first) target, readable in chunk loops.
     *
     * @return the {@code long} field holding the target's id ({@code readLongs} in a chunk loop)
     */
    public Field target() {
        return column.field(0);
    }

    @Override
    public String toString() {
        return name;
    }

    /**
     * Traits as messages print them: {@code "exclusive, acyclic, DESPAWN_HOLDER"}, or
     * {@code "not exclusive, cycles allowed, REMOVE_PAIR"}.
     */
    static String traits(boolean exclusive, boolean acyclic, Cleanup cleanup) {
        return (exclusive ? "exclusive" : "not exclusive") + ", " + (acyclic ? "acyclic" : "cycles allowed") + ", "
                + cleanup;
    }
}
