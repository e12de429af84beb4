/**
 * The engine: the simulation a typical user imports. It ties the world, the scheduler and
 * the command buffers into a fixed-step tick loop with resources, deterministic
 * randomness, an input pipeline, snapshots, and record and replay. This package holds what
 * a program uses of it:
 * <ul>
 *   <li>the tick loop: {@link dev.orrery.engine.Simulation}, its
 *       {@link dev.orrery.engine.SimulationBuilder}, the {@link dev.orrery.engine.Clock} and the
 *       {@link dev.orrery.engine.FailurePolicy};
 *   <li>resources with a snapshot codec: {@link dev.orrery.engine.ResourceCodec},
 *       {@link dev.orrery.engine.ResourceCodecs};
 *   <li>inputs: {@link dev.orrery.engine.InputPipeline} (an LMAX Disruptor ring from any
 *       thread to the tick thread), the per-tick {@link dev.orrery.engine.InputBatch}, the
 *       {@link dev.orrery.engine.InputSource} and {@link dev.orrery.engine.InputRecorder}
 *       interfaces;
 *   <li>record and replay of whole runs on top of the journal:
 *       {@link dev.orrery.engine.RunRecorder}, {@link dev.orrery.engine.RunReplayer},
 *       {@link dev.orrery.engine.JournalInputSource}, {@link dev.orrery.engine.Durability};
 *   <li>counter-based randomness: {@link dev.orrery.engine.CounterRandom},
 *       {@link dev.orrery.engine.RandomCursor};
 *   <li>Chrome traces of ticks and jobs: {@link dev.orrery.engine.ChromeTrace}.
 * </ul>
 * Beside it: {@code dev.orrery.engine.host} (many worlds on one pool, exported to everyone);
 * {@code journal} (the input journal file), {@code jfr} (the JFR events and their observer)
 * and {@code internal} (the test kit's and the cluster's door), exported only to the modules
 * that need them; {@code tick} (the idle strategy of a paced run), exported to none.
 */
package dev.orrery.engine;
