package dev.orrery.scheduler;

import dev.orrery.ecs.World;

/**
 * The body of an exclusive system that also reaches the schedule's events, resources and a
 * command buffer: the whole world as with {@link ExclusiveSystem}, plus a {@link JobContext}
 * under the same declared-access checks as a job's. Events need {@code readsEvents} /
 * {@code writesEvents}, as for any system (the graph orders writers before readers by them);
 * resources are all readable and writable (the system runs alone); commands recorded into
 * {@code job.commands()} are applied as soon as the body returns, before the next system
 * starts. {@code job.chunk()} is {@code null}: there is no chunk.
 *
 * <pre>{@code
 * .system("scoreboard").readsEvents(KILLS).exclusive((world, job) -> {
 *     Score score = job.resourceForWrite(SCORE);
 *     job.events(KILLS).forEach(k -> score.add(k.killer()));
 *     if (score.leader() != null) job.commands().add(score.leader(), crown, new Crown());
 * })
 * }</pre>
 *
 * <p><b>Threading:</b> always called on the thread that called {@link ScheduleExecutor#run},
 * with the world's structure unlocked and by-id writes allowed; the context is valid only
 * during the call.
 */
@FunctionalInterface
public interface ExclusiveJobSystem {
    /**
     * Runs the system over {@code world}, with {@code job} for events, resources and commands.
     *
     * @param world the schedule's world, structure unlocked
     * @param job the context for events, resources and commands (no chunk); valid only during the
     *     call
     */
    void run(World world, JobContext job);
}
