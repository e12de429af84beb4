/**
 * Deterministic, counter-based randomness for systems running as parallel jobs.
 *
 * <p>A number is a pure function of {@code (seed, tick, entity, stream, counter)}: there is
 * no shared generator whose state depends on which worker drew first, so the same call
 * gives the same number on any thread and in any order. {@link
 * dev.orrery.engine.random.CounterRandom} is the keyed function (immutable, shared freely);
 * {@link dev.orrery.engine.random.RandomCursor} is the cheap per-job object that draws
 * several numbers for one entity without allocating.
 *
 * <p>Everything here uses integer arithmetic and {@link java.lang.StrictMath}, so results
 * are bit-identical on every JVM and CPU, which record and replay rely on.
 */
package dev.orrery.engine.random;
