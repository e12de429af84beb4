/**
 * Structural-change benchmarks: spawning and despawning entities, adding and removing
 * components (each entity moves between archetypes), one by one and in bulk
 * ({@code StructuralBenchmark}, and the ECS suite's {@code AddRemoveBenchmark} and
 * {@code CreateDestroyBenchmark} beside plain-Java floors), and command buffers: recording
 * on one thread and playing back the demo's per-tick changes
 * ({@code CommandBufferBenchmark}).
 *
 * <p>The benchmarks run on JMH's single default thread and start no threads of their own.
 */
package dev.orrery.bench.structural;
