package dev.orrery.ecs.structure;

import dev.orrery.ecs.archetype.Archetype;
import dev.orrery.ecs.component.Component;

/**
 * What the row work tells the layer above as it happens: an entity arrived in an archetype,
 * moved between two, is about to leave, or had a value set. The world's change tracking
 * implements it (removal logs, observer queues); {@link EntityRows} calls it on the owning
 * thread, in the order the rows change, and never needs to know who listens.
 */
public interface RowEvents {
    /** {@code entity} was spawned into {@code a} (every column added). */
    void spawned(long entity, Archetype a);

    /**
     * {@code entity} is about to move from {@code from} to {@code to}: the columns {@code to}
     * lacks leave it. Its row is still at ({@code chunk}, {@code row}) of {@code from}, so the
     * values leaving can be read; both are -1 for a block move, which reports after the fact.
     */
    void leaving(long entity, Archetype from, int chunk, int row, Archetype to);

    /** {@code entity} moved from {@code from} to {@code to} (after {@link #leaving}): columns new to it were added. */
    void moved(long entity, Archetype from, Archetype to);

    /** {@code entity}, still at ({@code chunk}, {@code row}) of {@code a}, is about to be despawned. */
    void despawned(long entity, Archetype a, int chunk, int row);

    /** A value of {@code column} on {@code entity} was set. */
    void set(long entity, Component<?> column);
}
