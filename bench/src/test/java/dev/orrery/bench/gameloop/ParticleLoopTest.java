package dev.orrery.bench.gameloop;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Every implementation of the particle scenario computes the same thing: after the same
 * ticks, the same living count and the same checksum of every particle's exact state; and
 * Orrery's world is bit-identical on 1 and 2 workers, whichever spawn path it uses.
 */
class ParticleLoopTest {
    private static final int PARTICLES = 3_000;
    private static final int TICKS = 150; // past one lifetime: every initial particle died and was replaced

    @Test
    void everyImplementationEndsWithTheSameParticles() {
        long flatSum;
        try (ParticleLoop flat = run(ParticleLoop.FLAT, Particles.SEED)) {
            assertEquals(PARTICLES, flat.living());
            flatSum = flat.checksum();
        }
        for (String name : List.of(ParticleLoop.ORRERY_1, ParticleLoop.ORRERY_2, ParticleLoop.ORRERY_FAST_1,
                ParticleLoop.ORRERY_FAST_2, ParticleLoop.ARTEMIS, ParticleLoop.DOMINION)) {
            try (ParticleLoop loop = run(name, Particles.SEED)) {
                assertEquals(PARTICLES, loop.living(), name + " living count");
                assertEquals(flatSum, loop.checksum(), name + " state differs from the flat loop's");
            }
        }
    }

    @Test
    void theChecksumSeesTheSeedAndTheTicks() {
        try (ParticleLoop a = run(ParticleLoop.FLAT, Particles.SEED);
                ParticleLoop b = run(ParticleLoop.FLAT, Particles.SEED + 1)) {
            assertNotEquals(a.checksum(), b.checksum());
            long before = a.checksum();
            a.tick();
            assertNotEquals(before, a.checksum());
        }
    }

    /**
     * Each spawn path gives the same world, bit for bit, on 1 and 2 workers. The two paths
     * hold the same entities with the same values (the checksum test covers that), but their
     * state hashes differ on purpose: the README path passes through the empty and partial
     * archetypes (spawn, then an add per component), which the hash counts, while a shape
     * spawn goes straight to the final archetype.
     */
    @Test
    void orrerysWorldIsBitIdenticalOnOneAndTwoWorkersForEachSpawnPath() {
        for (String[] pair : List.of(new String[] {ParticleLoop.ORRERY_1, ParticleLoop.ORRERY_2},
                new String[] {ParticleLoop.ORRERY_FAST_1, ParticleLoop.ORRERY_FAST_2})) {
            long reference;
            long checksum;
            try (ParticleLoop one = run(pair[0], Particles.SEED)) {
                reference = ((OrreryParticles) one).stateHash();
                checksum = one.checksum();
            }
            try (ParticleLoop two = run(pair[1], Particles.SEED)) {
                assertEquals(reference, ((OrreryParticles) two).stateHash(), pair[1] + " state hash");
                assertEquals(checksum, two.checksum(), pair[1] + " checksum");
            }
        }
    }

    @Test
    void unknownLoopNamesTheKnownOnes() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> ParticleLoop.of("bevy", 10, 1));
        assertTrue(e.getMessage().contains("'bevy'") && e.getMessage().contains(ParticleLoop.DOMINION), e.getMessage());
    }

    private static ParticleLoop run(String name, long seed) {
        ParticleLoop loop = ParticleLoop.of(name, PARTICLES, seed);
        for (int t = 0; t < TICKS; t++) {
            loop.tick();
            assertEquals(PARTICLES, loop.living(), name + " living count after tick " + t);
        }
        return loop;
    }
}
