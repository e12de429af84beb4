/**
 * One demo run: `DemoRun` wires the arena to the command server and the input pipeline
 * (`CommandInputs`), records or replays, and keeps tick-time histograms (`TickStats`),
 * steady state apart from warm-up; `RunOptions` and `RunResult` are its input and output.
 *
 * <p><b>Threading:</b> the run's thread ticks the simulation; the server's selector thread
 * publishes client commands into the input ring, which hands them to the tick thread.
 */
package dev.orrery.demo.run;
