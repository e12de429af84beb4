package dev.orrery.ecs.archetype;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.orrery.ecs.World;
import dev.orrery.ecs.component.Component;
import dev.orrery.ecs.internal.EcsInternals;
import java.util.Arrays;
import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * A chunk skips re-stamping its column versions when every slot already holds the arrival's
 * tick; this checks, against a plain model that stamps every time, that no sequence of
 * arrivals, writes, carried versions and restores leaves a version the model would not.
 */
class ChunkVersionsTest {
    record Position(float x, float y) {
    }

    record Health(int hp) {
    }

    record Mass(double kg) {
    }

    @Test
    void shouldHoldTheSameVersionsAsStampingEveryArrival() {
        World w = new World();
        Component<Position> pos = w.component(Position.class);
        Component<Health> health = w.component(Health.class);
        Component<Mass> mass = w.component(Mass.class);
        Archetype a = EcsInternals.storage(w).archetypes().of(pos, health, mass);
        int slots = a.columnCount();
        long seed = 20261126L;
        Random random = new Random(seed);
        for (int run = 0; run < 200; run++) {
            Chunk[] chunks = {new Chunk(a, 0, 8), new Chunk(a, 1, 8)};
            long[][] added = new long[2][slots];
            long[][] changed = new long[2][slots];
            for (int step = 0; step < 60; step++) {
                int c = random.nextInt(2);
                long tick = 1 + random.nextInt(4); // few ticks, out of order too: equal stamps are the case skipped
                int slot = random.nextInt(slots);
                String op;
                switch (random.nextInt(4)) {
                    case 0 -> {
                        op = "stampArrival(" + tick + ")";
                        chunks[c].stampArrival(tick, 0, 0);
                        Arrays.fill(added[c], tick);
                        Arrays.fill(changed[c], tick);
                    }
                    case 1 -> {
                        op = "markChanged(" + slot + ", " + tick + ")";
                        chunks[c].markChanged(slot, tick);
                        changed[c][slot] = Math.max(changed[c][slot], tick);
                    }
                    case 2 -> {
                        op = "carryVersions(other)";
                        chunks[c].carryVersions(chunks[1 - c]);
                        for (int s = 0; s < slots; s++) {
                            added[c][s] = Math.max(added[c][s], added[1 - c][s]);
                            changed[c][s] = Math.max(changed[c][s], changed[1 - c][s]);
                        }
                    }
                    default -> {
                        op = "restoreVersions(" + slot + ", " + tick + ", " + (tick + 1) + ")";
                        chunks[c].restoreVersions(slot, tick, tick + 1);
                        added[c][slot] = tick;
                        changed[c][slot] = tick + 1;
                    }
                }
                for (int k = 0; k < 2; k++) {
                    for (int s = 0; s < slots; s++) {
                        String where = "seed " + seed + ", run " + run + ", step " + step + " (" + op + " on chunk " + c
                                + "), chunk " + k + " slot " + s;
                        assertEquals(added[k][s], chunks[k].addedVersion(s), "added version, " + where);
                        assertEquals(changed[k][s], chunks[k].changedVersion(s), "changed version, " + where);
                    }
                }
            }
        }
    }
}
