package dev.orrery.explorer;

import dev.orrery.ecs.Relation;
import dev.orrery.ecs.Relations;
import dev.orrery.ecs.World;
import dev.orrery.ecs.component.Component;
import dev.orrery.ecs.component.ComponentKind;
import dev.orrery.ecs.component.Entity;
import dev.orrery.ecs.component.Field;
import dev.orrery.ecs.component.FieldType;
import dev.orrery.engine.Clock;
import dev.orrery.engine.CounterRandom;
import dev.orrery.engine.InputBatch;
import dev.orrery.engine.ResourceCodec;
import dev.orrery.engine.Simulation;
import dev.orrery.engine.TickProgress;
import dev.orrery.engine.internal.EngineInternals;
import dev.orrery.scheduler.ResourceKey;
import dev.orrery.scheduler.graph.SystemDeclaration;
import dev.orrery.scheduler.graph.SystemGraph;
import dev.orrery.scheduler.internal.SchedulerInternals;
import java.util.AbstractCollection;
import java.util.AbstractMap;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;
import java.util.function.LongConsumer;

/**
 * The JSON views of one entity, the schedule, the state, the named instances and the
 * resources. Those that read the world run on the tick thread at a safe point
 * ({@link SafePoint}) and read a bounded amount (one entity, the resources); {@link #graph}
 * reads only the schedule, which never changes once built.
 *
 * <p><b>Threading:</b> stateless; the world views on the tick thread only, {@link #graph},
 * {@link #systemNames} and {@link #stateOffTick} on any thread.
 */
final class Views {
    /** Longest text shown for a reference component or a resource value. */
    static final int TEXT_LIMIT = 300;
    /**
     * Most bytes of a resource's encoding the resources view lets its codec write: past it the
     * codec is stopped and the size shown as "more than" this, so a resource's cost on the tick
     * thread does not grow with its size.
     */
    static final int ENCODED_LIMIT = 64 * 1024;
    /** First bytes of a resource's encoding shown, in hex. */
    static final int HEX_SHOWN = 24;
    /** Most holders of one pair the inspector lists (a squad's first children); the count is exact. */
    static final int MAX_HOLDERS = 32;

    private Views() {
    }

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

    /**
     * Next tick, workers, hash (null before a hashed tick: the simulation hashes only when
     * recording or asked to), seed, skipped ticks and command totals; the entity count is the
     * summary's figure of the last tick ({@link TickFigures#summarize}), so one key says it. Tick thread.
     */
    static void state(Simulation sim, Json json) {
        state(json, sim, sim.currentTick(), sim.lastHash(), String.valueOf(sim.failurePolicy()),
                String.valueOf(sim.commandTotals()));
    }

    /**
     * The state's fields as {@link #state} writes them, from what the simulation publishes to
     * any thread, for a summary made when no safe point came: the next tick and the last hash
     * read together ({@link Simulation#progress()}), workers, seed, skipped ticks and the step;
     * the failure policy and the command totals are the tick thread's, so they are null here.
     * {@code p} is {@code sim.progress()}, read by the caller (who bounds the figures by it).
     * Any thread.
     */
    static String stateOffTick(Simulation sim, TickProgress p) {
        Json json = new Json().beginObject();
        state(json, sim, p.nextTick(), p.hash(), null, null);
        return json.endObject().toString();
    }

    /** The state's fields in their order; {@code hash} 0 (none yet) and null strings are written null. */
    private static void state(Json json, Simulation sim, long nextTick, long hash, String policy, String commands) {
        json.field("nextTick", nextTick).field("workers", sim.workers()).field("seed", sim.seed())
                .field("lastHash", hash == 0 ? null : String.format("0x%016x", hash))
                .field("skippedTicks", sim.skippedTicks()).field("stepSeconds", sim.clock().stepSeconds())
                .field("failurePolicy", policy).field("commands", commands);
    }

