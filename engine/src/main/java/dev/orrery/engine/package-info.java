/**
 * The engine: the simulation a typical user imports. It ties the world, the scheduler and
 * the command buffers into a fixed-step tick loop with resources, deterministic
 * randomness, an input pipeline, snapshots, and record and replay. This package holds no
 * types; its subpackages, from the user's entry point down:
 * <ul>
 *   <li>{@code tick}: the tick loop, {@code Simulation} and its builder, clock, idle strategy;
 *   <li>{@code resource}: the resource store, resource codecs and their snapshot section;
 *   <li>{@code input}: the input pipeline (an LMAX Disruptor ring from any thread to the tick
 *       thread), the per-tick input batch, the input source and recorder interfaces;
 *   <li>{@code journal}: the input journal file: writer, reader, format and tick framing;
 *   <li>{@code replay}: recording and replaying whole runs on top of the journal;
 *   <li>{@code random}: counter-based deterministic randomness;
 *   <li>{@code jfr}: the JFR events (tick, job, sync point) and the observer that emits them;
 *   <li>{@code trace}: Chrome traces of ticks and jobs.
 * </ul>
 */
package dev.orrery.engine;
