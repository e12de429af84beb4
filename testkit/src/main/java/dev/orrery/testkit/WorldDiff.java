package dev.orrery.testkit;

import dev.orrery.ecs.Relation;
import dev.orrery.ecs.World;
import dev.orrery.ecs.component.Component;
import dev.orrery.ecs.component.Entity;
import dev.orrery.ecs.component.Field;
import dev.orrery.engine.internal.EngineInternals;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * Compares two worlds of the same game, entity by entity and field by field, then relation by
 * relation: what the kit reports when their state hashes differ. Cold path; allocates freely.
 *
 * <p>Pairs are compared too, since a relation's marker column holds only the first target: a
 * holder's second target, or the order of a parent's children, differs in the state hash and in
 * no component's values; where those agree, the order the pairs were made in, which the hash
 * sees through the pairs' numbers (two holders' pairs made in another order, a pair made and
 * removed in one world only), named by holder and target. Where components and pairs all agree, the entity table and the
 * archetype layout ({@link LayoutDiff}): an entity at another row, archetypes in another
 * order, other next ids (where more differs, the layout mostly differs as its consequence).
 */
final class WorldDiff {
    private WorldDiff() {
    }

    /**
     * The differences between {@code reference} and {@code actual}, at most {@code max} of them:
     * those of components in entity order, then those of pairs ({@link #pairDifferences}), then
     * those of the layout ({@link LayoutDiff#differences}) when nothing else differs;
     * {@code components} receives every component whose values differ.
     */
    static List<Difference> between(World reference, World actual, int max, Set<String> components) {
        List<Difference> out = new ArrayList<>();
        Map<Long, Map<String, Object>> a = contents(reference);
        Map<Long, Map<String, Object>> b = contents(actual);
        Set<Long> ids = new TreeSet<>(a.keySet());
        ids.addAll(b.keySet());
        for (long e : ids) {
            Map<String, Object> x = a.get(e);
            Map<String, Object> y = b.get(e);
            String entity = Entity.toString(e);
            if (x == null || y == null) {
                add(out, max, new Difference(entity, null, null, x == null ? "absent" : "alive", y == null ? "absent" : "alive"));
                continue;
            }
            Set<String> names = new TreeSet<>(x.keySet());
            names.addAll(y.keySet());
            for (String c : names) {
                Object u = x.get(c);
                Object v = y.get(c);
                if (u == null || v == null) {
                    components.add(c);
                    add(out, max, new Difference(entity, c, null, u == null ? "absent" : "held", v == null ? "absent" : "held"));
                } else if (!Objects.equals(u, v)) {
                    components.add(c);
                    fieldDifferences(out, max, entity, c, u, v);
                }
            }
        }
        Set<Long> both = new TreeSet<>(a.keySet());
        both.retainAll(b.keySet());
        pairDifferences(reference, actual, both, max, out);
        if (out.isEmpty()) { // else the layout differs as a consequence (rows moved, ids freed): noise
            LayoutDiff.differences(reference, actual, max, out);
        }
        return out;
    }

    /**
     * For each relation registered in both worlds (by name, in the reference's order), each live
     * holder whose targets differ ({@code Likes.targets}: both lists in pair order); for a relation
     * whose holders all agree, each target whose holders differ in order ({@code ChildOf.holders}:
     * a parent's children). Entities alive in one world only are already reported, so skipped.
     */
    private static void pairDifferences(World reference, World actual, Set<Long> alive, int max, List<Difference> out) {
        for (Relation r : reference.relations().all()) {
            Relation other = actual.relations().byName(r.name());
            if (other == null) {
                continue;
            }
            Set<Long> holders = new TreeSet<>();
            Set<Long> targets = new TreeSet<>();
            collect(reference.relations().pairs(r), alive, holders, targets);
            collect(actual.relations().pairs(other), alive, holders, targets);
            boolean targetsDiffer = false;
            for (long h : holders) {
                long[] x = reference.relations().targets(h, r);
                long[] y = actual.relations().targets(h, other);
                if (!Arrays.equals(x, y)) {
                    targetsDiffer = true;
                    add(out, max, new Difference(Entity.toString(h), r.name(), "targets", ids(x), ids(y)));
                }
            }
            if (targetsDiffer) {
                continue; // the holder lists differ too, as a consequence: not listed twice
            }
            boolean holdersDiffer = false;
            for (long t : targets) {
                long[] x = reference.relations().holders(r, t);
                long[] y = actual.relations().holders(other, t);
                if (!Arrays.equals(x, y)) {
                    holdersDiffer = true;
                    add(out, max, new Difference(Entity.toString(t), r.name(), "holders", ids(x), ids(y)));
                }
            }
            if (!holdersDiffer) {
                String x = madeOrder(reference, r, alive);
                String y = madeOrder(actual, other, alive);
                if (x != null && y != null && !x.equals(y)) {
                    add(out, max, new Difference(null, r.name(), "pairs in the order made", x, y));
                }
            }
        }
    }

