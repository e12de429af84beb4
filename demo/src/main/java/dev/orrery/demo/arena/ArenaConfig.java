package dev.orrery.demo.arena;

/**
 * The arena's size and make-up. The arena is square, sized so the starting agents average
 * {@link #DENSITY} per grid cell.
 *
 * @param agents starting agents, 1 to 10 000 000
 * @param teams  teams, 2 to 8; agents are dealt to teams in turn
 * @param seed   the random seed of the run
 */
public record ArenaConfig(int agents, int teams, long seed) {
    /** Side of a grid cell, which is also the weapons' range. */
    public static final float CELL = 4f;
    /** Starting agents per grid cell, on average. */
    public static final float DENSITY = 1.5f;

    /** Checks the ranges. */
    public ArenaConfig {
        if (agents < 1 || agents > 10_000_000) {
            throw new IllegalArgumentException("agents must be 1 to 10000000; got " + agents);
        }
        if (teams < 2 || teams > 8) {
            throw new IllegalArgumentException("teams must be 2 to 8; got " + teams);
        }
    }

    /** The arena's side length in units: a whole number of cells, at least 8. */
    public float side() {
        return CELL * Math.max(8, (int) Math.ceil(Math.sqrt(agents / DENSITY)));
    }
}
