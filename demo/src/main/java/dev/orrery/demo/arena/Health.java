package dev.orrery.demo.arena;

import dev.orrery.ecs.component.Range;

/**
 * An agent's remaining hit points; at 0 or below the agent dies and a fresh one of its
 * team and squad takes its place.
 *
 * <p>A boundary write ({@code SET}) takes 0 to 1 000 000; the damage system, trusted, takes
 * {@code hp} below 0 when a hit kills.
 *
 * @param hp hit points
 */
public record Health(@Range(min = 0, max = 1_000_000) float hp) {
}
