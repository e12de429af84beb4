/**
 * Multi-core scaling: {@code ScalingReport} (a main that measures each workload at each
 * thread count, the executor's own overheads, and writes the markdown table and the SVG plot
 * drawn by {@code ScalingPlot}), {@code SchedulerScalingReport} (the scheduler's 64-flops
 * system at 1, 2, ... workers), and {@code ParallelComputeBenchmark} (the ECS suite's
 * heavy_compute and parallel_light_compute against a plain parallel loop, in JMH).
 * {@code ExecutorWorkloads} holds the two report workloads that are not part of the suite.
 *
 * <p>Builds on {@code fixture} (the suite's worlds and the plain loop) and on
 * {@code scheduling} (the 64-flops kernel). The reports drive an executor from their main
 * thread only; the workers' per-thread counters in {@code SchedulerScalingReport} are read
 * after {@code run()} returns, which orders them after the jobs' writes.
 */
package dev.orrery.bench.scaling;
