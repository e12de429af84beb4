package dev.orrery.demo.arena;

import dev.orrery.ecs.component.Range;

/**
 * A shot in flight. It flies for {@code ttl} seconds to its aim point; there it hits the
 * nearest agent of another team within 0.8 units, or misses, and is
 * removed at the end of that tick.
 *
 * <p>The damage system reads {@code victim}'s hit points, so the arena registers a validator
 * for it (0 or a live agent) besides these ranges.
 *
 * @param team   the shooter's team
 * @param state  {@link #FLYING}, {@link #HIT} or {@link #MISSED}
 * @param damage hit points a hit takes
 * @param ttl    seconds of flight left
 * @param victim the entity hit, or 0
 */
public record Projectile(@Range(min = 0, max = 7) int team, @Range(min = FLYING, max = MISSED) int state,
        @Range(min = 0, max = 1_000_000) float damage, @Range(min = 0, max = 3_600) float ttl, long victim) {
    /** Still in flight. */
    public static final int FLYING = 0;
    /** Landed on {@link #victim}. */
    public static final int HIT = 1;
    /** Landed with no enemy near. */
    public static final int MISSED = 2;
}
