/**
 * Layer: structure (internal). The prototype index, after the Stingray entity index:
 * {@link dev.orrery.ecs.prototype.PrototypeIndex} maps each entity to a shared chain of
 * {base, column, name} links, so "which instance does this name mean on this entity" is a
 * hash probe on a small table whatever the entity count; {@link
 * dev.orrery.ecs.prototype.NamedInstances} keeps it current for a world;
 * {@link dev.orrery.ecs.prototype.SpawnChain} is a spawn shape's chain, found once. It sits
 * beside the archetypes: they decide where an entity's data lives, the prototype index decides
 * which instance a name means. Users reach it through the facade's {@code Template},
 * {@code PropertyHandle} and {@code World.getProperty}.
 *
 * <p>Imports the leaves and {@code ecs.archetype}. Changed only by the thread that applies
 * structural changes.
 */
package dev.orrery.ecs.prototype;
