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

    /** {@code entity} moved from {@code from} to {@code to}: columns dropped are removed, columns new are added. */
    void moved(long entity, Archetype from, Archetype to);

    /** {@code entity}, still in {@code a}, is about to be despawned. */
    void despawned(long entity, Archetype a);

    /** A value of {@code column} on {@code entity} was set. */
    void set(long entity, Component<?> column);
}
