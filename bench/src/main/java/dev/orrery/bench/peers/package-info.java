/**
 * Reserved for the peer benchmarks: the same workloads (create one by one, add and remove
 * one by one, iterate) run on other JVM ECS libraries (Artemis-odb, Dominion) beside Orrery
 * and a flat-array baseline in one JMH run, as issue 13 asks. Empty for now; the peers
 * will be benchmark-only dependencies of this module, so nothing outside {@code bench}
 * ever sees them.
 */
package dev.orrery.bench.peers;
