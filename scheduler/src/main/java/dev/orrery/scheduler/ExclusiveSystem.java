package dev.orrery.scheduler;

import dev.orrery.ecs.World;

/**
 * The body of an exclusive system: it gets the whole world, may make structural changes
 * directly (spawn, despawn, add, remove) and runs alone: every system ordered before it has
 * finished and none ordered after it has started.
 *
 * <p><b>Threading:</b> always called on the thread that called
 * {@link dev.orrery.scheduler.ScheduleExecutor#run}, with the world's structure unlocked and
 * by-id writes ({@code world.set(...)}) allowed.
 */
@FunctionalInterface
public interface ExclusiveSystem {
    /**
     * Runs the system over {@code world}.
     *
     * @param world the schedule's world, structure unlocked: spawns, despawns, adds and removes go
     *     straight in
     */
    void run(World world);
}
