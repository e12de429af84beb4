/**
 * Scheduler benchmarks: what one tick of a schedule's executor costs when the systems do
 * little (50 empty systems, 100 small systems in write chains, a light system at growing
 * entity counts, the 64-flops compute system) in {@code SchedulerBenchmark}, and the ECS
 * suite's schedule workload against the same swaps over flat arrays in
 * {@code ScheduleSuiteBenchmark}.
 *
 * <p>The executors run jobs on their own worker threads; the benchmarks only call
 * {@code run()} from the JMH thread and close the executor in tear-down. How the speed-up
 * grows with threads is measured in {@code scaling}, which reuses this package's compute
 * kernel ({@link dev.orrery.bench.scheduling.SchedulerBenchmark#compute}).
 */
package dev.orrery.bench.scheduling;
