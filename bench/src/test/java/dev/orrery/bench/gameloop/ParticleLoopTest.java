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

    @Test
    void orrerysWorldIsBitIdenticalOnOneAndTwoWorkersAndBothSpawnPaths() {
        long reference;
        try (ParticleLoop one = run(ParticleLoop.ORRERY_1, Particles.SEED)) {
            reference = ((OrreryParticles) one).stateHash();
        }
        for (String name : List.of(ParticleLoop.ORRERY_2, ParticleLoop.ORRERY_FAST_1, ParticleLoop.ORRERY_FAST_2)) {
            try (ParticleLoop loop = run(name, Particles.SEED)) {
                assertEquals(reference, ((OrreryParticles) loop).stateHash(), name + " state hash");
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
