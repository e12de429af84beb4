/**
 * The door from Orrery's own tools into what the engine's facade keeps package-private, and
 * nothing for users: {@link dev.orrery.engine.internal.EngineInternals} reaches a
 * simulation's executor, for the test kit's diagnostic mode that hashes the world after each
 * system; names, by one rule for the kit's restored run and a cluster node's move, the
 * resources a snapshot leaves out though systems may write them; makes the engine's
 * {@code ReplayDivergenceException} for a cluster node's replay that diverges; and marks the
 * simulations a {@code WorldHost} holds. It forwards through method handles found once by a private lookup, so
 * {@code dev.orrery.engine} imports nothing from here, as with {@code dev.orrery.ecs.internal}
 * and {@code dev.orrery.scheduler.internal} below it.
 *
 * <p>Exported only to {@code dev.orrery.testkit} and {@code dev.orrery.cluster}.
 */
package dev.orrery.engine.internal;
