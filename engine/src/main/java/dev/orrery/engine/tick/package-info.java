/**
 * The tick loop: {@link dev.orrery.engine.Simulation}, made by a
 * {@link dev.orrery.engine.SimulationBuilder}, advances a world one fixed step per tick:
 * the {@link dev.orrery.engine.Clock} advances, the input source hands over the tick's
 * inputs, the scheduler's executor runs every system and applies the command buffers at each
 * sync point, and the state hash goes to the input source. {@link
 * dev.orrery.engine.tick.IdleStrategy} waits between ticks of a paced run.
 *
 * <p>Neighbours: the loop owns a {@code dev.orrery.scheduler.Resources} store (and
 * snapshots it through that package), takes inputs from {@code dev.orrery.engine.input},
 * reports to JFR through {@code dev.orrery.engine.jfr} and to Chrome traces through
 * {@code dev.orrery.engine.trace}; {@code dev.orrery.engine.replay} drives it to record and
 * replay runs.
 *
 * <p><b>Threading and memory ordering:</b> one tick thread builds, ticks, snapshots and
 * closes a simulation; the first tick binds it and later ticks assert it (under {@code -ea}).
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
