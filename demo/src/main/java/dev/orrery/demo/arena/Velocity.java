package dev.orrery.demo.arena;

/**
 * How far an agent or a projectile moves per second, in arena units.
 *
 * @param x east-west speed
 * @param y north-south speed
 */
public record Velocity(float x, float y) {
}
