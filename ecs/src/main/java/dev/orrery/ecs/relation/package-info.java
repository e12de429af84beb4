/**
 * Relationships between entities: relation kinds ({@link dev.orrery.ecs.relation.Relation},
 * {@code ChildOf} built in), the pairs {@code (relation, target)} an entity holds, what a
 * target's despawn does to them ({@link dev.orrery.ecs.relation.Cleanup}), and the
 * breadth-first walk of a forest relation ({@link dev.orrery.ecs.relation.Hierarchy}).
 * {@code world.relations()} ({@link dev.orrery.ecs.relation.Relations}) is the entry point.
 *
 * <p>Pairs do not fragment archetypes: a holder carries one marker column per relation
 * ({@link dev.orrery.ecs.relation.Pair}, its first target), and the pairs live in a store
 * indexed both ways; see {@link dev.orrery.ecs.relation.Relation}.
 */
package dev.orrery.ecs.relation;
