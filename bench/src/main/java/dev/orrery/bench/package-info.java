/**
 * Orrery's JMH benchmarks and report mains, one subpackage per concept measured. This
 * package itself holds no classes; it is the map:
 *
 * <ul>
 *   <li>{@code iteration}: walking components through queries against flat arrays
 *       ({@code IterationBenchmark}, the suite's simple_iter and frag_iter).
 *   <li>{@code structural}: spawning, despawning, adding and removing components, one by
 *       one, in bulk and through command buffers.
 *   <li>{@code scheduling}: what the scheduler costs per tick (empty systems, many small
 *       systems, the suite's schedule workload).
 *   <li>{@code entityindex}: the prototype index against the per-entity arrays of the
 *       Stingray article (JMH benchmark and two report mains).
 *   <li>{@code scaling}: speed-up across cores (the scaling report, the scheduler's scaling
 *       report, the suite's parallel compute workloads beside a plain parallel loop).
 *   <li>{@code explorer}: what the live explorer costs a tick, attached with no client
 *       and with a page streaming ({@code ExplorerCostReport}).
 *   <li>{@code peers}: reserved for the same workloads run on other JVM ECS libraries.
 *   <li>{@code fixture}: what several of the above share (component records, the ECS suite's
 *       worlds and kernels, the plain parallel loop); it depends on no other benchmark
 *       package, and every other package may depend on it.
 * </ul>
 *
 * <p>Build with {@code mvn -DskipTests package -pl bench -am}; run
 * {@code java -jar bench/target/benchmarks.jar [regex]} for JMH (a regex of the simple class
 * name still matches), or a report main with
 * {@code java -cp bench/target/benchmarks.jar dev.orrery.bench.<package>.<Report>}.
 */
package dev.orrery.bench;
