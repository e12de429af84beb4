package dev.orrery.bench.peers;

/**
 * The floor: one {@code float[]} per field, entity {@code i} at index {@code i}. Create fills
 * the arrays (allocated, at full size, outside the timed code); move is one loop. No
 * structural changes, so it sits out the add/remove workload.
 *
 * <p><b>Threading:</b> used on JMH's benchmark thread only.
 */
final class FlatPeer extends PeerWorld {
    private float[] x, y, z, vxs, vys, vzs;

    @Override
    public String describe() {
        return "flat float[] per field";
    }

    @Override
    protected void clear(int capacity) {
        if (x != null && x.length >= capacity) {
            return; // create overwrites every index it uses; setup allocation shows in -prof gc
        }
        x = new float[capacity];
        y = new float[capacity];
        z = new float[capacity];
        vxs = new float[capacity];
        vys = new float[capacity];
        vzs = new float[capacity];
    }

    @Override
    protected void createAll(int n) {
        float[] ax = x, ay = y, az = z, bx = vxs, by = vys, bz = vzs;
        for (int i = 0; i < n; i++) {
            ax[i] = px(i);
            ay[i] = py(i);
            az[i] = pz(i);
            bx[i] = vx(i);
            by[i] = vy(i);
            bz[i] = vz(i);
        }
    }

    @Override
    public boolean supportsExtra() {
        return false;
    }

    @Override
    public void addExtra() {
        throw new UnsupportedOperationException("the flat-array baseline has no structural changes; "
                + "run the add/remove workload on orrery, dominion or artemis");
    }

    @Override
    public void removeExtra() {
        addExtra();
    }

    @Override
    protected void step(float dt) {
        float[] ax = x, ay = y, az = z, bx = vxs, by = vys, bz = vzs;
        for (int i = 0, n = size; i < n; i++) {
            ax[i] += bx[i] * dt;
            ay[i] += by[i] * dt;
            az[i] += bz[i] * dt;
        }
    }

    @Override
    protected void release() {
        x = y = z = vxs = vys = vzs = null;
    }

    @Override
    protected int count() {
        return size;
    }

    @Override
    protected float value(int i, int field) {
        return switch (field) {
            case 0 -> x[i];
            case 1 -> y[i];
            case 2 -> z[i];
            case 3 -> vxs[i];
            case 4 -> vys[i];
            default -> vzs[i];
        };
    }

    @Override
    protected boolean hasExtra(int i) {
        return false;
    }

    @Override
    protected int extraValue(int i) {
        throw new UnsupportedOperationException("the flat-array baseline holds no Extra");
    }

    @Override
    void corrupt(int i) {
        x[i] = -12345f;
    }

    @Override
    void corruptExtra(int i) {
        throw new UnsupportedOperationException("the flat-array baseline holds no Extra");
    }
}
