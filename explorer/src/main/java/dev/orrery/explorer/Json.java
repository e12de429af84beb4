package dev.orrery.explorer;

/**
 * A small JSON writer for the API's answers: objects, arrays, strings, numbers and booleans,
 * with the commas placed for the caller. Not-finite numbers are written as {@code null}.
 *
 * <p><b>Threading:</b> one writer per answer, used by one thread.
 */
final class Json {
    private final StringBuilder sb = new StringBuilder(256);
    /** Whether the container at each depth already holds a value (so the next needs a comma). */
    private boolean[] filled = new boolean[16];
    private int depth;
    private boolean afterKey;

    Json beginObject() {
        separate();
        sb.append('{');
        push();
        return this;
    }

    Json endObject() {
        depth--;
        sb.append('}');
        return this;
    }

    Json beginArray() {
        separate();
        sb.append('[');
        push();
        return this;
    }

    Json endArray() {
        depth--;
        sb.append(']');
        return this;
    }

    Json key(String name) {
        separate();
        string(name);
        sb.append(':');
        afterKey = true;
        return this;
    }

    Json value(String s) {
        separate();
        if (s == null) {
            sb.append("null");
        } else {
            string(s);
        }
        return this;
    }

    Json value(long v) {
        separate();
        sb.append(v);
        return this;
    }

    Json value(double v) {
        separate();
        if (Double.isFinite(v)) {
            sb.append(v);
        } else {
            sb.append("null");
        }
        return this;
    }

    Json value(boolean v) {
        separate();
        sb.append(v);
        return this;
    }

    Json field(String name, String v) {
        return key(name).value(v);
    }

    Json field(String name, long v) {
        return key(name).value(v);
    }

    Json field(String name, double v) {
        return key(name).value(v);
    }

    Json field(String name, boolean v) {
        return key(name).value(v);
    }

    /** Writes {@code null}. */
    Json nullValue() {
        separate();
        sb.append("null");
        return this;
    }

    /** Writes {@code json}, already JSON text (a value made by another writer), as it is. */
    Json raw(String json) {
        separate();
        sb.append(json);
        return this;
    }

    /** A number in milliseconds from nanoseconds, to the microsecond. */
    Json millis(long nanos) {
        return value(Math.round(nanos / 1e3) / 1e3);
    }

    /** The error body {@code {"error": message}} every failed request gets. */
    static String error(String message) {
        return new Json().beginObject().field("error", message).endObject().toString();
    }

    private void push() {
        depth++;
        if (depth == filled.length) {
            filled = java.util.Arrays.copyOf(filled, depth * 2);
        }
        filled[depth] = false;
    }

    private void separate() {
        if (afterKey) {
            afterKey = false;
            return;
        }
        if (depth > 0) {
            if (filled[depth]) {
                sb.append(',');
            }
            filled[depth] = true;
        }
    }

    private void string(String s) {
        sb.append('"');
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            switch (c) {
                case '"' -> sb.append("\\\"");
                case '\\' -> sb.append("\\\\");
                case '\n' -> sb.append("\\n");
                case '\r' -> sb.append("\\r");
                case '\t' -> sb.append("\\t");
                default -> {
                    if (c < 0x20 || c == '<' || c == '>' || c == '&') {
                        sb.append(String.format("\\u%04x", (int) c));
                    } else {
                        sb.append(c);
                    }
                }
            }
        }
        sb.append('"');
    }

    @Override
    public String toString() {
        return sb.toString();
    }

    /**
     * {@code object} (a JSON object a live view read at a safe point) with {@code "tick"} first:
     * the tick it shows the world after, as {@code /api/past/...?tick=} names one, so that a value
     * watched over ticks, or compared with the timeline's, says which tick it belongs to; an
     * empty object gets the tick alone (it used to come out as {@code {"tick":N,}}).
     *
     * @throws IllegalArgumentException when {@code object} is not a JSON object (a bug of the view that made it)
     */
    static String tickFirst(long tick, String object) {
        String body = object.strip();
        if (body.length() < 2 || body.charAt(0) != '{' || body.charAt(body.length() - 1) != '}') {
            throw new IllegalArgumentException("a live view's answer must be a JSON object to take its tick, not "
                    + (body.length() > 80 ? body.substring(0, 80) + "..." : body));
        }
        String rest = body.substring(1, body.length() - 1).strip();
        return "{\"tick\":" + tick + (rest.isEmpty() ? "" : "," + rest) + "}";
    }
}
