/**
 * Record and replay of whole runs, built on the input journal
 * ({@code dev.orrery.engine.journal}) and the tick loop ({@code dev.orrery.engine.tick}):
 * {@link dev.orrery.engine.replay.RunRecorder} writes a starting snapshot, the input journal
 * and per-component hashes into a folder;
 * {@link dev.orrery.engine.replay.RunReplayer} restores the snapshot into a new simulation and
 * feeds it the recorded inputs through a {@link dev.orrery.engine.replay.JournalInputSource},
 * which checks each recorded state hash and throws a
 * {@link dev.orrery.engine.replay.ReplayDivergenceException} at the first tick that differs.
 *
 * <p>These drivers sit above the journal package rather than in it: they depend on
 * {@code Simulation}, while the journal is a file format that depends only on the input
 * types, so a tool that only reads or writes journals needs neither the tick loop nor this
 * package.
 *
 * <p><b>Threading:</b> everything here runs on the simulation's tick thread, except that a
 * recorder's input pipeline accepts publishes from any thread (see
 * {@code dev.orrery.engine.input}).
 */
package dev.orrery.engine.replay;