    /**
     * {@code r}'s pairs in {@code world} in the order they were made, each as {@code (holder,
     * target)}, with the pairs made and removed between them ({@code 1 made and removed}): what
     * the pairs' numbers, which the state hash covers, say in a user's terms, for two worlds
     * whose holders' targets and targets' holders agree (pairs of two holders made in another
     * order, a pair made and removed in one world only). Null when a pair names an entity not
     * alive in both worlds (that entity is already reported).
     */
    private static String madeOrder(World world, Relation r, Set<Long> alive) {
        long[] pairs = world.relations().pairs(r); // (holder, target, number) triples by ascending number
        List<String> out = new ArrayList<>();
        long last = 0; // pairs are numbered from 1
        for (int i = 0; i + 2 < pairs.length; i += 3) {
            if (!alive.contains(pairs[i]) || !alive.contains(pairs[i + 1])) {
                return null;
            }
            removed(out, pairs[i + 2] - last - 1);
            out.add("(" + Entity.toString(pairs[i]) + ", " + Entity.toString(pairs[i + 1]) + ")");
            last = pairs[i + 2];
        }
        removed(out, EngineInternals.nextPairNumber(world, r) - last - 1);
        return out.toString();
    }

    private static void removed(List<String> out, long n) {
        if (n > 0) {
            out.add(n + " made and removed");
        }
    }

    /** The holders and targets of {@code pairs} ((holder, target, seq) triples) that are alive in both worlds. */
    private static void collect(long[] pairs, Set<Long> alive, Set<Long> holders, Set<Long> targets) {
        for (int i = 0; i + 2 < pairs.length; i += 3) {
            if (alive.contains(pairs[i])) {
                holders.add(pairs[i]);
            }
            if (alive.contains(pairs[i + 1])) {
                targets.add(pairs[i + 1]);
            }
        }
    }

    /** {@code [3v1, 4v1]}. */
    private static String ids(long[] entities) {
        return ids(entities, 0, entities.length);
    }

    /** {@code [1v2, 2v2, ...]}: {@code ids[from..to)}, with an ellipsis for what is left out either side. */
    static String ids(long[] ids, int from, int to) {
        StringBuilder s = new StringBuilder("[").append(from > 0 ? "..., " : "");
        for (int i = from; i < to; i++) {
            s.append(i == from ? "" : ", ").append(Entity.toString(ids[i]));
        }
        return s.append(to < ids.length ? ", ...]" : "]").toString();
    }

    /** Adds {@code d} to {@code out} while it holds fewer than {@code max}. */
    static void add(List<Difference> out, int max, Difference d) {
        if (out.size() < max) {
            out.add(d);
        }
    }

    /** Per field when both values are field maps (value components), else the whole values. */
    @SuppressWarnings("unchecked")
    private static void fieldDifferences(List<Difference> out, int max, String entity, String component, Object u, Object v) {
        if (u instanceof Map<?, ?> fu && v instanceof Map<?, ?> fv) {
            for (Map.Entry<String, Object> f : ((Map<String, Object>) fu).entrySet()) {
                Object other = ((Map<String, Object>) fv).get(f.getKey());
                if (!Objects.equals(f.getValue(), other)) {
                    add(out, max, new Difference(entity, component, f.getKey(), String.valueOf(f.getValue()),
                            String.valueOf(other)));
                }
            }
        } else {
            add(out, max, new Difference(entity, component, null, String.valueOf(u), String.valueOf(v)));
        }
    }

    /** {@code Position}, or {@code RenderData:Fog} for a named instance. */
    static String columnName(Component<?> c) {
        return c.name().equals(c.type().name()) ? c.name() : c.type().name() + ":" + c.name();
    }

    /** Entity id to (column name to its value: a map of field values, or the stored object, or a tag marker). */
    private static Map<Long, Map<String, Object>> contents(World world) {
        Map<Long, Map<String, Object>> out = new TreeMap<>();
        world.query().build().forEach((view, row) -> out.put(view.entity(row), new TreeMap<>()));
        for (Component<?> c : world.columns()) {
            String name = columnName(c);
            world.query().with(c).build().forEach((view, row) -> {
                long e = view.entity(row);
                Object value;
                List<Field> fields = c.fields();
                if (fields.isEmpty()) {
                    Object stored = view.get(c, row);
                    value = stored == null ? "tag" : stored;
                } else {
                    Map<String, Object> values = new TreeMap<>();
                    for (Field f : fields) {
                        values.put(f.name(), world.getValue(e, f));
                    }
                    value = values;
                }
                out.computeIfAbsent(e, k -> new TreeMap<>()).put(name, value);
            });
        }
        return out;
    }
}
