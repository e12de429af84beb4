package dev.orrery.demo.arena;

/**
 * An agent's remaining hit points; at 0 or below the agent dies and a fresh one of its
 * team and squad takes its place.
 *
 * @param hp hit points
 */
public record Health(float hp) {
}
