package dev.orrery.demo.arena;

/**
 * A shot in flight. It flies for {@code ttl} seconds to its aim point; there it hits the
 * nearest agent of another team within 0.8 units, or misses, and is
 * removed at the end of that tick.
 *
 * @param team   the shooter's team
 * @param state  {@link #FLYING}, {@link #HIT} or {@link #MISSED}
 * @param damage hit points a hit takes
 * @param ttl    seconds of flight left
 * @param victim the entity hit, or 0
 */
public record Projectile(int team, int state, float damage, float ttl, long victim) {
    /** Still in flight. */
    public static final int FLYING = 0;
    /** Landed on {@link #victim}. */
    public static final int HIT = 1;
    /** Landed with no enemy near. */
    public static final int MISSED = 2;
}