    /**
     * What holds dead id {@code id}'s slot now, and what to do: open the entity there, or copy a
     * live id. An id of another generation names an entity that died, or one never handed out.
     */
    static String slotNow(World world, long id) {
        int index = Entity.index(id);
        long now = EngineInternals.liveIdAt(world, index);
        if (now == Entity.NULL) {
            return "index " + index + " holds no live entity now (the entity died, or the id was never handed out); "
                    + "copy a live id from a list, the tree, the map or a search";
        }
        String why = Entity.generation(now) > Entity.generation(id)
                ? "a later entity in the slot, so this id is stale (its entity died) or was never handed out"
                : "an earlier generation than this id's, so this id was never handed out (yet)";
        return "index " + index + " holds " + Entity.toString(now) + " (id " + now + ") now, " + why + "; open "
                + Entity.toString(now) + " if that is the one, or copy a live id from a list, the tree, the map or a "
                + "search";
    }

    /**
     * One entity: its id parts, whether it lives, its components with their fields (each with
     * its value, whether the page may edit it and why not, and the entity it refers to when
     * it holds a live id), and its relations. Tick thread.
     */
    static String entity(World world, long id, EditRules rules) {
        Json json = new Json().beginObject().field("id", id).field("text", Entity.toString(id))
                .field("index", Entity.index(id)).field("generation", Entity.generation(id));
        boolean alive = id != Entity.NULL && Entity.index(id) >= 0 && world.isAlive(id);
        json.field("alive", alive);
        if (!alive) {
            json.field("message", Entity.index(id) < 0
                    ? "no entity has id " + id + ": an id is a long whose low 32 bits are the index (never negative) "
                            + "and whose high 32 bits the generation; copy one from a list, the tree or the map"
                    : "entity " + id + " (index " + Entity.index(id) + ", generation " + Entity.generation(id)
                            + ") is not alive: " + slotNow(world, id));
        }
        json.key("components").beginArray();
        if (alive) {
            for (Component<?> c : world.columns()) {
                if (world.has(id, c)) {
                    component(world, id, c, rules, json);
                }
            }
        }
        json.endArray().key("relations").beginArray();
        if (alive) {
            relations(world, id, json);
        }
        return json.endArray().endObject().toString();
    }

    private static void component(World world, long id, Component<?> c, EditRules rules, Json json) {
        json.beginObject().field("name", c.name()).field("type", c.type().javaClass().getSimpleName())
                .field("sparse", c.isSparse()).field("kind", String.valueOf(c.kind()))
                .field("relation", c.isRelationMarker()).key("fields").beginArray();
        for (Field f : c.fields()) {
            Object value = world.getValue(id, f);
            json.beginObject().field("name", f.name()).field("type", String.valueOf(f.type()))
                    .field("value", text(value));
            String readOnly = rules.readOnly(c, f);
            if (readOnly == null) {
                json.field("editable", true);
            } else {
                json.field("editable", false).field("readOnly", readOnly);
            }
            long ref = reference(world, c, f, value);
            if (ref != Entity.NULL) {
                json.field("ref", ref).field("refText", Entity.toString(ref));
            }
            json.endObject();
        }
        json.endArray();
        if (c.kind() == ComponentKind.REFERENCE || c.fields().isEmpty() && c.kind() != ComponentKind.TAG) {
            json.field("text", text(world.get(id, c)));
        }
        if (c.relation() instanceof Relation r && !r.exclusive()) {
            int n = world.relations().targetCount(id, r);
            if (n > 1) { // the marker's one field holds the first target only
                json.field("targets", n).field("text", n + " targets: " + targets(world, id, r, MAX_HOLDERS)
                        + " (the target field holds the first; every pair is under relation " + r.name() + ")");
            }
        }
        json.endObject();
    }

    /**
     * For the marker column of a relation that is not exclusive, whose one field holds the
     * first target: " (+N more targets)" where {@code id} holds more pairs; "" otherwise. Tick thread.
     */
    static String moreTargets(World world, long id, Component<?> c) {
        if (c.relation() instanceof Relation r && !r.exclusive()) {
            int more = world.relations().targetCount(id, r) - 1;
            return more > 0 ? " (+" + more + " more target" + (more == 1 ? "" : "s") + ")" : "";
        }
        return "";
    }

    /**
     * {@code id}'s targets of relation {@code r} in pair order, as ids joined by ", ", the first
     * {@code max} and how many more. Tick thread.
     */
    static String targets(World world, long id, Relation r, int max) {
        return listed(each -> world.relations().forEachTarget(id, r, each), max);
    }

