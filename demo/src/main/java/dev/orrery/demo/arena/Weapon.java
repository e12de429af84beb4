package dev.orrery.demo.arena;

import dev.orrery.ecs.component.Range;

/**
 * One weapon. Every agent carries two instances of this type, named {@code Primary} and
 * {@code Secondary}, so a client can read or tune either by name
 * ({@code SET <agent> Secondary damage 40}).
 *
 * <p>The ranges bound what a client's {@code SET} may write (a reload of 0 would fire every
 * tick; the systems also clamp it to one step).
 *
 * @param cooldown seconds until the weapon may fire again
 * @param reload   seconds between shots
 * @param damage   hit points a hit takes
 * @param speed    projectile speed, units per second
 * @param spread   how far a shot may land from its aim point, in units
 */
public record Weapon(@Range(min = 0, max = 60) float cooldown, @Range(min = 0.05, max = 60) float reload,
        @Range(min = 0, max = 1_000_000) float damage, @Range(min = 0.1, max = 1_000) float speed,
        @Range(min = 0, max = 100) float spread) {
}
