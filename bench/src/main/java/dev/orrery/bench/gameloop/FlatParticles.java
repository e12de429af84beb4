package dev.orrery.bench.gameloop;

import dev.orrery.bench.fixture.PlainParallelLoop;

/**
 * The baseline: the particle scenario by hand over seven flat {@code float[]} arrays, one
 * thread, the dead removed by moving the last particle into their slot and the fresh ones
 * appended. No entity ids, no scheduler: the floor an ECS is measured against.
 *
 * <p><b>Threading:</b> one thread.
 */
final class FlatParticles extends ParticleLoop {
    /** Runs move and damage over ranges on several threads when set (see {@link #parallel}), else inline. */
    private PlainParallelLoop threads;
    private final PlainParallelLoop.RangeBody moveDamage = (thread, from, to) -> moveDamage(from, to);
    private float[] px, py, pz, vx, vy, vz, hp;
    private int size;
    private int living;

    FlatParticles(long seed) {
        super(seed);
    }

    /**
     * The same loop with move and damage cut into one range per thread on a plain parallel
     * loop ({@code threads} in all); reap and respawn stay serial, as the swap-remove must.
     */
    static FlatParticles parallel(long seed, int threads) {
        FlatParticles f = new FlatParticles(seed);
        f.threads = threads > 1 ? new PlainParallelLoop(threads) : null;
        return f;
    }

    @Override
    public String describe() {
        return threads == null ? "flat float[] arrays, one loop per system"
                : "flat float[] arrays, move and damage on a plain parallel loop";
    }

    @Override
    protected void populate(int n) {
        px = new float[n];
        py = new float[n];
        pz = new float[n];
        vx = new float[n];
        vy = new float[n];
        vz = new float[n];
        hp = new float[n];
        for (int i = 0; i < n; i++) {
            write(i, Particles.INITIAL, i, Particles.initialHealth(i));
        }
        size = n;
        living = n;
    }

    private void write(int slot, int t, int k, float health) {
        px[slot] = Particles.value(seed, t, k, 0);
        py[slot] = Particles.value(seed, t, k, 1);
        pz[slot] = Particles.value(seed, t, k, 2);
        vx[slot] = Particles.value(seed, t, k, 3);
        vy[slot] = Particles.value(seed, t, k, 4);
        vz[slot] = Particles.value(seed, t, k, 5);
        hp[slot] = health;
    }

    @Override
    protected void step() {
        int n = size;
        if (threads != null) {
            threads.run(moveDamage, n);
        } else {
            moveDamage(0, n);
        }
        int died = 0;
        for (int i = 0; i < n; ) { // reap: the last particle fills the hole
            if (hp[i] <= 0f) {
                n--;
                px[i] = px[n];
                py[i] = py[n];
                pz[i] = pz[n];
                vx[i] = vx[n];
                vy[i] = vy[n];
                vz[i] = vz[n];
                hp[i] = hp[n];
                died++;
            } else {
                i++;
            }
        }
        for (int k = 0; k < died; k++) { // respawn
            write(n++, tick, k, Particles.LIFETIME);
        }
        size = n;
        living = n; // count
    }

    private void moveDamage(int from, int to) {
        float dt = Particles.DT;
        for (int i = from; i < to; i++) { // move
            px[i] += vx[i] * dt;
            py[i] += vy[i] * dt;
            pz[i] += vz[i] * dt;
        }
        for (int i = from; i < to; i++) { // damage
            hp[i] -= 1f;
        }
    }

    @Override
    public void close() {
        if (threads != null) {
            threads.close();
        }
    }

    @Override
    public int living() {
        return living;
    }

    @Override
    public long checksum() {
        long sum = 0;
        for (int i = 0; i < size; i++) {
            sum += Particles.checksum(px[i], py[i], pz[i], vx[i], vy[i], vz[i], hp[i]);
        }
        return sum;
    }
}
