package dev.orrery.explorer;

import dev.orrery.ecs.Query;
import dev.orrery.ecs.World;
import dev.orrery.ecs.component.Entity;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The timeline's diffs between two ticks as JSON: an entity's fields ({@link #entity}) and a
 * query's matches ({@link #query}), from what {@link PastWorlds} read of the replayed world at
 * each tick. Kept apart from the replay, which moves the world; these only compare.
 *
 * <p><b>Threading:</b> stateless; {@link #ids} on the thread that owns the world (the replay
 * thread), the rest on any thread.
 */
final class PastDiffs {
    /** Most ids a query diff lists of those that came and went. */
    static final int MAX_LISTED = 50;

    private PastDiffs() {
    }

    /**
     * Entity {@code id}'s fields at ticks {@code from} ({@code a}) and {@code to} ({@code b}),
     * each null where the entity was not alive, and those that differ.
     */
    static String entity(long id, long from, long to, Map<String, String> a, Map<String, String> b) {
        Json json = new Json().beginObject().field("id", id).field("text", Entity.toString(id))
                .field("from", from).field("to", to).field("aliveFrom", a != null).field("aliveTo", b != null)
                .key("changes").beginArray();
        Set<String> keys = new LinkedHashSet<>();
        if (a != null) {
            keys.addAll(a.keySet());
        }
        if (b != null) {
            keys.addAll(b.keySet());
        }
        int changed = 0;
        for (String k : keys) {
            String va = a == null ? null : a.get(k);
            String vb = b == null ? null : b.get(k);
            if (va == null ? vb != null : !va.equals(vb)) {
                changed++;
                json.beginObject().field("field", k).field("from", va).field("to", vb).endObject();
            }
        }
        return json.endArray().field("fields", keys.size()).field("changed", changed).endObject().toString();
    }

    /** Query {@code text}'s matches at ticks {@code from} ({@code a}) and {@code to} ({@code b}): counts, and what came and went. */
    static String query(String text, long from, long to, Set<Long> a, Set<Long> b) {
        Json json = new Json().beginObject().field("query", text).field("from", from).field("to", to)
                .field("countFrom", a.size()).field("countTo", b.size());
        listDifference(json, "added", b, a);
        listDifference(json, "removed", a, b);
        return json.endObject().toString();
    }

    private static void listDifference(Json json, String name, Set<Long> in, Set<Long> notIn) {
        List<Long> out = new ArrayList<>();
        int count = 0;
        for (long id : in) {
            if (!notIn.contains(id)) {
                if (count++ < MAX_LISTED) {
                    out.add(id);
                }
            }
        }
        json.field(name + "Count", count).key(name).beginArray();
        out.forEach(json::value);
        json.endArray();
    }

    /** The ids query {@code text} matches in {@code w}, looked at without a change tick. */
    static Set<Long> ids(World w, String text) {
        Query q = QueryText.parse(w, text, new QueryText());
        Set<Long> ids = new HashSet<>();
        q.forEachReadOnly((chunk, row) -> ids.add(chunk.entity(row))); // a look: no change tick
        return ids;
    }
}
