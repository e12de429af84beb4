package dev.orrery.ecs;

import dev.orrery.ecs.component.EntityRef;

/**
 * The value of a relation's marker column: the target of an exclusive relation's one pair
 * (a child's parent under {@code ChildOf}), or the first target (in the order the pairs were
 * made) of a relation an entity may hold several pairs of. A chunk loop reads it like any
 * {@code long} field: {@code view.readLongs(childOf.target())}.
 *
 * <p>Only the relation store writes it. Registering {@code Pair} as an ordinary component is
 * refused; register a relation with {@code world.relations().register(...)}.
 *
 * @param target the target entity
 */
record Pair(@EntityRef long target) {
}
