/**
 * Many worlds in one process: a {@link dev.orrery.engine.host.WorldHost} ticks many
 * {@code Simulation}s, each at its own rate, on one fixed pool of threads, earliest deadline
 * first; a {@link dev.orrery.engine.host.HostedWorld} is one of them (its rate, its counters
 * as {@link dev.orrery.engine.host.TickStats}, its removal and work on its tick thread).
 *
 * <p>Neighbours: the host drives {@code dev.orrery.engine.Simulation} through its public
 * calls ({@code tick}, {@code bindTickThread}, {@code close}) and marks the simulations it
 * holds and each turn's thread through {@code dev.orrery.engine.internal}; inputs, journals and
 * snapshots stay each world's own ({@code InputPipeline}, {@code RunRecorder} and
 * {@code RunReplayer} in {@code dev.orrery.engine}). A cluster runs one host per node, or ticks its worlds
 * on its own dispatcher instead.
 *
 * <p><b>Threading and memory ordering:</b> set out in {@link dev.orrery.engine.host.WorldHost}:
 * one lock guards the queue and the counters and is never held during a tick; its release by
 * the thread ending a tick and its acquisition by the thread starting the next is the
 * happens-before edge that {@code Simulation.bindTickThread()} asks for.
 */
package dev.orrery.engine.host;
