/**
 * Iteration benchmarks: reading and writing component columns through a query's chunk
 * views, each beside a hand-written loop over flat arrays in the same JMH run, so the
 * figure that matters is the ratio. {@code IterationBenchmark} is the design brief's
 * iteration ceiling; {@code SimpleIterBenchmark} and {@code FragIterBenchmark} are the ECS
 * suite's simple_iter and frag_iter, built from {@code fixture.EcsSuite}.
 *
 * <p>Single-threaded; the parallel forms of the same work are in {@code scaling}.
 */
package dev.orrery.bench.iteration;