    /**
     * The holders of pairs of relation {@code r} that target {@code id}, in pair order (a
     * parent's children), as ids joined by ", ", the first {@code max} and how many more. Tick
     * thread.
     */
    static String holders(World world, Relation r, long id, int max) {
        return listed(each -> world.relations().forEachHolder(r, id, each), max);
    }

    /** The ids {@code walk} hands its consumer, joined by ", ": the first {@code max} and how many more. */
    private static String listed(Consumer<LongConsumer> walk, int max) {
        StringBuilder out = new StringBuilder();
        int[] listed = {0};
        walk.accept(e -> {
            if (listed[0]++ < max) {
                out.append(out.length() == 0 ? "" : ", ").append(e);
            }
        });
        if (listed[0] > max) {
            out.append(" and ").append(listed[0] - max).append(" more");
        }
        return out.toString();
    }

    /**
     * The live entity a field's value refers to, or {@link Entity#NULL}: a field declared an
     * entity reference, a relation's target, or any {@code long} field whose value is a live id.
     */
    static long reference(World world, Component<?> c, Field f, Object value) {
        if (f.type() != FieldType.LONG || !(value instanceof Long v) || v == Entity.NULL || Entity.index(v) < 0) {
            return Entity.NULL;
        }
        return world.isAlive(v) ? v : Entity.NULL;
    }

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
     * Every resource: its name, type and value as text (the engine's own resources described,
     * others by their {@code toString} when they have one); for one with a codec (what a
     * snapshot carries) its encoded size and first bytes. The codec is stopped past
     * {@link #ENCODED_LIMIT} bytes ({@link EncodedHead}): then {@code bytes} is that limit and
     * {@code bytesMore} is true (the size is more than that). {@code bytes} is {@code null}
     * when the codec failed. Tick thread.
     */
    static String resources(Simulation sim) {
        Json json = new Json().beginArray();
        for (ResourceKey<?> key : sim.resources().keys()) {
            Object value = sim.resources().value(key);
            json.beginObject().field("name", key.name()).field("type", key.type().getSimpleName())
                    .field("text", describe(value));
            ResourceCodec<?> codec = sim.resourceCodecs().of(key);
            json.field("codec", codec != null);
            if (codec != null) {
                EncodedHead encoded = encoded(sim, key);
                if (encoded == null) {
                    json.key("bytes").nullValue();
                } else {
                    json.field("bytes", encoded.size);
                    if (encoded.more) {
                        json.field("bytesMore", true);
                    }
                    json.field("hex", hex(encoded.head, encoded.size > encoded.head.length || encoded.more));
                }
            }
            json.endObject();
        }
        return json.endArray().toString();
    }

    /**
     * An entity's fields as text by {@code Component.field} (a relation with several targets
     * per holder: {@code R.targets}, up to {@code maxTargets}), then per relation whose pairs
     * target it the holders in pair order ({@code ChildOf.holders}: a parent's children, which
     * its view lists; up to {@code maxTargets}), or null when it is not alive.
     */
    static Map<String, String> fields(World w, long id, int maxTargets) {
        if (id == Entity.NULL || Entity.index(id) < 0 || !w.isAlive(id)) {
            return null;
        }
        Map<String, String> out = new LinkedHashMap<>();
        for (Component<?> c : w.columns()) {
            if (!w.has(id, c)) {
                continue;
            }
            if (c.fields().isEmpty()) {
                out.put(c.name(), "present");
            }
            if (c.relation() instanceof Relation r && !r.exclusive()) {
                // the marker's field holds the first target only: a second pair would go unseen
                out.put(c.name() + ".targets", targets(w, id, r, maxTargets));
                continue;
            }
            for (Field f : c.fields()) {
                out.put(c.name() + "." + f.name(), text(w.getValue(id, f)));
            }
        }
        for (Relation r : w.relations().all()) {
            if (w.relations().holderCount(r, id) > 0) { // a parent's children are in no field of its own
                out.put(r.name() + ".holders", holders(w, r, id, maxTargets));
            }
        }
        return out;
    }

    /**
     * A field's or a component's value as text: a primitive as it is; an object (a reference
     * component's) as {@link #describe} writes it, so one without a {@code toString} says so
     * rather than showing an identity hash (which differs in every replay), and one whose
     * {@code toString} throws is shown, not failed.
     */
    static String text(Object value) {
        if (value instanceof Number || value instanceof Boolean || value instanceof Character) {
            return String.valueOf(value);
        }
        return describe(value);
    }

    /** A resource's value as text: the engine's own described, a value with a toString by it, else its type. */
    static String describe(Object value) {
        if (value == null) {
            return "null";
        }
        if (value instanceof Clock c) {
            return "tick " + c.tick() + ", step " + c.stepSeconds() + " s, elapsed " + Math.round(c.elapsedSeconds()
                    * 1000) / 1000.0 + " s";
        }
        if (value instanceof CounterRandom r) {
            return "counter-based random, seed " + r.seed();
        }
        if (value instanceof InputBatch in) {
            return in.size() + " inputs this tick";
        }
        try {
            if (value.getClass().getMethod("toString").getDeclaringClass() == Object.class) {
                return "(a " + value.getClass().getSimpleName() + " without a toString: give it one, or a codec, "
                        + "to see its value here)";
            }
        } catch (NoSuchMethodException impossible) {
            // every object has toString
        }
        try {
            StringBuilder text = new StringBuilder();
            appendClipped(text, value);
            return clip(text.toString());
        } catch (RuntimeException e) {
            return "(its toString failed: " + e + ")";
        }
    }

    /**
     * Appends {@code value}'s {@code toString}, or enough of it for {@link #clip}: a collection
     * or map whose {@code toString} is {@link AbstractCollection}'s or {@link AbstractMap}'s
     * (an {@code ArrayList}, a {@code HashMap}, a {@code List.of}) is written here as those
     * write it, and only until the text passes {@link #TEXT_LIMIT}, the collections in it
     * likewise; so a long one costs the tick thread no more than a short one, and the clipped
     * text is the same. Any other value's own {@code toString} runs in full.
     */
    private static void appendClipped(StringBuilder sb, Object value) {
        if (sb.length() > TEXT_LIMIT) {
            return;
        }
        if (value instanceof Collection<?> c && toStringOf(c) == AbstractCollection.class) {
            Iterator<?> it = c.iterator();
            sb.append('[');
            while (it.hasNext() && sb.length() <= TEXT_LIMIT) {
                Object e = it.next();
                if (e == c) {
                    sb.append("(this Collection)");
                } else {
                    appendClipped(sb, e);
                }
                sb.append(it.hasNext() ? ", " : "");
            }
            sb.append(']');
        } else if (value instanceof Map<?, ?> m && toStringOf(m) == AbstractMap.class) {
            Iterator<? extends Map.Entry<?, ?>> it = m.entrySet().iterator();
            sb.append('{');
            while (it.hasNext() && sb.length() <= TEXT_LIMIT) {
                Map.Entry<?, ?> e = it.next();
                appendEntryPart(sb, e.getKey(), m);
                sb.append('=');
                appendEntryPart(sb, e.getValue(), m);
                sb.append(it.hasNext() ? ", " : "");
            }
            sb.append('}');
        } else {
            sb.append(value);
        }
    }

    private static void appendEntryPart(StringBuilder sb, Object part, Map<?, ?> map) {
        if (part == map) {
            sb.append("(this Map)");
        } else {
            appendClipped(sb, part);
        }
    }

    /** The class that declares {@code value}'s {@code toString}. */
    private static Class<?> toStringOf(Object value) {
        try {
            return value.getClass().getMethod("toString").getDeclaringClass();
        } catch (NoSuchMethodException impossible) {
            return Object.class; // every object has toString
        }
    }

    private static <T> EncodedHead encoded(Simulation sim, ResourceKey<T> key) {
        return EncodedHead.of(sim.resourceCodecs().of(key), sim.resources().value(key), HEX_SHOWN, ENCODED_LIMIT);
    }

    /** {@code bytes} in hex, four to a group, and " ..." when {@code cut} (more bytes follow). */
    private static String hex(byte[] bytes, boolean cut) {
        StringBuilder sb = new StringBuilder();
        for (int i = 0; i < bytes.length; i++) {
            sb.append(String.format("%02x", bytes[i] & 0xff));
            if (i % 4 == 3) {
                sb.append(' ');
            }
        }
        return sb.toString().strip() + (cut ? " ..." : "");
    }

    static String clip(String s) {
        return s.length() <= TEXT_LIMIT ? s : s.substring(0, TEXT_LIMIT) + "...";
    }
}
