/**
 * The prototype index (after the Stingray entity index) and what stands on it: templates
 * and property access by name. {@link dev.orrery.ecs.prototype.PrototypeIndex} maps each
 * entity to a shared chain of {base, column, name} links; {@link
 * dev.orrery.ecs.prototype.NamedInstances} keeps it current for a {@code World};
 * {@link dev.orrery.ecs.Template} is the named list of instances a world spawns
 * from; {@link dev.orrery.ecs.PropertyHandle} reads and writes one field of a
 * named instance. It sits beside {@code ecs.archetype}: archetypes decide where an
 * entity's data lives, the prototype index decides which instance a name means.
 *
 * <p>Neighbours: depends on {@code ecs.archetype} and {@code ecs.component}; property
 * handles reach field values through {@code ecs.component.FieldAccess}, so this package
 * does not import the world. Facade: exported to every module ({@code NamedInstances} is
 * public but only the world makes one, and hands it out through its internal storage).
 *
 * <p>Everything here is changed only by the thread that applies structural changes.
 */
package dev.orrery.ecs.prototype;

import dev.orrery.ecs.PropertyHandle;
import dev.orrery.ecs.Template;
