package dev.orrery.demo.arena;

/**
 * Each agent's separation push, by {@link SpatialGrid} slot: the sum of {@code d / |d|^2}
 * over the neighbours closer than a radius. The {@code neighbours} range system fills it in
 * grid order, so consecutive slots read adjacent grid memory; {@code steer} then reads one
 * value per agent through {@link SpatialGrid#slotOfIndex}. Walking the chunks instead made
 * every agent's scan a chain of cache misses into the grid (two dependent loads per grid
 * row), which was most of a tick at 100 000 agents.
 *
 * <p><b>Threading:</b> {@link #prepare} on the calling thread before the scan; then jobs
 * {@link #scan} disjoint slot ranges at once, each writing only its own slots; readers run
 * after the scan has finished (the scheduler orders them by the resource).
 */
public final class Separation {
    private final float radius;
    private final int maxNeighbours;
    private float[] push = new float[2 * 1024];

    /**
     * Pushes from neighbours within {@code radius}, looking at most at the first
     * {@code maxNeighbours} agents of the cells the radius touches.
     */
    public Separation(float radius, int maxNeighbours) {
        if (!(radius > 0) || maxNeighbours < 1) {
            throw new IllegalArgumentException("separation needs a positive radius and at least one neighbour; got "
                    + radius + ", " + maxNeighbours);
        }
        this.radius = radius;
        this.maxNeighbours = maxNeighbours;
    }

    /**
     * Sizes the table for {@code grid}'s agents; returns the grid's rows, the range the scan
     * is split over. Calling thread.
     */
    public int prepare(SpatialGrid grid) {
        int n = grid.size();
        if (2 * n > push.length) {
            push = new float[2 * Math.max(n, push.length / 2 * 3 / 2)];
        }
        return grid.columns();
    }

    /**
     * Computes the push of every agent in the grid rows {@code [fromRow, toRow)} that are
     * {@code slice} modulo {@code slices} (the other agents keep their old values). A row's
     * agents are one run of slots, so the scan walks memory in order. For each agent it
     * looks at the cells the radius touches (one to four, each grid row of them one run of
     * slots), at most {@code maxNeighbours} agents, row by row. The sum is branch-free:
     * whether a neighbour counts is a random branch, and mispredicting it cost more than
     * computing {@code 1 / d^2} for every neighbour.
     */
    public void scan(SpatialGrid grid, int fromRow, int toRow, int slices, int slice) {
        float[] pk = grid.packed();
        float[] out = push;
        float r = radius;
        float r2 = r * r;
        int tiny = Float.floatToRawIntBits(1e-6f);
        int cap = maxNeighbours;
        for (int row = fromRow; row < toRow; row++) {
            if (row % slices != slice) {
                continue;
            }
            for (int s = grid.start(0, row), last = grid.end(grid.columns() - 1, row); s < last; s++) {
                float x0 = pk[3 * s];
                float y0 = pk[3 * s + 1];
                float sx = 0;
                float sy = 0;
                int seen = 0;
                int gx0 = grid.cellCoordinate(x0 - r);
                int gx1 = grid.cellCoordinate(x0 + r);
                for (int gy = grid.cellCoordinate(y0 - r), gy1 = grid.cellCoordinate(y0 + r);
                        gy <= gy1 && seen < cap; gy++) {
                    int first = grid.start(gx0, gy);
                    int end = Math.min(grid.end(gx1, gy), first + cap - seen);
                    for (int sl = first; sl < end; sl++) {
                        float dx = x0 - pk[3 * sl];
                        float dy = y0 - pk[3 * sl + 1];
                        float d2 = dx * dx + dy * dy;
                        // all ones when 1e-6 < d2 < r2 (both differences negative), else zero
                        int in = (Float.floatToRawIntBits(d2 - r2) & (tiny - Float.floatToRawIntBits(d2))) >> 31;
                        float w = Float.intBitsToFloat(Float.floatToRawIntBits(1f / d2) & in);
                        sx += dx * w;
                        sy += dy * w;
                    }
                    seen += end - first;
                }
                out[2 * s] = sx;
                out[2 * s + 1] = sy;
            }
        }
    }

    /** Push x of the agent in {@code slot}, from the last scan that covered it. */
    public float x(int slot) {
        return push[2 * slot];
    }

    /** Push y of the agent in {@code slot}, from the last scan that covered it. */
    public float y(int slot) {
        return push[2 * slot + 1];
    }

    /** Its settings in one line (the explorer shows it as the resource's value). */
    @Override
    public String toString() {
        return "separation within " + radius + " units, at most " + maxNeighbours + " neighbours each";
    }
}
