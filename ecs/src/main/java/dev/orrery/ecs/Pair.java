package dev.orrery.ecs;

import dev.orrery.ecs.component.EntityRef;

/**
 * The value of a relation's marker column ({@link Relation#column()}): the target of an
 * exclusive relation's one pair (a child's parent under {@code ChildOf}), or the first target
 * (in the order the pairs were made) of a relation an entity may hold several pairs of. A chunk
 * loop reads it like any {@code long} field: {@code view.readLongs(childOf.target())}.
 *
 * <p>Observer hooks see it as the marker's value: {@code world.observe(childOf.column())}
 * gives an {@code onRemove} value hook the {@code Pair} the holder held when its last pair went
 * ({@code last.target()}: the target it left), and {@code onSet} fires when the (first) target
 * changes while a pair stays (an exclusive relation's holder re-targeted, or the first of
 * several pairs removed); the hook reads the new target,
 * {@code w.get(e, childOf.column()).target()}, and the old one is not passed.
 *
 * <p>Only the relation store writes it. Registering {@code Pair} as an ordinary component is
 * refused, as is a direct add, set or remove of a marker column; register a relation with
 * {@code world.relations().register(...)} and change pairs with {@code world.relations().add}.
 *
 * @param target the (first) target entity's id
 */
public record Pair(@EntityRef long target) {
}
