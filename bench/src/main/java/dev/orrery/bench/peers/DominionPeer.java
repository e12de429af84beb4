package dev.orrery.bench.peers;

import dev.dominion.ecs.api.Composition;
import dev.dominion.ecs.api.Dominion;
import dev.dominion.ecs.api.Entity;
import dev.dominion.ecs.api.Results;
import dev.dominion.ecs.engine.EntityRepository;
import java.util.Iterator;

/**
 * Dominion 0.9.0 the way its README and its own benchmarks use it: entities created through a
 * prepared {@code Composition.Of2} ({@code createPreparedEntity(shape.withValue(p, v))}),
 * components as plain mutable objects, {@code entity.add(extra)} and
 * {@code entity.removeType(Extra.class)} per entity, and iteration through
 * {@code findEntitiesWith(Position.class, Velocity.class).iterator()}, updating the
 * component objects in place.
 *
 * <p>The repository is made by {@code new EntityRepository.Factory()}, as Dominion's
 * benchmarks do: {@code Dominion.create()} looks the engine up through {@code ServiceLoader},
 * which only the module path declares (the jar has no {@code META-INF/services} entry). It
 * runs at Dominion's default size (MEDIUM: 4096-entity chunks); {@code -Ddominion.peers.size=HUGE}
 * picks the size Dominion documents for millions of entities
 * (tried here: within the noise of the default on create and iterate).
 *
 * <p><b>Threading:</b> the repository is used on JMH's benchmark thread only.
 */
final class DominionPeer extends PeerWorld {
    /** The repository name: Dominion reads its settings as {@code -Ddominion.peers.size=...}. */
    static final String NAME = "peers";

    /** Dominion's position component: a plain object, updated in place. */
    public static final class Pos {
        /** Coordinates. */
        public float x, y, z;

        /** A position. */
        public Pos(float x, float y, float z) {
            this.x = x;
            this.y = y;
            this.z = z;
        }
    }

    /** Dominion's velocity component. */
    public static final class Vel {
        /** Components. */
        public float x, y, z;

        /** A velocity. */
        public Vel(float x, float y, float z) {
            this.x = x;
            this.y = y;
            this.z = z;
        }
    }

    /** Dominion's extra component. */
    public static final class Xtra {
        /** The value. */
        public int v;

        /** An extra. */
        public Xtra(int v) {
            this.v = v;
        }
    }

    private Dominion dominion;
    private Composition.Of2<Pos, Vel> shape;
    private Entity[] entities;

    @Override
    public String describe() {
        return "Dominion 0.9.0 (createPreparedEntity)";
    }

    @Override
    protected void clear(int capacity) {
        if (dominion != null) {
            dominion.close();
        }
        dominion = new EntityRepository.Factory().create(NAME);
        shape = dominion.composition().of(Pos.class, Vel.class);
        if (entities == null || entities.length < capacity) {
            entities = new Entity[capacity]; // kept across resets: setup allocation shows in -prof gc
        }
    }

    @Override
    protected void createAll(int n) {
        Dominion d = dominion;
        Composition.Of2<Pos, Vel> s = shape;
        Entity[] e = entities;
        for (int i = 0; i < n; i++) {
            e[i] = d.createPreparedEntity(s.withValue(new Pos(px(i), py(i), pz(i)), new Vel(vx(i), vy(i), vz(i))));
        }
    }

    @Override
    public void addExtra() {
        Entity[] e = entities;
        for (int i = 0, n = size; i < n; i++) {
            e[i].add(new Xtra(extra(i)));
        }
    }

    @Override
    public void removeExtra() {
        Entity[] e = entities;
        for (int i = 0, n = size; i < n; i++) {
            e[i].removeType(Xtra.class);
        }
    }

    @Override
    protected void step(float dt) {
        Iterator<Results.With2<Pos, Vel>> it = dominion.findEntitiesWith(Pos.class, Vel.class).iterator();
        while (it.hasNext()) {
            Results.With2<Pos, Vel> r = it.next();
            Pos p = r.comp1();
            Vel v = r.comp2();
            p.x += v.x * dt;
            p.y += v.y * dt;
            p.z += v.z * dt;
        }
    }

    @Override
    protected void release() {
        if (dominion != null) {
            dominion.close();
        }
        dominion = null;
        shape = null;
        entities = null;
    }

    @Override
    protected int count() {
        int n = 0;
        for (Iterator<Results.With2<Pos, Vel>> it = dominion.findEntitiesWith(Pos.class, Vel.class).iterator();
                it.hasNext(); it.next()) {
            n++;
        }
        return n;
    }

    @Override
    protected float value(int i, int field) {
        Entity e = entities[i];
        if (field < 3) {
            Pos p = e.get(Pos.class);
            return field == 0 ? p.x : field == 1 ? p.y : p.z;
        }
        Vel v = e.get(Vel.class);
        return field == 3 ? v.x : field == 4 ? v.y : v.z;
    }

    @Override
    protected boolean hasExtra(int i) {
        return entities[i].has(Xtra.class);
    }

    @Override
    protected int extraValue(int i) {
        return entities[i].get(Xtra.class).v;
    }

    @Override
    void corrupt(int i) {
        entities[i].get(Pos.class).x = -12345f;
    }

    @Override
    void corruptExtra(int i) {
        entities[i].get(Xtra.class).v = -1;
    }
}
