package dev.orrery.bench.peers;

import dev.orrery.bench.fixture.Position;
import dev.orrery.bench.fixture.Velocity;
import dev.orrery.ecs.ChunkConsumer;
import dev.orrery.ecs.ChunkView;
import dev.orrery.ecs.Query;
import dev.orrery.ecs.Shape;
import dev.orrery.ecs.World;
import dev.orrery.ecs.component.Component;
import dev.orrery.ecs.component.Field;
import dev.orrery.ecs.component.Storage;

/**
 * Orrery through its public API, the way the README teaches: {@code world.spawn(new
 * Position(..), new Velocity(..))} per entity (or a prepared {@code Shape}: its
 * {@code spawn(records)}, or its {@code spawnRow()} writing the six fields with no record),
 * {@code world.add(e, extra, new Extra(v))} and {@code world.remove(e, extra)} (the extra
 * column in table storage, or sparse in the sparse variant), and a query's
 * {@code forEachChunk} over the chunk's {@code float} arrays.
 *
 * <p><b>Threading:</b> the world is used on JMH's benchmark thread only.
 */
final class OrreryPeer extends PeerWorld {
    /** How entities are spawned, and where the extra component is stored. */
    enum Variant {
        /** {@code world.spawn(records)}, table storage: the README idiom. */
        VALUES,
        /** A prepared {@code Shape}'s {@code spawn(records)}. */
        SHAPE,
        /** A prepared {@code Shape}'s {@code spawnRow()}, six field writes, no records. */
        ROW,
        /** As {@link #VALUES}, with the extra component in sparse storage. */
        SPARSE,
        /** A prepared {@code Shape}'s {@code spawnMany(n, writer)} after {@code reserve(n)}: bulk, no records. */
        BULK
    }

    private final Variant variant;
    private World world;
    private Component<Position> pos;
    private Component<Velocity> vel;
    private Component<Extra> extra;
    private Field[] fields;
    private Field extraV;
    private Query moving;
    private Shape shape;
    private long[] ids;
    private float dt;
    private final ChunkConsumer moveKernel = this::moveChunk;
    private final Shape.BatchWriter bulkWriter = this::writeBulk;

    OrreryPeer(Variant variant) {
        this.variant = variant;
    }

    @Override
    public String describe() {
        switch (variant) {
            case SHAPE: return "Orrery (Shape.spawn(records))";
            case ROW: return "Orrery (Shape.spawnRow() + 6 field writes)";
            case SPARSE: return "Orrery (world.spawn(records), sparse Extra)";
            case BULK: return "Orrery (Shape.reserve + spawnMany(n, writer), bulk)";
            default: return "Orrery (world.spawn(records))";
        }
    }

    @Override
    protected void clear(int capacity) {
        world = new World();
        pos = world.component(Position.class);
        vel = world.component(Velocity.class);
        extra = variant == Variant.SPARSE ? world.component(Extra.class, Storage.SPARSE)
                : world.component(Extra.class);
        fields = new Field[] {
            pos.field("x"), pos.field("y"), pos.field("z"), vel.field("x"), vel.field("y"), vel.field("z")};
        extraV = extra.field("v");
        moving = world.query().with(pos, vel).build();
        shape = world.shape(pos, vel);
        if (variant == Variant.BULK) {
            shape.reserve(capacity); // outside the timed code, like the flat baseline's arrays
        }
        if (ids == null || ids.length < capacity) {
            ids = new long[capacity]; // kept across resets: setup allocation shows in -prof gc
        }
    }

    @Override
    protected void createAll(int n) {
        World w = world;
        long[] e = ids;
        Shape s = shape;
        if (variant == Variant.BULK) {
            ids = s.spawnMany(n, bulkWriter);
        } else if (variant == Variant.SHAPE) {
            for (int i = 0; i < n; i++) {
                e[i] = s.spawn(new Position(px(i), py(i), pz(i)), new Velocity(vx(i), vy(i), vz(i)));
            }
        } else if (variant == Variant.ROW) {
            Field[] f = fields;
            for (int i = 0; i < n; i++) {
                e[i] = s.spawnRow().setFloat(f[0], px(i)).setFloat(f[1], py(i)).setFloat(f[2], pz(i))
                        .setFloat(f[3], vx(i)).setFloat(f[4], vy(i)).setFloat(f[5], vz(i)).id();
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

    /** Writes entities {@code first ..} of a bulk spawn: the same values {@code create} gives one by one. */
    private void writeBulk(ChunkView rows, int from, int to, int first) {
        Field[] f = fields;
        float[] x = rows.writeFloats(f[0]);
        float[] y = rows.writeFloats(f[1]);
        float[] z = rows.writeFloats(f[2]);
        float[] vx = rows.writeFloats(f[3]);
        float[] vy = rows.writeFloats(f[4]);
        float[] vz = rows.writeFloats(f[5]);
        for (int r = from, i = first; r < to; r++, i++) {
            x[r] = px(i);
            y[r] = py(i);
            z[r] = pz(i);
            vx[r] = vx(i);
            vy[r] = vy(i);
            vz[r] = vz(i);
        }
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
        shape = null;
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
