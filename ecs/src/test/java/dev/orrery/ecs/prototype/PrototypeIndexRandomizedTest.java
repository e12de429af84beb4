package dev.orrery.ecs.prototype;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * Drives the index with random registrations, batch registrations, removals and releases
 * and checks every answer against a plain map of ordered (name to column) lists. Also
 * checks that two entities share a prototype exactly when their ordered lists are equal,
 * and that releasing everyone leaves only prototype 0.
 */
class PrototypeIndexRandomizedTest {
    private static final int ENTITIES = 64;
    private static final int NAMES = 12;
    private static final int COLUMNS = 5;
    private static final int STEPS = 4_000;

    @Test
    void shouldMatchAReferenceMapWithTheDefaultMixer() {
        long base = System.nanoTime();
        for (int run = 0; run < 8; run++) {
            check(base + run, PrototypeIndex.DEFAULT_MIXER, run % 2 == 0);
        }
    }

    @Test
    void shouldMatchAReferenceMapWhenIdsCollideOften() {
        long base = System.nanoTime();
        for (int run = 0; run < 4; run++) {
            // four natural ids for everything: nearly every new prototype collides
            check(base + run, (b, c, n) -> (b ^ c ^ n) & 3, run % 2 == 0);
        }
    }

    private static void check(long seed, PrototypeIndex.IdMixer mixer, boolean cache) {
        try {
            run(seed, mixer, cache);
        } catch (AssertionError | RuntimeException e) {
            throw new AssertionError("randomized prototype index test failed with seed " + seed + " (cache " + cache
                    + "); rerun check(" + seed + "L, ...) to reproduce: " + e.getMessage(), e);
        }
    }

    private static void run(long seed, PrototypeIndex.IdMixer mixer, boolean cache) {
        Random rnd = new Random(seed);
        PrototypeIndex index = new PrototypeIndex(cache, mixer);
        List<LinkedHashMap<Integer, Integer>> ref = new ArrayList<>();
        for (int e = 0; e < ENTITIES; e++) {
            ref.add(new LinkedHashMap<>());
        }
        for (int step = 0; step < STEPS; step++) {
            int op = rnd.nextInt(100);
            int e = rnd.nextInt(ENTITIES);
            int name = 1000 + rnd.nextInt(NAMES);
            if (op < 40) {
                int col = rnd.nextInt(COLUMNS);
                if (ref.get(e).containsKey(name)) {
                    int before = index.prototypeOf(e);
                    assertThrows(IllegalArgumentException.class, () -> index.register(e, col, name));
                    assertEquals(before, index.prototypeOf(e));
                } else {
                    index.register(e, col, name);
                    ref.get(e).put(name, col);
                }
            } else if (op < 50) {
                batch(rnd, index, ref);
            } else if (op < 65) {
                Integer col = ref.get(e).remove(name);
                assertEquals(col == null ? PrototypeIndex.NOT_FOUND : col, index.unregister(e, name), "unregister");
            } else if (op < 72) {
                index.release(e);
                ref.get(e).clear();
            } else {
                Integer col = ref.get(e).get(name);
                int expected = col == null ? PrototypeIndex.NOT_FOUND : col;
                assertEquals(expected, index.find(e, name), "find");
                assertEquals(expected, index.findUncached(e, name), "findUncached");
            }
            if (step % 200 == 0) {
                verifyAll(index, ref);
            }
        }
        verifyAll(index, ref);
        for (int e = 0; e < ENTITIES; e++) {
            index.release(e);
        }
        index.reclaimUnused();
        assertEquals(1, index.prototypeCount(), "after releasing everyone only prototype 0 is left");
        assertEquals(PrototypeIndex.NOT_FOUND, index.find(0, 1000));
    }

    private static int liveLinks(PrototypeIndex index) {
        java.util.Set<Integer> links = new java.util.HashSet<>();
        for (int e = 0; e < ENTITIES; e++) {
            for (int q = index.prototypeOf(e); q != PrototypeIndex.EMPTY && links.add(q); q = index.base(q)) {
                // collect
            }
        }
        return links.size();
    }

