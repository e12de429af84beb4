package dev.orrery.demo.arena;

/**
 * The nearest enemy in range when one of the agent's weapons was last ready to fire, or none.
 *
 * @param entity the enemy's id, or 0 (the null entity) when no enemy is in range
 * @param x      the enemy's x when seen
 * @param y      the enemy's y when seen
 */
public record Target(long entity, float x, float y) {
}
