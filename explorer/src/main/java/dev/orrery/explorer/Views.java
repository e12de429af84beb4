package dev.orrery.explorer;

import dev.orrery.ecs.Query;
import dev.orrery.ecs.Relation;
import dev.orrery.ecs.Relations;
import dev.orrery.ecs.World;
import dev.orrery.ecs.component.Component;
import dev.orrery.ecs.component.Entity;
import dev.orrery.ecs.component.Field;
import dev.orrery.engine.ResourceCodec;
import dev.orrery.engine.Simulation;
import dev.orrery.scheduler.ResourceKey;
import dev.orrery.scheduler.graph.SystemDeclaration;
import dev.orrery.scheduler.graph.SystemGraph;
import dev.orrery.scheduler.internal.SchedulerInternals;
import java.io.ByteArrayOutputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The JSON views of a simulation the API answers with. Those that read the world run on the
 * tick thread at a safe point ({@link SafePoint}); {@link #graph} reads only the schedule,
 * which never changes once built.
 *
 * <p><b>Threading:</b> one instance per explorer; the world views are called on the tick
 * thread only (the query they share is the tick thread's), {@link #graph} on any thread.
 */
final class Views {
    /** Longest text shown for a reference component or a resource value. */
    private static final int TEXT_LIMIT = 300;

    private Query everything;

    /** The schedule: systems by phase with their sync points, the edges, and the DOT text to draw. */
    static String graph(Simulation sim) {
        SystemGraph g = SchedulerInternals.graph(sim.schedule());
        Json json = new Json().beginObject().key("phases").beginArray();
        for (int p = 0; p < g.phases().size(); p++) {
            json.beginObject().field("name", g.phases().get(p).name()).key("systems").beginArray();
            for (int s = g.phaseStart(p); s < g.phaseEnd(p); s++) {
                SystemDeclaration d = g.system(s);
                json.beginObject().field("index", s).field("name", d.name()).field("exclusive", d.exclusive())
                        .field("syncBefore", g.syncBefore(s)).field("syncReason", g.syncReason(s))
                        .field("access", String.valueOf(d.access())).endObject();
            }
            json.endArray().endObject();
        }
        json.endArray().key("edges").beginArray();
        for (SystemGraph.Edge e : g.edges()) {
            json.beginObject().field("from", e.from()).field("to", e.to()).field("label", e.label()).endObject();
        }
        return json.endArray().field("dot", g.toDot()).field("text", g.toText()).endObject().toString();
    }

    /** The schedule's system names in graph order. */
    static List<String> systemNames(Simulation sim) {
        SystemGraph g = SchedulerInternals.graph(sim.schedule());
        List<String> names = new ArrayList<>();
        for (int s = 0; s < g.size(); s++) {
            names.add(g.system(s).name());
        }
        return names;
    }

    /** Tick, workers, entities, hash, seed, command totals. Tick thread. */
    static void state(Simulation sim, Json json) {
        json.field("nextTick", sim.currentTick()).field("workers", sim.workers()).field("seed", sim.seed())
                .field("entities", sim.world().entityCount()).field("lastHash", String.format("0x%016x", sim.lastHash()))
                .field("skippedTicks", sim.skippedTicks()).field("stepSeconds", sim.clock().stepSeconds())
                .field("commands", String.valueOf(sim.commandTotals()));
    }

    /**
     * Archetypes by their table columns, with rows and chunks each, in creation order; then
     * the sparse columns. Read through a query over every entity (the archetypes themselves
     * are the ecs's internals). Tick thread.
     */
    String archetypes(World world) {
        if (everything == null) {
            everything = world.query().build();
        }
        List<Component<?>> table = new ArrayList<>();
        List<Component<?>> sparse = new ArrayList<>();
        for (Component<?> c : world.columns()) {
            (c.isSparse() ? sparse : table).add(c);
        }
        Map<String, long[]> groups = new LinkedHashMap<>(); // column names -> rows, chunks
        everything.forEachChunk(chunk -> {
            StringBuilder key = new StringBuilder();
            for (Component<?> c : table) {
                if (chunk.has(c)) {
                    key.append(key.length() == 0 ? "" : ",").append(c.name());
                }
            }
            long[] g = groups.computeIfAbsent(key.toString(), k -> new long[2]);
            g[0] += chunk.size();
            g[1]++;
        });
        Json json = new Json().beginObject().field("entities", world.entityCount()).key("archetypes").beginArray();
        for (Map.Entry<String, long[]> e : groups.entrySet()) {
            json.beginObject().key("columns").beginArray();
            for (String name : e.getKey().isEmpty() ? new String[0] : e.getKey().split(",")) {
                json.value(name);
            }
            json.endArray().field("rows", e.getValue()[0]).field("chunks", e.getValue()[1]).endObject();
        }
        json.endArray().key("sparse").beginArray();
        for (Component<?> c : sparse) {
            json.value(c.name());
        }
        return json.endArray().endObject().toString();
    }

    /** One entity's components and their fields, read through the property system. Tick thread. */
    static String entity(World world, long id) {
        Json json = new Json().beginObject().field("id", id).field("index", Entity.index(id))
                .field("alive", world.isAlive(id)).key("components").beginArray();
        if (world.isAlive(id)) {
            for (Component<?> c : world.columns()) {
                if (!world.has(id, c)) {
                    continue;
                }
                json.beginObject().field("name", c.name()).field("type", c.type().javaClass().getSimpleName())
                        .field("sparse", c.isSparse()).key("fields").beginArray();
                for (Field f : c.fields()) {
                    json.beginObject().field("name", f.name()).field("type", String.valueOf(f.type()))
                            .field("value", String.valueOf(read(world, id, c, f))).endObject();
                }
                json.endArray();
                if (c.fields().isEmpty()) {
                    json.field("text", clip(String.valueOf(world.get(id, c))));
                }
                json.endObject();
            }
        }
        json.endArray().key("relations").beginArray();
        if (world.isAlive(id)) {
            relations(world, id, json);
        }
        return json.endArray().endObject().toString();
    }

    /** Most holders of one pair the inspector lists (a squad's first children); the count is exact. */
    static final int MAX_HOLDERS = 32;

    /**
     * Per relation the entity is in: its targets (a child's parent) and the holders of pairs
     * that target it (a parent's children, the first {@link #MAX_HOLDERS} in their order, and
     * how many there are). Tick thread.
     */
    private static void relations(World world, long id, Json json) {
        Relations relations = world.relations();
        for (Relation r : relations.all()) {
            int targets = relations.targetCount(id, r);
            int holders = relations.holderCount(r, id);
            if (targets == 0 && holders == 0) {
                continue;
            }
            json.beginObject().field("name", r.name()).key("targets").beginArray();
            relations.forEachTarget(id, r, json::value);
            json.endArray().field("holderCount", holders).key("holders").beginArray();
            int[] listed = {0};
            relations.forEachHolder(r, id, h -> {
                if (listed[0]++ < MAX_HOLDERS) {
                    json.value(h);
                }
            });
            json.endArray().endObject();
        }
    }

    /** By instance name ({@code World.getProperty}); an unnamed column whose name is shared falls back to the field. */
    private static Object read(World world, long id, Component<?> c, Field f) {
        try {
            return world.getProperty(id, c.name(), f.name());
        } catch (IllegalArgumentException e) {
            return world.getValue(id, f);
        }
    }

    /** Component types registered under more than one instance name, or under a name of their own. Tick thread. */
    static String named(World world) {
        Map<String, List<String>> byType = new LinkedHashMap<>();
        for (Component<?> c : world.columns()) {
            byType.computeIfAbsent(c.type().javaClass().getSimpleName(), k -> new ArrayList<>()).add(c.name());
        }
        Json json = new Json().beginArray();
        for (Map.Entry<String, List<String>> e : byType.entrySet()) {
            List<String> names = e.getValue();
            if (names.size() > 1 || !names.get(0).equals(e.getKey())) {
                json.beginObject().field("type", e.getKey()).key("instances").beginArray();
                names.forEach(json::value);
                json.endArray().endObject();
            }
        }
        return json.endArray().toString();
    }

    /**
     * Every resource: its name and type; for one with a codec (what a snapshot carries) its
     * encoded size and its value as text. Tick thread.
     */
    static String resources(Simulation sim) {
        Json json = new Json().beginArray();
        for (ResourceKey<?> key : sim.resources().keys()) {
            json.beginObject().field("name", key.name()).field("type", key.type().getSimpleName());
            ResourceCodec<?> codec = sim.resourceCodecs().of(key);
            json.field("codec", codec != null);
            if (codec != null) {
                json.field("bytes", encodedSize(sim, key)).field("text", clip(String.valueOf(sim.resources().value(key))));
            }
            json.endObject();
        }
        return json.endArray().toString();
    }

    private static <T> long encodedSize(Simulation sim, ResourceKey<T> key) {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        try (DataOutputStream out = new DataOutputStream(bytes)) {
            sim.resourceCodecs().of(key).write(sim.resources().value(key), out);
        } catch (IOException e) {
            return -1;
        }
        return bytes.size();
    }

    private static String clip(String s) {
        return s.length() <= TEXT_LIMIT ? s : s.substring(0, TEXT_LIMIT) + "...";
    }
}
