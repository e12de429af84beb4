/**
 * The particle scenario (the game loop published for JVM ECS libraries), issue 20: entities
 * with a position, a velocity and a health; per tick five systems: move ({@code p += v * dt}),
 * damage (health falls by one), reap (despawn the dead), respawn (as many fresh particles as
 * died, with seeded values) and count the living. Health starts spread over 1..100 and a
 * fresh particle gets 100, so exactly 1% of the particles die and respawn every tick.
 *
 * <p>{@link dev.orrery.bench.gameloop.ParticleLoop} is one implementation; there are Orrery's
 * (written from the root README: a {@code Schedule} of chunk systems, a range system for the
 * respawn, command buffers, {@code executor.run()}), the same with the fastest spawn path
 * (no records), Artemis-odb 2.3.0's, Dominion 0.9.0's and a hand-written flat-array loop.
 * {@code ParticleBenchmark} times one tick; {@link dev.orrery.bench.gameloop.ParticleReport}
 * prints the ratios of one run; {@link dev.orrery.bench.gameloop.BuildComparison} times two
 * builds (or two worker counts) side by side in one JVM. Every implementation reaches the same living count and the
 * same order-independent checksum of the particles' state after the same ticks
 * ({@link dev.orrery.bench.gameloop.Particles#checksum}), checked by the tests and by the
 * benchmark's tear-down.
 */
package dev.orrery.bench.gameloop;
