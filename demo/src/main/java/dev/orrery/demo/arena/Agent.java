package dev.orrery.demo.arena;

import dev.orrery.ecs.component.Range;

/**
 * Who an agent fights for and which squad it follows.
 *
 * <p>Both are indexes the systems rely on (steering reads the squad table, respawning the
 * team's template), so both are ranged: the squad by {@link Range}, the team by a validator
 * the arena registers for its team count. Clients may not {@code SET} either.
 *
 * @param team  the team, 0 to {@code teams - 1}; agents fire at agents of other teams
 * @param squad the squad, 0 to {@link SquadTargets#SQUADS} - 1; a squad walks towards the
 *              point a client's {@code MOVE} names
 */
public record Agent(@Range(min = 0, max = 7) int team, @Range(min = 0, max = SquadTargets.SQUADS - 1) int squad) {
}
