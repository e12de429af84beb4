/**
 * What change tracking costs and gains: {@link dev.orrery.bench.change.ChangeTrackingBenchmark}
 * (plain iteration against the flat loop with version stamps on, and a {@code changed}
 * query against a full scan when a tenth of the entities change per tick).
 */
package dev.orrery.bench.change;
