package dev.orrery.demo.arena;

/**
 * The nearest enemy in range as steering last saw it, or none.
 *
 * @param entity the enemy's id, or 0 (the null entity) when no enemy is in range
 * @param x      the enemy's x when seen
 * @param y      the enemy's y when seen
 */
public record Target(long entity, float x, float y) {
}
