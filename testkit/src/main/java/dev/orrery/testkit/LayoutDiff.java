package dev.orrery.testkit;

import dev.orrery.ecs.World;
import dev.orrery.ecs.component.Component;
import dev.orrery.ecs.component.Entity;
import dev.orrery.engine.internal.EngineInternals;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * What {@link WorldDiff} adds when two worlds hold the same entities, components and values
 * but their state hashes still differ through the entity table or the archetype layout: the
 * first entity (in the reference's chunk order) at another place (its archetype, chunk and
 * row), the archetypes in another order, and the ids the next spawns get (the free list in
 * reuse order). Places are read through the public chunk walk, which skips empty chunks, so an
 * archetype made and emptied in one world only stays unnamed. Cold path; allocates freely.
 */
final class LayoutDiff {
    /** At most this many next ids either side of the first that differs. */
    private static final int SHOWN = 3;

    private LayoutDiff() {
    }

    /** One world's places: each entity's archetype, and its place as {@code [Pos] chunk 0 row 1}; the archetypes in walk order. */
    private record Layout(Map<Long, String> archetype, Map<Long, String> place, List<String> order) {
    }

    /**
     * Adds to {@code out} (at most {@code max} in all) the first entity alive in both worlds in
     * the same archetype but at another chunk or row ({@code place}), then the order of the
     * archetypes both worlds hold when it differs ({@code archetype order}), then the next ids
     * when they differ ({@code next ids}).
     */
    static void differences(World reference, World actual, int max, List<Difference> out) {
        Layout a = layout(reference);
        Layout b = layout(actual);
        for (Map.Entry<Long, String> e : a.place.entrySet()) {
            long id = e.getKey();
            String other = b.place.get(id);
            if (other != null && a.archetype.get(id).equals(b.archetype.get(id)) && !other.equals(e.getValue())) {
                WorldDiff.add(out, max, new Difference(Entity.toString(id), null, "place", e.getValue(), other));
                break; // the rows after it have moved as a consequence
            }
        }
        List<String> x = new ArrayList<>(a.order);
        x.retainAll(b.order);
        List<String> y = new ArrayList<>(b.order);
        y.retainAll(a.order);
        if (!x.equals(y)) {
            WorldDiff.add(out, max, new Difference(null, null, "archetype order", a.order.toString(),
                    b.order.toString()));
        }
        nextIds(reference, actual, max, out);
    }

    /** The next ids, from a little before the first that differs to a little after, when any differs. */
    private static void nextIds(World reference, World actual, int max, List<Difference> out) {
        int n = Math.max(EngineInternals.freeIds(reference), EngineInternals.freeIds(actual)) + 1; // and one new index
        long[] u = EngineInternals.nextIds(reference, n);
        long[] v = EngineInternals.nextIds(actual, n);
        for (int i = 0; i < n; i++) {
            if (u[i] != v[i]) {
                int from = Math.max(0, i - SHOWN);
                int to = Math.min(n, i + SHOWN);
                WorldDiff.add(out, max, new Difference(null, null, "next ids", WorldDiff.ids(u, from, to),
                        WorldDiff.ids(v, from, to)));
                return;
            }
        }
    }

    /** The places of {@code world}'s entities, walking every non-empty chunk read-only (no change tick taken). */
    private static Layout layout(World world) {
        List<Component<?>> table = new ArrayList<>();
        for (Component<?> c : world.columns()) {
            if (!c.isSparse()) {
                table.add(c);
            }
        }
        Map<Long, String> archetype = new HashMap<>();
        Map<Long, String> place = new LinkedHashMap<>(); // in walk order
        Map<String, Integer> chunks = new LinkedHashMap<>(); // per archetype, chunks seen so far; its keys: the order
        world.query().build().forEachChunkReadOnly(view -> {
            List<String> names = new ArrayList<>();
            for (Component<?> c : table) {
                if (view.has(c)) {
                    names.add(WorldDiff.columnName(c));
                }
            }
            String key = names.toString();
            int chunk = chunks.merge(key, 1, Integer::sum) - 1;
            for (int r = 0; r < view.size(); r++) {
                long e = view.entity(r);
                archetype.put(e, key);
                place.put(e, key + " chunk " + chunk + " row " + r);
            }
        });
        return new Layout(archetype, place, new ArrayList<>(chunks.keySet()));
    }
}
