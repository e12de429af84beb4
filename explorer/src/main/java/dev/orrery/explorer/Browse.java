package dev.orrery.explorer;

import dev.orrery.ecs.Hierarchy;
import dev.orrery.ecs.Query;
import dev.orrery.ecs.Relation;
import dev.orrery.ecs.World;
import dev.orrery.ecs.component.Component;
import dev.orrery.ecs.component.Entity;
import dev.orrery.ecs.component.Field;
import dev.orrery.engine.Simulation;
import dev.orrery.scheduler.BatchDecision;
import dev.orrery.scheduler.ResourceKey;
import dev.orrery.scheduler.executor.ExecutionPlan;
import dev.orrery.scheduler.executor.ScheduledSystem;
import dev.orrery.scheduler.graph.SystemGraph;
import dev.orrery.scheduler.internal.SchedulerInternals;
import java.util.ArrayList;
import java.util.BitSet;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Finding and browsing the world: the archetypes, a query's matches a page at a time, the
 * {@code ChildOf} tree a level at a time, a search by id, name or component, and the systems
 * with what they match. Each read visits the world's chunks or one page of rows, never every
 * entity's fields, so its time on the tick thread stays small; the explorer shares each
 * answer among the requests of the next moments ({@link SafePoint#shared}).
 *
 * <p>It iterates queries of its own, never a system's (iterating one would move the
 * system's change-detection mark), and only looks ({@code Query.forEachChunkReadOnly}): a
 * look takes no change tick, so the world's change clock, which snapshots keep, is the same
 * with or without the explorer. A query typed on the page is kept (the last
 * {@link #KEPT_QUERIES}), so {@code changed(...)} means "since the explorer last ran it".
 *
 * <p><b>Threading:</b> one instance per explorer; every method on the tick thread at a safe
 * point (the queries and caches are the tick thread's).
 *
 * <p>(Just over 500 lines: each view here (archetypes, a query's page, the {@code ChildOf} tree,
 * search, the per-system table) is one method writing one JSON answer from the world, and they
 * share the archetype listing and the row writer; the query language itself is apart, in
 * {@code QueryText}.)
 */
final class Browse {
    /** Most entities on one page. */
    static final int MAX_PAGE = 200;
    /** Queries typed on the page kept for their change marks. */
    static final int KEPT_QUERIES = 32;
    /** Most search results. */
    static final int MAX_RESULTS = 40;
    private static final Pattern TERMS = Pattern.compile(
            "all=\\[([0-9, ]*)\\], none=\\[([0-9, ]*)\\], any=\\[([0-9, ]*)\\]");

    private final Map<String, Parsed> queries = new LinkedHashMap<>(16, 0.75f, true) {
        private static final long serialVersionUID = 1L;

        @Override
        protected boolean removeEldestEntry(Map.Entry<String, Parsed> eldest) {
            return size() > KEPT_QUERIES;
        }
    };
    private Query everything;
    /** The world the cached queries are of: the timeline's replays bring new worlds. */
    private World cachedFor;

    /** One archetype as the explorer sees it: its table columns (in registration order), rows and chunks. */
    record Archetype(String key, List<Component<?>> columns, BitSet ids, long rows, long chunks) {
    }

    private record Parsed(Query query, QueryText text) {
    }

    /**
     * The archetypes with rows, by their table columns, in creation order; read through a
     * query over every entity (the archetypes themselves are the ecs's internals). Visits
     * every chunk, not every row.
     */
    /** Forgets the queries of another world than {@code world}. */
    private void of(World world) {
        if (cachedFor != world) {
            cachedFor = world;
            queries.clear();
            everything = null;
        }
    }

    List<Archetype> archetypes(World world) {
        of(world);
        if (everything == null) {
            everything = world.query().build();
        }
        List<Component<?>> table = new ArrayList<>();
        for (Component<?> c : world.columns()) {
            if (!c.isSparse()) {
                table.add(c);
            }
        }
        Map<BitSet, long[]> groups = new LinkedHashMap<>();
        BitSet scratch = new BitSet();
        everything.forEachChunkReadOnly(chunk -> {
            scratch.clear();
            for (int i = 0; i < table.size(); i++) {
                if (chunk.has(table.get(i))) {
                    scratch.set(i);
                }
            }
            long[] g = groups.get(scratch);
            if (g == null) {
                g = new long[2];
                groups.put((BitSet) scratch.clone(), g);
            }
            g[0] += chunk.size();
            g[1]++;
        });
        List<Archetype> out = new ArrayList<>();
        for (Map.Entry<BitSet, long[]> e : groups.entrySet()) {
            List<Component<?>> cols = new ArrayList<>();
            BitSet ids = new BitSet();
            StringBuilder key = new StringBuilder();
            for (int i = e.getKey().nextSetBit(0); i >= 0; i = e.getKey().nextSetBit(i + 1)) {
                cols.add(table.get(i));
                ids.set(table.get(i).id());
                key.append(key.length() == 0 ? "" : ",").append(table.get(i).name());
            }
            out.add(new Archetype(key.toString(), cols, ids, e.getValue()[0], e.getValue()[1]));
        }
        return out;
    }

    /**
     * The archetypes as JSON: each with its columns, rows, chunks and the query that lists
     * exactly its entities; then the sparse columns.
     */
    String archetypesJson(World world) {
        List<Archetype> list = archetypes(world);
        List<Component<?>> table = new ArrayList<>();
        List<Component<?>> sparse = new ArrayList<>();
        for (Component<?> c : world.columns()) {
            (c.isSparse() ? sparse : table).add(c);
        }
        Json json = new Json().beginObject().field("count", list.size()).key("archetypes").beginArray();
        for (Archetype a : list) {
            json.beginObject().key("columns").beginArray();
            a.columns().forEach(c -> json.value(c.name()));
            json.endArray().field("rows", a.rows()).field("chunks", a.chunks()).field("query", exactQuery(a, table))
                    .endObject();
        }
        json.endArray().key("sparse").beginArray();
        for (Component<?> c : sparse) {
            json.beginObject().field("name", c.name()).field("rows", world.query().with(c).build().count())
                    .endObject();
        }
        json.endArray().key("relations").beginArray();
        for (Relation r : world.relations().all()) {
            json.beginObject().field("name", r.name()).field("pairs", world.relations().pairCount(r))
                    .field("exclusive", r.exclusive()).field("acyclic", r.acyclic()).endObject();
        }
        return json.endArray().endObject().toString();
    }

    /** The query text matching exactly archetype {@code a}: its columns, and none of the other table columns. */
    private static String exactQuery(Archetype a, List<Component<?>> table) {
        StringBuilder q = new StringBuilder();
        for (Component<?> c : a.columns()) {
            q.append(q.length() == 0 ? "" : ", ").append(c.name());
        }
        for (Component<?> c : table) {
            if (!a.columns().contains(c)) {
                q.append(q.length() == 0 ? "" : ", ").append('!').append(c.name());
            }
        }
        return q.toString();
    }

    /**
     * A query typed on the page: its terms, the match count, the matching archetypes with
     * their matching rows, and page {@code page} of {@code size} entities with the fields of
     * the components it names.
     *
     * @throws QueryText.BadQuery for a query that does not parse
     */
    String query(World world, String text, int page, int size) {
        of(world);
        Parsed p = queries.get(text);
        if (p == null) {
            QueryText qt = new QueryText();
            p = new Parsed(QueryText.parse(world, text, qt), qt);
            queries.put(text, p);
        }
        Query q = p.query();
        QueryText qt = p.text();
        int from = page * size;
        List<Component<?>> table = new ArrayList<>();
        for (Component<?> c : world.columns()) {
            if (!c.isSparse()) {
                table.add(c);
            }
        }
        Map<String, long[]> byArchetype = new LinkedHashMap<>();
        long[] ids = new long[size];
        int[] taken = {0};
        long[] seen = {0};
        if (qt.rowFiltered) {
            Object[] lastChunk = {null};
            long[][] current = {null};
            q.forEachReadOnly((chunk, row) -> {
                if (chunk.entities() != lastChunk[0]) {
                    lastChunk[0] = chunk.entities();
                    current[0] = byArchetype.computeIfAbsent(key(chunk, table), k -> new long[1]);
                }
                current[0][0]++;
                if (seen[0] >= from && taken[0] < size) {
                    ids[taken[0]++] = chunk.entity(row);
                }
                seen[0]++;
            });
        } else {
            q.forEachChunkReadOnly(chunk -> {
                int n = chunk.size();
                byArchetype.computeIfAbsent(key(chunk, table), k -> new long[1])[0] += n;
                for (int i = (int) Math.max(0, from - seen[0]); i < n && taken[0] < size; i++) {
                    ids[taken[0]++] = chunk.entity(i);
                }
                seen[0] += n;
            });
        }
        long count = qt.changeFiltered || qt.rowFiltered ? seen[0] : q.count();
        long pages = (count + size - 1) / size;
        Json json = new Json().beginObject().field("query", text).field("terms", qt.description.toString())
                .field("count", count).field("changeFiltered", qt.changeFiltered).field("rowFiltered", qt.rowFiltered)
                .field("page", page).field("size", size).field("pages", pages);
        qt.noteDeadTargets(world, json); // a pair on a dead target matches nothing: say so
        if (count > 0 && page >= pages) { // an empty page of a query that matches: say which pages there are
            json.field("message", "page " + page + " is past the last page: the query's " + count + " entities fill "
                    + "pages 0 to " + (pages - 1) + " (" + size + " a page); ask for page=0 to " + (pages - 1));
        }
        json.key("archetypes").beginArray();
        byArchetype.forEach((k, rows) -> {
            json.beginObject().key("columns").beginArray();
            if (!k.isEmpty()) {
                for (String name : k.split(",")) {
                    json.value(name);
                }
            }
            json.endArray().field("rows", rows[0]).endObject();
        });
        json.endArray().key("columns").beginArray();
        for (Component<?> c : qt.shown) {
            json.beginObject().field("name", c.name()).key("fields").beginArray();
            c.fields().forEach(f -> json.value(f.name()));
            json.endArray().endObject();
        }
        json.endArray().key("entities").beginArray();
        for (int i = 0; i < taken[0]; i++) {
            row(world, ids[i], qt.shown, json);
        }
        return json.endArray().endObject().toString();
    }

    /** One entity of a page: its id and, per shown component, its field values (null when it has none of it). */
    static void row(World world, long id, List<Component<?>> shown, Json json) {
        json.beginObject().field("id", id).field("text", Entity.toString(id)).key("values").beginArray();
        for (Component<?> c : shown) {
            if (!world.isAlive(id) || !world.has(id, c)) {
                json.nullValue();
                continue;
            }
            json.beginArray();
            for (Field f : c.fields()) {
                Object v = world.getValue(id, f);
                long ref = Views.reference(world, c, f, v);
                if (ref == Entity.NULL) {
                    json.value(Views.text(v));
                } else {
                    json.beginObject().field("v", v + Views.moreTargets(world, id, c)).field("ref", ref).endObject();
                }
            }
            json.endArray();
        }
        json.endArray().endObject();
    }

    private static String key(dev.orrery.ecs.ChunkView chunk, List<Component<?>> table) {
        StringBuilder k = new StringBuilder();
        for (Component<?> c : table) {
            if (chunk.has(c)) {
                k.append(k.length() == 0 ? "" : ",").append(c.name());
            }
        }
        return k.toString();
    }

    /**
     * One level of the {@code ChildOf} tree: the roots (entities with children and no parent)
     * when {@code parent} is {@link Entity#NULL}, else the children of {@code parent}; page
     * {@code page} of {@code size}, each node with a label (its components) and its child
     * count, so the page opens a node only when asked.
     */
    String tree(World world, long parent, int page, int size) {
        Relation childOf = relation(world, "ChildOf");
        Json json = new Json().beginObject();
        if (parent == Entity.NULL) {
            json.key("parent").nullValue();
        } else {
            json.field("parent", parent);
        }
        if (childOf == null) {
            return json.field("count", 0).field("message", "this world has no ChildOf relation: nothing is a tree")
                    .key("nodes").beginArray().endArray().endObject().toString();
        }
        long[] page0;
        int count;
        int from = page * size;
        if (parent == Entity.NULL) {
            Hierarchy h = world.relations().hierarchy(childOf);
            int start = h.levels() == 0 ? 0 : h.levelStart(0);
            int end = h.levels() == 0 ? 0 : h.levelEnd(0);
            count = end - start;
            int n = Math.max(0, Math.min(size, count - from));
            page0 = new long[n];
            for (int i = 0; i < n; i++) {
                page0[i] = h.entity(start + from + i);
            }
        } else {
            count = world.isAlive(parent) ? world.relations().holderCount(childOf, parent) : 0;
            long[] out = new long[Math.max(0, Math.min(size, count - from))];
            int[] i = {0};
            if (out.length > 0) {
                world.relations().forEachHolder(childOf, parent, h -> {
                    int at = i[0]++;
                    if (at >= from && at - from < out.length) {
                        out[at - from] = h;
                    }
                });
            }
            page0 = out;
        }
        json.field("count", count).field("page", page).field("size", size).key("nodes").beginArray();
        for (long id : page0) {
            json.beginObject().field("id", id).field("text", Entity.toString(id)).field("label", label(world, id))
                    .field("children", world.relations().holderCount(childOf, id)).endObject();
        }
        return json.endArray().endObject().toString();
    }

    /** An entity's label: its component names (those of relations left out), the first four. */
    static String label(World world, long id) {
        if (!world.isAlive(id)) {
            return "(not alive)";
        }
        StringBuilder s = new StringBuilder();
        int n = 0;
        for (Component<?> c : world.columns()) {
            if (c.isRelationMarker() || !world.has(id, c)) {
                continue;
            }
            if (n++ == 4) {
                s.append(", ...");
                break;
            }
            s.append(s.length() == 0 ? "" : ", ").append(c.name());
        }
        return s.length() == 0 ? "(no components)" : s.toString();
    }

    private static Relation relation(World world, String name) {
        for (Relation r : world.relations().all()) {
            if (r.name().equals(name)) {
                return r;
            }
        }
        return null;
    }

    /**
     * What {@code text} finds: the entity with that id (a decimal long or 12v3), component
     * instances and types whose name contains it (with their entity counts), relations,
     * resources and systems; each with the page address that shows it.
     */
    String search(Simulation sim, String text) {
        World world = sim.world();
        String t = text == null ? "" : text.strip();
        String lower = t.toLowerCase(Locale.ROOT);
        Json json = new Json().beginObject().field("text", t).key("results").beginArray();
        int[] n = {0};
        if (!t.isEmpty()) {
            try {
                long id = QueryText.entityId(t, t);
                boolean alive = id != Entity.NULL && Entity.index(id) >= 0 && world.isAlive(id);
                result(json, n, "entity", Entity.toString(id) + " (" + id + ")", alive ? label(world, id)
                        : "not alive", "#/entity/" + id);
            } catch (QueryText.BadQuery notAnId) {
                // not an id: names only
            }
            for (Component<?> c : world.columns()) {
                String type = c.type().javaClass().getSimpleName();
                if (c.name().toLowerCase(Locale.ROOT).contains(lower)
                        || type.toLowerCase(Locale.ROOT).contains(lower)) {
                    int count = world.query().with(c).build().count();
                    result(json, n, c.isRelationMarker() ? "relation" : "component", c.name(),
                            (c.name().equals(type) ? "" : "an instance of " + type + ", ") + count + " entities"
                                    + (c.isSparse() ? ", sparse" : ""), "#/query?q=" + encode(c.name()));
                }
            }
            for (ResourceKey<?> k : sim.resources().keys()) {
                if (k.name().toLowerCase(Locale.ROOT).contains(lower)) {
                    result(json, n, "resource", k.name(), k.type().getSimpleName(), "#/world");
                }
            }
            for (String s : Views.systemNames(sim)) {
                if (s.toLowerCase(Locale.ROOT).contains(lower)) {
                    result(json, n, "system", s, "", "#/schedule");
                }
            }
        }
        return json.endArray().field("more", n[0] > MAX_RESULTS).endObject().toString();
    }

    private static void result(Json json, int[] n, String kind, String name, String detail, String link) {
        if (n[0]++ >= MAX_RESULTS) {
            return;
        }
        json.beginObject().field("kind", kind).field("name", name).field("detail", detail).field("link", link)
                .endObject();
    }

    static String encode(String s) {
        return java.net.URLEncoder.encode(s, java.nio.charset.StandardCharsets.UTF_8).replace("+", "%20");
    }

    /**
     * The systems in graph order with what they match and do: the phase, whether exclusive,
     * the entities and archetypes their query matches (none for an exclusive or range system),
     * and how the executor split them into jobs at their last run.
     */
    List<SystemRow> systems(Simulation sim) {
        SystemGraph g = SchedulerInternals.graph(sim.schedule());
        ExecutionPlan plan = SchedulerInternals.plan(sim.schedule());
        List<Archetype> archetypes = archetypes(sim.world());
        Map<String, BatchDecision> batching = new HashMap<>();
        for (BatchDecision d : sim.batching()) {
            batching.put(d.system(), d);
        }
        List<SystemRow> out = new ArrayList<>();
        for (int p = 0; p < g.phases().size(); p++) {
            for (int s = g.phaseStart(p); s < g.phaseEnd(p); s++) {
                ScheduledSystem ss = plan.system(s);
                String kind = g.system(s).exclusive() ? "exclusive" : ss.leveled() ? "level" : ss.ranged() ? "range"
                        : "chunk";
                Query q = ss.query();
                int entities = -1;
                int matched = -1;
                if (q != null && !g.system(s).exclusive()) {
                    entities = q.count();
                    matched = matchedArchetypes(q, archetypes);
                }
                BatchDecision d = batching.get(ss.name());
                out.add(new SystemRow(s, ss.name(), g.phases().get(p).name(), kind, entities, matched,
                        d == null ? -1 : d.lastJobs(), d == null ? -1 : d.lastRows(),
                        d == null ? "" : String.valueOf(d.mode()), g.syncBefore(s)));
            }
        }
        return out;
    }

    /** One system's row of the per-system table. */
    record SystemRow(int index, String name, String phase, String kind, int entities, int archetypes, int jobs,
            long rows, String mode, boolean syncBefore) {
    }

    /**
     * How many of {@code archetypes} a system's query matches, from its terms (the query's
     * text form: {@code all=[...], none=[...], any=[...]}, column ids); -1 when the form is not
     * understood.
     */
    static int matchedArchetypes(Query q, List<Archetype> archetypes) {
        Matcher m = TERMS.matcher(q.toString());
        if (!m.find()) {
            return -1;
        }
        int[] all = ids(m.group(1));
        int[] none = ids(m.group(2));
        int[] any = ids(m.group(3));
        int n = 0;
        for (Archetype a : archetypes) {
            boolean ok = true;
            for (int id : all) {
                ok &= a.ids().get(id);
            }
            for (int id : none) {
                ok &= !a.ids().get(id);
            }
            if (any.length > 0) {
                boolean one = false;
                for (int id : any) {
                    one |= a.ids().get(id);
                }
                ok &= one;
            }
            if (ok) {
                n++;
            }
        }
        return n;
    }

    private static int[] ids(String list) {
        String t = list.strip();
        if (t.isEmpty()) {
            return new int[0];
        }
        String[] parts = t.split(",");
        int[] out = new int[parts.length];
        for (int i = 0; i < parts.length; i++) {
            out[i] = Integer.parseInt(parts[i].strip());
        }
        return out;
    }
}
