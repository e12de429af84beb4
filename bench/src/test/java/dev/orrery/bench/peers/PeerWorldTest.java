package dev.orrery.bench.peers;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Every peer workload at 10 000 entities, untimed: the checks the benchmarks run after each
 * shot pass on a correct world and fail on one wrong value, so they are real checks.
 */
class PeerWorldTest {
    private static final int N = 10_000;

    @ParameterizedTest
    @ValueSource(strings = {PeerWorld.ORRERY, PeerWorld.ORRERY_SHAPE, PeerWorld.ORRERY_ROW, PeerWorld.ORRERY_BULK,
        PeerWorld.DOMINION, PeerWorld.ARTEMIS, PeerWorld.FLAT})
    void createThenMoveHoldsExactlyTheExpectedValuesAndACorruptedOneIsCaught(String library) {
        PeerWorld w = PeerWorld.of(library);
        w.reset(N);
        w.create(N);
        w.check();
        for (int s = 0; s < 3; s++) {
            w.move();
        }
        w.check();
        // the check really compares moved values: an unmoved expectation must not pass
        assertEquals(PeerWorld.px(7) + 3 * PeerWorld.vx(7) * PeerWorld.DT, w.value(7, 0));
        w.corrupt(N / 2);
        IllegalStateException e = assertThrows(IllegalStateException.class, w::check);
        assertTrue(e.getMessage().contains("entity " + (N / 2)), e.getMessage());
        // a fresh world after reset is clean again: the next shot starts from nothing
        w.reset(N);
        w.create(N);
        w.check();
        w.close();
    }

    @ParameterizedTest
    @ValueSource(strings = {PeerWorld.ORRERY, PeerWorld.ORRERY_SPARSE, PeerWorld.DOMINION, PeerWorld.ARTEMIS})
    void addThenRemoveRestoresTheWorldAndTheChecksSeeBothHalves(String library) {
        PeerWorld w = PeerWorld.of(library);
        w.reset(N);
        w.create(N);
        w.addExtra();
        w.checkWithExtra();
        assertThrows(IllegalStateException.class, w::check, "check must see the Extra left on every entity");
        w.corruptExtra(123);
        IllegalStateException e = assertThrows(IllegalStateException.class, w::checkWithExtra);
        assertTrue(e.getMessage().contains("entity 123 has Extra -1"), e.getMessage());
        w.removeExtra();
        w.check();
        assertThrows(IllegalStateException.class, w::checkWithExtra, "checkWithExtra must see Extra gone");
        // twice: the benchmark repeats the pair on the same world
        w.addExtra();
        w.removeExtra();
        w.move();
        w.check();
        w.corrupt(0);
        assertThrows(IllegalStateException.class, w::check);
        w.close();
    }

    @org.junit.jupiter.api.Test
    void flatBaselineRefusesStructuralChangesAndUnknownLibrariesAreNamed() {
        PeerWorld flat = PeerWorld.of(PeerWorld.FLAT);
        flat.reset(10);
        flat.create(10);
        assertThrows(UnsupportedOperationException.class, flat::addExtra);
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> PeerWorld.of("flecs"));
        assertTrue(e.getMessage().contains("'flecs'") && e.getMessage().contains(PeerWorld.DOMINION), e.getMessage());
    }
}
