package dev.orrery.bench.gameloop;

import dev.dominion.ecs.api.Composition;
import dev.dominion.ecs.api.Dominion;
import dev.dominion.ecs.api.Entity;
import dev.dominion.ecs.api.Results;
import dev.dominion.ecs.engine.EntityRepository;
import java.util.Iterator;

/**
 * The particle scenario in Dominion 0.9.0, in its README's idiom: components as plain
 * mutable objects, particles made through a prepared {@code Composition.Of3}
 * ({@code createPreparedEntity(shape.withValue(p, v, h))}), each system a loop over
 * {@code findEntitiesWith(...)} updating the objects in place, {@code deleteEntity} for the
 * dead. The reaper gathers the dead into a reused array and deletes them after its loop, so no
 * deletion runs inside an iteration. The systems run one after another on the driving thread
 * (Dominion's {@code Scheduler} would add its own thread pool; Orrery is also measured on one
 * worker). The repository comes from {@code new EntityRepository.Factory()}, as the peers
 * package explains.
 *
 * <p><b>Threading:</b> one thread.
 */
final class DominionParticles extends ParticleLoop {
    /** Position. */
    public static final class Pos {
        /** Coordinates. */
        public float x, y, z;

        Pos(float x, float y, float z) {
            this.x = x;
            this.y = y;
            this.z = z;
        }
    }

    /** Velocity. */
    public static final class Vel {
        /** Components. */
        public float x, y, z;

        Vel(float x, float y, float z) {
            this.x = x;
            this.y = y;
            this.z = z;
        }
    }

    /** Health. */
    public static final class Hp {
        /** Ticks left. */
        public float hp;

        Hp(float hp) {
            this.hp = hp;
        }
    }

    private Dominion dominion;
    private Composition.Of3<Pos, Vel, Hp> shape;
    private Entity[] dead = new Entity[64];
    private int living;

    DominionParticles(long seed) {
        super(seed);
    }

    @Override
    public String describe() {
        return "Dominion 0.9.0 (findEntitiesWith loops, deleteEntity, createPreparedEntity)";
    }

    @Override
    protected void populate(int n) {
        dominion = new EntityRepository.Factory().create("particles");
        shape = dominion.composition().of(Pos.class, Vel.class, Hp.class);
        for (int i = 0; i < n; i++) {
            create(Particles.INITIAL, i, Particles.initialHealth(i));
        }
    }

    private void create(int t, int k, float health) {
        dominion.createPreparedEntity(shape.withValue(
                new Pos(Particles.value(seed, t, k, 0), Particles.value(seed, t, k, 1), Particles.value(seed, t, k, 2)),
                new Vel(Particles.value(seed, t, k, 3), Particles.value(seed, t, k, 4), Particles.value(seed, t, k, 5)),
                new Hp(health)));
    }

    @Override
    protected void step() {
        float dt = Particles.DT;
        for (Iterator<Results.With2<Pos, Vel>> it = dominion.findEntitiesWith(Pos.class, Vel.class).iterator();
                it.hasNext(); ) { // move
            Results.With2<Pos, Vel> r = it.next();
            Pos p = r.comp1();
            Vel v = r.comp2();
            p.x += v.x * dt;
            p.y += v.y * dt;
            p.z += v.z * dt;
        }
        for (Iterator<Results.With1<Hp>> it = dominion.findEntitiesWith(Hp.class).iterator(); it.hasNext(); ) {
            it.next().comp().hp -= 1f; // damage
        }
        int died = 0;
        for (Iterator<Results.With1<Hp>> it = dominion.findEntitiesWith(Hp.class).iterator(); it.hasNext(); ) {
            Results.With1<Hp> r = it.next(); // reap, deleting after the loop
            if (r.comp().hp <= 0f) {
                if (died == dead.length) {
                    dead = java.util.Arrays.copyOf(dead, died * 2);
                }
                dead[died++] = r.entity();
            }
        }
        for (int i = 0; i < died; i++) {
            dominion.deleteEntity(dead[i]);
            dead[i] = null;
        }
        for (int k = 0; k < died; k++) { // respawn
            create(tick, k, Particles.LIFETIME);
        }
        int n = 0;
        for (Iterator<Results.With3<Pos, Vel, Hp>> it = dominion.findEntitiesWith(Pos.class, Vel.class, Hp.class)
                .iterator(); it.hasNext(); it.next()) { // count
            n++;
        }
        living = n;
    }

    @Override
    public int living() {
        return living;
    }

    @Override
    public long checksum() {
        long sum = 0;
        for (Iterator<Results.With3<Pos, Vel, Hp>> it = dominion.findEntitiesWith(Pos.class, Vel.class, Hp.class)
                .iterator(); it.hasNext(); ) {
            Results.With3<Pos, Vel, Hp> r = it.next();
            Pos p = r.comp1();
            Vel v = r.comp2();
            sum += Particles.checksum(p.x, p.y, p.z, v.x, v.y, v.z, r.comp3().hp);
        }
        return sum;
    }

    @Override
    public void close() {
        if (dominion != null) {
            dominion.close();
        }
    }
}
