package dev.orrery.explorer;

/**
 * The points of one map sample, filled by a {@link MapSource}: entity, x, y and kind, up to a
 * capacity fixed by the request.
 *
 * <p><b>Threading:</b> filled on the tick thread, then handed to the HTTP thread through the
 * safe-point queue (whose hand-off orders the writes before the reads); not shared otherwise.
 */
public final class MapPoints {
    private final long[] ids;
    private final float[] xs;
    private final float[] ys;
    private final int[] kinds;
    private int size;
    private long total;

    MapPoints(int capacity) {
        ids = new long[capacity];
        xs = new float[capacity];
        ys = new float[capacity];
        kinds = new int[capacity];
    }

    /** The most points this sample takes. */
    public int capacity() {
        return ids.length;
    }

    /**
     * Adds one point.
     *
     * @return false when the sample is full (the point is not added)
     */
    public boolean add(long entity, float x, float y, int kind) {
        if (size == ids.length) {
            return false;
        }
        ids[size] = entity;
        xs[size] = x;
        ys[size] = y;
        kinds[size] = kind;
        size++;
        return true;
    }

    /** Says how many entities the sample stands for (more than its points when down-sampled). */
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
