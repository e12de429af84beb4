package dev.orrery.explorer;

import java.util.ArrayDeque;
import java.util.Iterator;

/**
 * The explorer's record of the edits made on the page: numbers them, keeps the last
 * {@link #KEPT} with their outcomes, and writes them for the page. An edit applied in the same
 * tick as a later edit of the same field is marked superseded by it (the later value stands).
 *
 * <p><b>Threading:</b> every method synchronized; called on HTTP threads and wherever the
 * sink reports outcomes (the tick thread, typically).
 */
final class EditLedger {
    /** Edits kept. */
    static final int KEPT = 200;
    /** An edit still waiting this long is shown as having no outcome reported. */
    static final long QUIET_MILLIS = 30_000;

    private final ArrayDeque<Edit> edits = new ArrayDeque<>();
    private long lastId;

    /** A new edit, numbered and kept. */
    synchronized Edit open(long entity, String component, String field, String value) {
        Edit e = new Edit(this, ++lastId, entity, component, field, value);
        if (edits.size() == KEPT) {
            edits.removeFirst();
        }
        edits.addLast(e);
        return e;
    }

    synchronized void applied(Edit e, long tick) {
        if (e.status() != Edit.Status.PENDING) {
            return;
        }
        e.settle(Edit.Status.APPLIED, tick, null, 0);
        for (Edit other : edits) {
            if (other == e || !other.sameTarget(e)) {
                continue;
            }
            if (other.status() == Edit.Status.APPLIED && other.tick() == tick) {
                Edit older = other.id() < e.id() ? other : e;
                Edit newer = older == other ? e : other;
                older.settle(Edit.Status.SUPERSEDED, tick, null, newer.id());
            }
        }
    }

    synchronized void refused(Edit e, String why) {
        if (e.status() == Edit.Status.PENDING) {
            e.settle(Edit.Status.REFUSED, -1, why, 0);
        }
    }

    /** The edit numbered {@code id}, or null when it is not kept. */
    synchronized Edit find(long id) {
        for (Edit e : edits) {
            if (e.id() == id) {
                return e;
            }
        }
        return null;
    }

    /** Writes the kept edits, newest first ({@code max} at most), for entity {@code entity} only unless it is 0. */
    synchronized void write(Json json, long entity, int max) {
        json.beginArray();
        int n = 0;
        long now = System.currentTimeMillis();
        for (Iterator<Edit> it = edits.descendingIterator(); it.hasNext() && n < max;) {
            Edit e = it.next();
            if (entity != 0 && e.entity() != entity) {
                continue;
            }
            n++;
            write(json, e, now);
        }
        json.endArray();
    }

    /** Writes one edit: number, target, value, status and what goes with it. */
    synchronized void write(Json json, Edit e, long now) {
        json.beginObject().field("id", e.id()).field("entity", e.entity()).field("component", e.component())
                .field("field", e.field()).field("value", e.value())
                .field("status", e.status().name().toLowerCase(java.util.Locale.ROOT));
        switch (e.status()) {
            case APPLIED -> json.field("tick", e.tick()).field("text", "applied at tick " + e.tick());
            case REFUSED -> json.field("reason", e.reason()).field("text", "refused: " + e.reason());
            case SUPERSEDED -> json.field("tick", e.tick()).field("by", e.supersededBy())
                    .field("text", "superseded at tick " + e.tick() + " by edit " + e.supersededBy()
                            + " of the same field in the same tick");
            default -> json.field("text", now - e.madeAtMillis() > QUIET_MILLIS
                    ? "taken, but no outcome reported after " + QUIET_MILLIS / 1000 + " s (the application's "
                            + "EditSink does not report one, or the tick thread is far behind)"
                    : "taken; waiting for the tick that applies it");
        }
        json.endObject();
    }
}
