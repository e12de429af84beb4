/**
 * The pacing of a run: {@link dev.orrery.engine.tick.IdleStrategy} waits between the ticks
 * of a paced run ({@code Simulation.run(ticks, hz, listener)}), parking until shortly before
 * the deadline and yielding for the rest. The tick loop itself is
 * {@link dev.orrery.engine.Simulation} in {@code dev.orrery.engine}, made by a
 * {@link dev.orrery.engine.SimulationBuilder}: it advances a world one fixed step per tick:
 * the {@link dev.orrery.engine.Clock} advances, the input source hands over the tick's
 * inputs, the scheduler's executor runs every system and applies the command buffers at each
 * sync point, and the state hash goes to the input source. Its threading contract is stated
 * here, beside its pacing.
 *
 * <p><b>Threading and memory ordering:</b> one tick thread ticks, snapshots and restores a
 * simulation; the first tick binds it (by compare-and-set), and a tick, snapshot or restore
 * from any other thread is then refused, naming both threads ({@code close()} may come from
 * any thread, as {@code Simulation} says).
 * A hand-over to another thread goes through {@code Simulation.bindTickThread()} after a
 * happens-before edge from the old thread's last tick (a join, a queue hand-off, a future).
 * Inside a tick, everything the tick thread wrote before {@code executor.run} (clock,
 * inputs, resources) happens-before the jobs through the executor's job hand-off, and the
 * jobs' work happens-before the tick's end through its completion hand-off. For any thread:
 * {@code Simulation.stop()} (a volatile flag) and the tick count and last hash
 * ({@code currentTick()}, {@code lastHash()}, {@code progress()}), published with volatile
 * stores as each tick's systems end and as its hash is taken.
 */
package dev.orrery.engine.tick;

import dev.orrery.engine.Clock;
import dev.orrery.engine.Simulation;
import dev.orrery.engine.SimulationBuilder;
