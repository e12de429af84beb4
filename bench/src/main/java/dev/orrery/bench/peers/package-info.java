/**
 * The peer benchmarks: the same workloads (create one by one, add and remove one by one,
 * iterate {@code p += v * dt}) on 1 M entities with {@code Position} and {@code Velocity},
 * run on Orrery, on the other JVM ECS libraries Artemis-odb 2.3.0 and Dominion 0.9.0, and on
 * a flat-array baseline, in one JMH run, as issue 13 asks. {@link
 * dev.orrery.bench.peers.PeerWorld} is one library's world with its workloads written in
 * that library's fastest documented idiom and the exact checks run after every iteration;
 * {@code PeerCreateBenchmark}, {@code PeerAddRemoveBenchmark} and {@code
 * PeerIterateBenchmark} are the JMH classes; {@link dev.orrery.bench.peers.PeerReport} runs
 * them together and prints the comparison table. The peers are benchmark-only dependencies
 * of this module, so nothing outside {@code bench} ever sees them.
 */
package dev.orrery.bench.peers;
