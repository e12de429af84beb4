package dev.orrery.demo.arena;

/**
 * One weapon. Every agent carries two instances of this type, named {@code Primary} and
 * {@code Secondary}, so a client can read or tune either by name
 * ({@code SET <agent> Secondary damage 40}).
 *
 * @param cooldown seconds until the weapon may fire again
 * @param reload   seconds between shots
 * @param damage   hit points a hit takes
 * @param speed    projectile speed, units per second
 * @param spread   how far a shot may land from its aim point, in units
 */
public record Weapon(float cooldown, float reload, float damage, float speed, float spread) {
}
