package dev.orrery.explorer;

/**
 * The points of one map sample, filled by a {@link MapSource}: entity, x, y and kind, up to a
 * capacity fixed by the request (the arrays grow as points come, up to it).
 *
 * <p><b>Threading:</b> filled on the tick thread, then handed to the HTTP thread through the
 * safe-point queue (whose hand-off orders the writes before the reads); not shared otherwise.
 */
public final class MapPoints {
    private final int capacity;
    private long[] ids;
    private float[] xs;
    private float[] ys;
    private int[] kinds;
    private int size;
    private long total;

    MapPoints(int capacity, int expected) {
        this.capacity = capacity;
        // at least 16 to start, never past the capacity: arrays larger than the capacity would take
        // points past it, and the first growth would then shrink them under the points held
        int first = Math.min(capacity, Math.max(16, expected + expected / 8));
        ids = new long[first];
        xs = new float[first];
        ys = new float[first];
        kinds = new int[first];
    }

    /**
     * The most points this sample takes.
     *
     * @return the capacity, fixed by the request
     */
    public int capacity() {
        return capacity;
    }

    /**
     * Adds one point. Tick thread, inside {@link MapSource#sample}.
     *
     * @param entity the entity drawn there (its id, as the world gives it)
     * @param x      its x in world units, from 0 to the source's {@link MapSource#width()}
     * @param y      its y in world units, from 0 to the source's {@link MapSource#height()}
     * @param kind   its kind, an index into the source's {@link MapSource#kinds()} (not checked here)
     * @return false when the sample is full (the point is not added)
     */
    public boolean add(long entity, float x, float y, int kind) {
        if (size == ids.length) {
            if (size == capacity) {
                return false;
            }
            int grown = (int) Math.min(capacity, 2L * size);
            ids = java.util.Arrays.copyOf(ids, grown);
            xs = java.util.Arrays.copyOf(xs, grown);
            ys = java.util.Arrays.copyOf(ys, grown);
            kinds = java.util.Arrays.copyOf(kinds, grown);
        }
        ids[size] = entity;
        xs[size] = x;
        ys[size] = y;
        kinds[size] = kind;
        size++;
        return true;
    }

    /** Points added so far. */
    int size() {
        return size;
    }

    /**
     * Says how many entities the sample stands for (more than its points when down-sampled).
     *
     * @param entities the entities the sample stands for; a value below the points added counts as
     *     the points added
     */
    public void total(long entities) {
        this.total = entities;
    }

    void writeTo(Json json) {
        json.field("total", Math.max(total, size)).key("points").beginArray();
        for (int i = 0; i < size; i++) {
            json.beginArray().value(ids[i]).value(xs[i]).value(ys[i]).value(kinds[i]).endArray();
        }
        json.endArray();
    }
}
