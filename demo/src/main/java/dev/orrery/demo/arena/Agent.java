package dev.orrery.demo.arena;

/**
 * Who an agent fights for and which squad it follows.
 *
 * @param team  the team, 0 to {@code teams - 1}; agents fire at agents of other teams
 * @param squad the squad, 0 to {@link SquadTargets#SQUADS} - 1; a squad walks towards the
 *              point a client's {@code MOVE} names
 */
public record Agent(int team, int squad) {
}
