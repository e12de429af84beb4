package dev.orrery.demo.arena;

/**
 * Where an agent or a projectile is, in arena units (the arena spans {@code [0, side)} on
 * both axes).
 *
 * @param x east-west coordinate
 * @param y north-south coordinate
 */
public record Position(float x, float y) {
}
