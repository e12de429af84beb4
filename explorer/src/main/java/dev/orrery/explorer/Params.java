package dev.orrery.explorer;

import java.util.Map;

/**
 * A request's parameters as the API reads them: whole numbers (clamped to a range where the
 * parameter bounds a page or a sample), ticks, and entity ids; a value it cannot read is a
 * {@link QueryText.BadQuery} (answered 400) naming the parameter and what it takes.
 *
 * <p><b>Threading:</b> stateless; called on the request threads.
 */
final class Params {
    /** Longest part of a refused value a message repeats. */
    private static final int SHOWN = 40;

    private Params() {
    }

    /**
     * Parameter {@code name} as a long, {@code otherwise} when absent or blank.
     *
     * @throws QueryText.BadQuery naming the parameter and {@code range} for anything else (a
     *         whole number past a long included)
     */
    static long number(Map<String, String> q, String name, long otherwise, String range) {
        String s = q.get(name);
        if (s == null || s.isBlank()) {
            return otherwise;
        }
        try {
            return Long.parseLong(s.strip());
        } catch (NumberFormatException e) {
            String what = s.strip().matches("[+-]?[0-9]+") ? " is past the whole numbers the explorer reads (a long)"
                    : " is not a whole number the explorer reads";
            throw new QueryText.BadQuery(name + "=" + (s.length() > SHOWN ? s.substring(0, SHOWN) + "..." : s)
                    + what + "; give " + range);
        }
    }

    /** Parameter {@code name} clamped to {@code low..high}, {@code otherwise} when absent or blank. */
    static int bounded(Map<String, String> q, String name, int low, int high, int otherwise) {
        return (int) Math.max(low, Math.min(high, number(q, name, otherwise, low + " to " + high
                + " (a whole number outside is taken as the nearest of those)")));
    }

    /**
     * Tick parameter {@code name}, which must be given.
     *
     * @throws QueryText.BadQuery naming it when absent, blank or not a whole number
     */
    static long tick(Map<String, String> q, String name) {
        String range = "a tick of the recording (GET /api/timeline gives its span)";
        String s = q.get(name);
        // absence is told apart from the most negative long, which is a tick given (before any recording)
        if (s == null || s.isBlank()) {
            throw new QueryText.BadQuery("give " + name + "=TICK, " + range);
        }
        return number(q, name, 0, range);
    }

    /**
     * Entity id parameter {@code name}, which must be given: absent or blank, it is named (an
     * answer about entity 0, dead, would hide the missing parameter).
     *
     * @throws QueryText.BadQuery naming it when absent or blank, or when it is no entity id
     */
    static long requiredEntity(Map<String, String> q, String name) {
        String s = q.get(name);
        if (s == null || s.isBlank()) {
            throw new QueryText.BadQuery("give " + name + "=ENTITY, the entity's id: a decimal long as the explorer "
                    + "lists it, or index v generation (12v3)");
        }
        return QueryText.entityId(s, name + "=" + s);
    }

    /** Entity id parameter {@code name}, {@code otherwise} when absent or blank. */
    static long entity(Map<String, String> q, String name, long otherwise) {
        String s = q.get(name);
        return s == null || s.isBlank() ? otherwise : QueryText.entityId(s, name + "=" + s);
    }
}