    private static void batch(Random rnd, PrototypeIndex index, List<LinkedHashMap<Integer, Integer>> ref) {
        int k = 1 + rnd.nextInt(4);
        int[] names = new int[k];
        int[] cols = new int[k];
        for (int i = 0; i < k; i++) {
            names[i] = 1000 + rnd.nextInt(NAMES);
            cols[i] = rnd.nextInt(COLUMNS);
        }
        int n = 1 + rnd.nextInt(6);
        int[] entities = new int[n + 2];
        int from = 1;
        java.util.Set<Integer> seen = new java.util.HashSet<>();
        for (int i = 0; i < n; i++) {
            int e = rnd.nextInt(ENTITIES);
            if (!seen.add(e) && rnd.nextBoolean()) {
                e = -1; // a repeated entity or a negative index: both refused
            }
            entities[from + i] = e;
        }
        boolean ok = true;
        for (int i = 0; i < k && ok; i++) {
            for (int j = i + 1; j < k; j++) {
                ok &= names[i] != names[j];
            }
        }
        java.util.Set<Integer> listed = new java.util.HashSet<>();
        for (int i = 0; i < n; i++) {
            int e = entities[from + i];
            if (e < 0 || !listed.add(e)) {
                ok = false;
                continue;
            }
            for (int nm : names) {
                ok &= !ref.get(e).containsKey(nm);
            }
        }
        if (!ok) {
            int[] before = new int[ENTITIES];
            for (int e = 0; e < ENTITIES; e++) {
                before[e] = index.prototypeOf(e);
            }
            int count = index.prototypeCount();
            assertThrows(IllegalArgumentException.class, () -> index.registerAll(entities, from, n, cols, names));
            for (int e = 0; e < ENTITIES; e++) {
                assertEquals(before[e], index.prototypeOf(e), "a refused batch changes nothing");
            }
            assertEquals(count, index.prototypeCount());
            return;
        }
        index.registerAll(entities, from, n, cols, names);
        for (int i = 0; i < n; i++) {
            for (int j = 0; j < k; j++) {
                ref.get(entities[from + i]).put(names[j], cols[j]);
            }
        }
    }

    private static void verifyAll(PrototypeIndex index, List<LinkedHashMap<Integer, Integer>> ref) {
        assertTrue(index.prototypeCount() <= liveLinks(index) + 1 + 11 * PrototypeIndex.RECLAIM_BATCH,
                "queued prototypes stay bounded");
        index.reclaimUnused();
        Map<List<Integer>, Integer> prototypeOfList = new HashMap<>();
        Map<Integer, List<Integer>> listOfPrototype = new HashMap<>();
        Map<Integer, Integer> entityRefs = new HashMap<>();
        for (int e = 0; e < ENTITIES; e++) {
            List<Integer> list = new ArrayList<>();
            for (Map.Entry<Integer, Integer> en : ref.get(e).entrySet()) {
                list.add(en.getKey());
                list.add(en.getValue());
                assertEquals((int) en.getValue(), index.findUncached(e, en.getKey()), "entity " + e);
            }
            int p = index.prototypeOf(e);
            assertEquals(ref.get(e).size(), index.depth(p), "depth of entity " + e);
            Integer other = prototypeOfList.putIfAbsent(list, p);
            if (other != null && other != p) {
                fail("entities with equal lists " + list + " have prototypes " + other + " and " + p);
            }
            List<Integer> otherList = listOfPrototype.putIfAbsent(p, list);
            if (otherList != null && !otherList.equals(list)) {
                fail("prototype " + p + " shared by lists " + otherList + " and " + list);
            }
            entityRefs.merge(p, 1, Integer::sum);
        }
        // live prototypes are exactly the chain links of live entities' prototypes
        java.util.Set<Integer> links = new java.util.HashSet<>();
        java.util.Set<Long> ids = new java.util.HashSet<>();
        Map<Integer, Integer> childRefs = new HashMap<>();
        for (int p : listOfPrototype.keySet()) {
            for (int q = p; q != PrototypeIndex.EMPTY; q = index.base(q)) {
                if (links.add(q)) {
                    if (!ids.add(index.id(q))) {
                        fail("two live prototypes share id " + index.id(q));
                    }
                    assertEquals(q, index.prototypeWithId(index.id(q)));
                    childRefs.merge(index.base(q), 1, Integer::sum);
                }
            }
        }
        assertEquals(links.size() + 1, index.prototypeCount(), "no unused prototype survives");
        for (int q : links) {
            int expected = entityRefs.getOrDefault(q, 0) + childRefs.getOrDefault(q, 0);
            assertEquals(expected, index.references(q), "reference count of prototype " + q);
        }
    }
}
