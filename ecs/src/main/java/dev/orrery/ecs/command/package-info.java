/**
 * Structural changes recorded now and applied later. {@link dev.orrery.ecs.command.CommandBuffer}
 * records spawns, despawns, adds, removes and deferred writes in a compact primitive
 * stream with a sort key per command; {@link dev.orrery.ecs.command.CommandPlayback} merges
 * several buffers by that key ({@code RunMerge}) and applies them to a world at a sync
 * point, batching each entity's changes into one archetype move;
 * {@link dev.orrery.ecs.command.PlaybackReport} says what playback did, per
 * {@link dev.orrery.ecs.command.CommandKind} and {@link dev.orrery.ecs.command.CommandOutcome};
 * in strict mode a refused command becomes a {@link dev.orrery.ecs.command.RefusedCommandException}.
 * A spawn through a prepared {@link dev.orrery.ecs.Shape} carries its field values in its own
 * command ({@code ShapeLayout} says where), so spawning from a job builds no record.
 *
 * <p>Neighbours: playback applies through the world's structural calls and its storage
 * ({@code ecs.storage}, {@code ecs.archetype}); the scheduler owns one buffer per worker.
 * Facade: exported to every module.
 *
 * <p><b>Memory ordering:</b> a buffer has one recording thread at a time, bound with
 * {@code bindOwner} and asserted under {@code -ea}; plain fields. Recording must
 * happen-before playback: the scheduler publishes each worker's buffer to the applying
 * thread through its job-completion signal, and no job records while playback runs.
 */
package dev.orrery.ecs.command;
