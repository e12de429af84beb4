/**
 * How many worlds one process holds at a tick rate (issue 16): {@link
 * dev.orrery.bench.host.HostCapacityReport} ticks N small worlds ({@code CapacityWorld}: move,
 * bounce, count) at 30 Hz on a {@code WorldHost}, on one thread per world and on one executor
 * (a simulation with its own workers) per world, and finds the largest N each holds: tick lag
 * under one period at the 99th percentile and at least 95 % of the ticks asked for.
 * {@code PacedLoops} drives the two baselines the way {@code Simulation.run} paces a tick loop.
 */
package dev.orrery.bench.host;
