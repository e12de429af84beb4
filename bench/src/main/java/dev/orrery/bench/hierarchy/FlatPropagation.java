package dev.orrery.bench.hierarchy;

/**
 * (c) The baseline: transforms in flat {@code float[]}s indexed by entity, children lists by
 * index ({@link Forest}'s), and a recursive walk from each root. What a hand-written engine
 * with a fixed scene graph does; no ids, no checks, no scheduler.
 *
 * <p><b>Threading:</b> single-threaded.
 */
final class FlatPropagation extends Propagation {
    private final Forest f;
    private final float[] gx;
    private final float[] gy;
    private final float[] gc;
    private final float[] gs;

    FlatPropagation(Forest forest) {
        this.f = forest;
        this.gx = new float[forest.size];
        this.gy = new float[forest.size];
        this.gc = new float[forest.size];
        this.gs = new float[forest.size];
    }

    @Override
    public void tick() {
        for (int e = 0; e < f.size; e++) {
            if (f.parent[e] < 0) {
                gx[e] = f.lx[e];
                gy[e] = f.ly[e];
                gc[e] = f.lc[e];
                gs[e] = f.ls[e];
                visit(e);
            }
        }
    }

    /** Sets the world transforms of {@code p}'s children from {@code p}'s, then recurses into each. */
    private void visit(int p) {
        float px = gx[p];
        float py = gy[p];
        float pc = gc[p];
        float ps = gs[p];
        for (int k = f.kidStart[p], end = f.kidStart[p + 1]; k < end; k++) {
            int e = f.kids[k];
            float x = f.lx[e];
            float y = f.ly[e];
            float c = f.lc[e];
            float s = f.ls[e];
            gx[e] = px + pc * x - ps * y;
            gy[e] = py + ps * x + pc * y;
            gc[e] = pc * c - ps * s;
            gs[e] = ps * c + pc * s;
            if (f.kidStart[e] < f.kidStart[e + 1]) {
                visit(e);
            }
        }
    }

    @Override
    public long checksum() {
        long h = 17;
        for (int e = 0; e < f.size; e++) {
            h = mix(h, gx[e], gy[e], gc[e], gs[e]);
        }
        return h;
    }

    @Override
    public String describe() {
        return "flat arrays, recursive walk";
    }
}
