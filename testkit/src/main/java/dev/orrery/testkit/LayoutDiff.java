package dev.orrery.testkit;

import dev.orrery.ecs.World;
import dev.orrery.ecs.component.Component;
import dev.orrery.ecs.component.Entity;
import dev.orrery.engine.internal.EngineInternals;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * What {@link WorldDiff} adds when two worlds hold the same entities, components and values
 * but their state hashes still differ through the entity table or the archetype layout: the
 * first entity (in the reference's chunk order) at another place (its archetype, chunk and
 * row), the archetypes in another order, and the ids the next spawns get (the free list in
 * reuse order). Places are read through the public chunk walk, which skips empty chunks; the
 * state hash walks every archetype, empty ones too, so those are read through the engine's door
 * ({@link EngineInternals#archetypeColumns}): an archetype made and emptied in one world only is
 * named by its components, and the order of every archetype when only empty ones moved. Cold
 * path; allocates freely.
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
     * the same archetype but at another chunk or row ({@code place}), then each archetype one
     * world has and the other has not ({@code archetype [Pos, Vel]: absent in the reference,
     * empty here}: made and emptied in one only), then the order of the archetypes both worlds
     * hold entities in when it differs ({@code archetype order}), or else the order of every
     * archetype both worlds made, the empty ones marked, when that differs, then the next ids
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
        Map<String, Integer> all = archetypes(reference);
        Map<String, Integer> allActual = archetypes(actual);
        for (String name : all.keySet()) {
            if (!allActual.containsKey(name)) {
                WorldDiff.add(out, max, new Difference(null, null, "archetype " + name, held(all.get(name)), "absent"));
            }
        }
        for (String name : allActual.keySet()) {
            if (!all.containsKey(name)) {
                WorldDiff.add(out, max, new Difference(null, null, "archetype " + name, "absent",
                        held(allActual.get(name))));
            }
        }
        List<String> x = new ArrayList<>(a.order);
        x.retainAll(b.order);
        List<String> y = new ArrayList<>(b.order);
        y.retainAll(a.order);
        if (!x.equals(y)) {
            WorldDiff.add(out, max, new Difference(null, null, "archetype order", a.order.toString(),
                    b.order.toString()));
        } else {
            List<String> u = new ArrayList<>(all.keySet());
            u.retainAll(allActual.keySet());
            List<String> v = new ArrayList<>(allActual.keySet());
            v.retainAll(all.keySet());
            if (!u.equals(v)) { // only empty archetypes moved: the hash walks them, the chunk walk does not
                WorldDiff.add(out, max, new Difference(null, null, "archetype order", marked(u, all),
                        marked(v, allActual)));
            }
        }
        nextIds(reference, actual, max, out);
    }

    /** {@code empty}, or {@code 3 entities}: what an archetype one world only has holds there. */
    private static String held(int size) {
        return size == 0 ? "empty" : size + (size == 1 ? " entity" : " entities");
    }

    /** {@code [[] (empty), [Pos], [Pos, Vel] (empty)]}: the archetypes in {@code names}' order, the empty ones marked. */
    private static String marked(List<String> names, Map<String, Integer> sizes) {
        List<String> out = new ArrayList<>(names.size());
        for (String n : names) {
            out.add(sizes.get(n) == 0 ? n + " (empty)" : n);
        }
        return out.toString();
    }

    /**
     * Every archetype of {@code world} in creation order, empty ones too, named as the chunk walk
     * names them ({@code [Pos, Vel]}, in the world's column order), to its entity count.
     */
    private static Map<String, Integer> archetypes(World world) {
        List<Component<?>> table = table(world);
        List<List<Component<?>>> columns = EngineInternals.archetypeColumns(world);
        int[] sizes = EngineInternals.archetypeSizes(world);
        Map<String, Integer> out = new LinkedHashMap<>();
        for (int i = 0; i < columns.size(); i++) {
            Set<String> has = new HashSet<>();
            for (Component<?> c : columns.get(i)) {
                has.add(WorldDiff.columnName(c));
            }
            List<String> names = new ArrayList<>();
            for (Component<?> c : table) {
                if (has.contains(WorldDiff.columnName(c))) {
                    names.add(WorldDiff.columnName(c));
                }
            }
            out.put(names.toString(), sizes[i]);
        }
        return out;
    }

    /** The world's columns that archetypes hold (sparse ones live outside them), in column order. */
    private static List<Component<?>> table(World world) {
        List<Component<?>> table = new ArrayList<>();
        for (Component<?> c : world.columns()) {
            if (!c.isSparse()) {
                table.add(c);
            }
        }
        return table;
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
        List<Component<?>> table = table(world);
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
