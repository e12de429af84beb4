package dev.orrery.demo.arena;

import dev.orrery.ecs.component.Range;

/**
 * A squad: the one component of a squad entity, the parent its agents hold {@code ChildOf}
 * pairs to. A client's {@code MOVE <squad> <x> <y>} sets its point; every child walks there
 * (steering reads the point of the agent's parent). The arena has {@link SquadTargets#SQUADS}
 * squad entities, spawned before the agents and never despawned (a squad's despawn would
 * despawn its agents with it: {@code ChildOf}'s cleanup).
 *
 * <p>Server-owned: clients move a squad with {@code MOVE}, never with {@code SET}.
 *
 * @param number the squad's number, 0 to {@link SquadTargets#SQUADS} - 1, as clients name it
 * @param x      east-west coordinate of the point the squad walks to
 * @param y      north-south coordinate of that point
 */
public record Squad(@Range(min = 0, max = SquadTargets.SQUADS - 1) int number, float x, float y) {
}
