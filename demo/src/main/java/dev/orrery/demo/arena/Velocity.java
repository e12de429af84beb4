package dev.orrery.demo.arena;

import dev.orrery.ecs.component.Range;

/**
 * How far an agent or a projectile moves per second, in arena units.
 *
 * <p>Finite, within a million units a second either way (NaN refused), for boundary writes.
 *
 * @param x east-west speed
 * @param y north-south speed
 */
public record Velocity(@Range(min = -1e6, max = 1e6) float x, @Range(min = -1e6, max = 1e6) float y) {
}
