package dev.orrery.bench.peers;

import dev.orrery.bench.fixture.Position;
import dev.orrery.bench.fixture.Velocity;
import dev.orrery.ecs.EntityBuilder;
import dev.orrery.ecs.World;
import dev.orrery.ecs.component.Component;
import dev.orrery.ecs.component.Field;
import dev.orrery.ecs.query.ChunkConsumer;
import dev.orrery.ecs.query.ChunkView;
import dev.orrery.ecs.query.Query;

/**
 * Orrery through its public API, the way the README teaches: {@code world.spawn(new
 * Position(..), new Velocity(..))} per entity (or, as the builder variant, one reused
 * {@code EntityBuilder} then {@code world.set} of both records), {@code world.add(e, extra,
 * new Extra(v))} and {@code world.remove(e, extra)}, and a query's {@code forEachChunk} over
 * the chunk's {@code float} arrays. Default (table) storage.
 *
 * <p><b>Threading:</b> the world is used on JMH's benchmark thread only.
 */
final class OrreryPeer extends PeerWorld {
    private final boolean builderVariant;
    private World world;
    private Component<Position> pos;
    private Component<Velocity> vel;
    private Component<Extra> extra;
    private Field[] fields;
    private Field extraV;
    private Query moving;
    private EntityBuilder builder;
    private long[] ids;
    private float dt;
    private final ChunkConsumer moveKernel = this::moveChunk;

    OrreryPeer(boolean builderVariant) {
        this.builderVariant = builderVariant;
    }

    @Override
    public String describe() {
        return builderVariant ? "Orrery (reused EntityBuilder + set)" : "Orrery (world.spawn(records))";
    }

    @Override
    protected void clear(int capacity) {
        world = new World();
        pos = world.component(Position.class);
        vel = world.component(Velocity.class);
        extra = world.component(Extra.class);
        fields = new Field[] {
            pos.field("x"), pos.field("y"), pos.field("z"), vel.field("x"), vel.field("y"), vel.field("z")};
        extraV = extra.field("v");
        moving = world.query().with(pos, vel).build();
        builder = world.entity().with(pos).with(vel);
        if (ids == null || ids.length < capacity) {
            ids = new long[capacity]; // kept across resets: setup allocation shows in -prof gc
        }
    }

    @Override
    protected void createAll(int n) {
        World w = world;
        long[] e = ids;
        if (builderVariant) {
            EntityBuilder b = builder;
            Component<Position> p = pos;
            Component<Velocity> v = vel;
            for (int i = 0; i < n; i++) {
                long id = b.spawn();
                w.set(id, p, new Position(px(i), py(i), pz(i)));
                w.set(id, v, new Velocity(vx(i), vy(i), vz(i)));
                e[i] = id;
            }
        } else {
            for (int i = 0; i < n; i++) {
                e[i] = w.spawn(new Position(px(i), py(i), pz(i)), new Velocity(vx(i), vy(i), vz(i)));
            }
        }
    }

    @Override
    public void addExtra() {
        World w = world;
        Component<Extra> x = extra;
        long[] e = ids;
        for (int i = 0, n = size; i < n; i++) {
            w.add(e[i], x, new Extra(extra(i)));
        }
    }

    @Override
    public void removeExtra() {
        World w = world;
        Component<Extra> x = extra;
        long[] e = ids;
        for (int i = 0, n = size; i < n; i++) {
            w.remove(e[i], x);
        }
    }

    @Override
    protected void step(float dt) {
        this.dt = dt;
        moving.forEachChunk(moveKernel);
    }

    private void moveChunk(ChunkView chunk) {
        Field[] f = fields;
        float[] x = chunk.writeFloats(f[0]);
        float[] y = chunk.writeFloats(f[1]);
        float[] z = chunk.writeFloats(f[2]);
        float[] vx = chunk.readFloats(f[3]);
        float[] vy = chunk.readFloats(f[4]);
        float[] vz = chunk.readFloats(f[5]);
        float d = dt;
        for (int i = 0, n = chunk.size(); i < n; i++) {
            x[i] += vx[i] * d;
            y[i] += vy[i] * d;
            z[i] += vz[i] * d;
        }
    }

    @Override
    protected void release() {
        world = null;
        moving = null;
        builder = null;
        ids = null;
    }

    @Override
    protected int count() {
        return moving.count();
    }

    @Override
    protected float value(int i, int field) {
        return world.getFloat(ids[i], fields[field]);
    }

    @Override
    protected boolean hasExtra(int i) {
        return world.has(ids[i], extra);
    }

    @Override
    protected int extraValue(int i) {
        return world.getInt(ids[i], extraV);
    }

    @Override
    void corrupt(int i) {
        world.setFloat(ids[i], fields[0], -12345f);
    }

    @Override
    void corruptExtra(int i) {
        world.setInt(ids[i], extraV, -1);
    }
}
