/**
 * What a component is: {@link dev.orrery.ecs.component.ComponentType} (a record of
 * primitive fields, a reference type, or a tag, with its field layout),
 * {@link dev.orrery.ecs.component.Component} (a column: a type under an instance name),
 * {@link dev.orrery.ecs.component.Field} and {@link dev.orrery.ecs.component.FieldType},
 * the {@link dev.orrery.ecs.component.ComponentRegistry} that numbers them densely,
 * {@link dev.orrery.ecs.hash.NameHash}, {@link dev.orrery.ecs.component.EntityRef},
 * and {@link dev.orrery.ecs.FieldAccess}, by-id field access (which the world
 * implements, so property handles need no world). Validated writes:
 * {@link dev.orrery.ecs.component.Range} on a record component and
 * {@link dev.orrery.ecs.component.FieldValidator}s registered with the world, kept per
 * world in {@link dev.orrery.ecs.component.FieldRules} and refused with an
 * {@link dev.orrery.ecs.component.InvalidFieldValueException} by the boundary writes.
 *
 * <p>Neighbours: the bottom of the module; it imports no other ecs package, and every
 * other package builds on it. Facade: exported to every module. Registration is done by
 * the owning thread; the types and columns are immutable once made and may be read from
 * any thread after the scheduler's hand-off.
 */
package dev.orrery.ecs.component;

import dev.orrery.ecs.FieldAccess;
import dev.orrery.ecs.hash.NameHash;
