/**
 * Layer: leaves (exported to every module). The vocabulary every layer speaks: entity ids
 * ({@link dev.orrery.ecs.component.Entity}, {@link dev.orrery.ecs.component.StaleEntityException}),
 * columns ({@link dev.orrery.ecs.component.Component}: a component type under an instance name,
 * in {@link dev.orrery.ecs.component.Storage table or sparse storage}), their
 * {@link dev.orrery.ecs.component.Field}s and {@link dev.orrery.ecs.component.FieldType}s, and
 * validated writes ({@link dev.orrery.ecs.component.Range} on a record component,
 * {@link dev.orrery.ecs.component.FieldValidator}, {@link dev.orrery.ecs.component.InvalidFieldValueException}).
 * A program imports this package and {@code dev.orrery.ecs}.
 *
 * <p>The schema behind the handles is here too, because a column and its type are made
 * together: {@link dev.orrery.ecs.component.ComponentType} (a record's field layout, read and
 * written through method handles), {@link dev.orrery.ecs.component.ComponentRegistry} (which
 * numbers a world's types and columns densely) and {@link dev.orrery.ecs.component.FieldRules}.
 * Users get columns from {@code World.component(...)} and never need the registry.
 *
 * <p>Imports only {@code ecs.hash} (name hashes). Registration is done by the world's owning
 * thread; types and columns are immutable once made and may be read from any thread after
 * the scheduler's hand-off.
 */
package dev.orrery.ecs.component;
