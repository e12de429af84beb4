package dev.orrery.testkit;

import dev.orrery.ecs.World;
import dev.orrery.ecs.component.Component;
import dev.orrery.ecs.component.Entity;
import dev.orrery.ecs.component.Field;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * Compares two worlds of the same game, entity by entity and field by field: what the kit
 * reports when their state hashes differ. Cold path; allocates freely.
 */
final class WorldDiff {
    private WorldDiff() {
    }

    /**
     * The differences between {@code reference} and {@code actual}, at most {@code max} of them,
     * in entity order; {@code components} receives every component whose values differ.
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
        return out;
    }

    private static void add(List<Difference> out, int max, Difference d) {
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

    /** Entity id to (column name to its value: a map of field values, or the stored object, or a tag marker). */
    private static Map<Long, Map<String, Object>> contents(World world) {
        Map<Long, Map<String, Object>> out = new TreeMap<>();
        world.query().build().forEach((view, row) -> out.put(view.entity(row), new TreeMap<>()));
        for (Component<?> c : world.columns()) {
            String name = c.name().equals(c.type().name()) ? c.name() : c.type().name() + ":" + c.name();
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
