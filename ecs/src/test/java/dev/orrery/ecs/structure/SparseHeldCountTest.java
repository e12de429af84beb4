package dev.orrery.ecs.structure;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;

import dev.orrery.ecs.World;
import dev.orrery.ecs.component.Component;
import dev.orrery.ecs.component.Entity;
import dev.orrery.ecs.component.Storage;
import dev.orrery.ecs.internal.EcsInternals;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * How many sparse columns an entity holds ({@link SparseColumns#heldBy}, what a despawn and
 * a snapshot's instance list ask) is read from the sets while the world has at most
 * {@link SparseColumns#SCAN_LIMIT} of them, and counted per entity once it has more. Both
 * ways give the same answer, also across the switch, when entities already hold sparse
 * columns as the set past the limit is made, and a despawn leaves no set holding the entity.
 */
class SparseHeldCountTest {
    record Heat(float v) {
    }

    record Cold(float v) {
    }

    record Wet(int v) {
    }

    record Dry(int v) {
    }

    record Loud(long v) {
    }

    record Quiet(long v) {
    }

    @Test
    void countsAgreeWithTheSetsBeforeAndAfterTheSwitchAndDespawnEmptiesEverySet() {
        World w = new World();
        w.component(Heat.class); // a table column first: sparse ids are not 0..n
        List<Component<?>> sparse = new ArrayList<>();
        sparse.add(w.component(Cold.class, Storage.SPARSE));
        sparse.add(w.component(Wet.class, Storage.SPARSE));
        sparse.add(w.component(Dry.class, Storage.SPARSE));
        sparse.add(w.component(Loud.class, Storage.SPARSE));
        assertEquals(SparseColumns.SCAN_LIMIT, sparse.size(), "the test registers the limit's worth first");
        SparseColumns sets = EcsInternals.storage(w).sparse();
        long[] e = new long[40];
        for (int i = 0; i < e.length; i++) {
            e[i] = w.spawn(new Heat(i));
        }
        // Entity i holds sparse column k when bit k of i is set: 0 to 4 columns each.
        for (int i = 0; i < e.length; i++) {
            for (int k = 0; k < sparse.size(); k++) {
                if ((i >> k & 1) != 0) {
                    w.add(e[i], sparse.get(k));
                }
            }
        }
        w.remove(e[15], sparse.get(2)); // one removal before the switch: 15 holds 3
        assertArrayEquals(expected(e, 4, 15), held(sets, e), "scanned, at the limit");

        sparse.add(w.component(Quiet.class, Storage.SPARSE)); // past the limit: counts built from the members
        assertArrayEquals(expected(e, 4, 15), held(sets, e), "counted, just past the limit");
        for (int i = 0; i < e.length; i += 3) {
            w.add(e[i], sparse.get(4));
        }
        w.remove(e[7], sparse.get(0));
        int[] want = expected(e, 4, 15);
        for (int i = 0; i < e.length; i += 3) {
            want[i]++;
        }
        want[7]--;
        assertArrayEquals(want, held(sets, e), "counted, after adds and removes past the limit");

        for (long x : e) {
            w.despawn(x);
        }
        for (Component<?> c : sparse) {
            assertEquals(0, sets.of(c).size(), c + " still holds despawned entities");
        }
        long reborn = w.spawn(new Heat(1f)); // takes a freed index
        for (Component<?> c : sparse) {
            assertFalse(w.has(reborn, c), "a new entity on a freed index holds " + c);
        }
        assertEquals(0, sets.heldBy(Entity.index(reborn)));
    }

    @Test
    void despawnWhileScanningLeavesTheOtherEntitiesInTheirSets() {
        World w = new World();
        Component<Cold> cold = w.component(Cold.class, Storage.SPARSE);
        Component<Wet> wet = w.component(Wet.class, Storage.SPARSE);
        long a = w.spawn(new Heat(1f));
        long b = w.spawn(new Heat(2f));
        w.add(a, cold, new Cold(1f));
        w.add(b, cold, new Cold(2f));
        w.add(b, wet, new Wet(3));
        w.despawn(a);
        SparseColumns sets = EcsInternals.storage(w).sparse();
        assertEquals(2, sets.heldBy(Entity.index(b)));
        assertEquals(2f, w.get(b, cold).v());
        assertEquals(3, w.get(b, wet).v());
        assertEquals(1, sets.of(cold).size());
    }

    private static int[] expected(long[] e, int columns, int lostOne) {
        int[] out = new int[e.length];
        for (int i = 0; i < e.length; i++) {
            out[i] = Integer.bitCount(i & ((1 << columns) - 1));
        }
        out[lostOne]--;
        return out;
    }

    private static int[] held(SparseColumns sets, long[] e) {
        int[] out = new int[e.length];
        for (int i = 0; i < e.length; i++) {
            out[i] = sets.heldBy(Entity.index(e[i]));
        }
        return out;
    }
}
