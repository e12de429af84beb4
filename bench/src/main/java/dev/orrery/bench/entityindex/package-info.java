/**
 * The entity-index benchmarks: the Stingray article's synthetic test run against Orrery's
 * prototype index and against the per-entity arrays the article starts from
 * ({@code EntityIndexReport}, a main), what the look-up cache buys
 * ({@code EntityIndexLookupReport}, a main), and the JMH view of registration and look-up
 * ({@code EntityIndexBenchmark}). The composition set they share is
 * {@code EntityIndexWorkload}; the legacy design is {@code LegacyEntityIndex}, both
 * package-private.
 *
 * <p>Single-threaded: the index is used directly, not through {@code World}, except for
 * {@code EntityIndexBenchmark.worldAddRemove}.
 */
package dev.orrery.bench.entityindex;
