package dev.orrery.bench.peers;

import com.artemis.Archetype;
import com.artemis.ArchetypeBuilder;
import com.artemis.Component;
import com.artemis.ComponentMapper;
import com.artemis.World;
import com.artemis.WorldConfigurationBuilder;
import com.artemis.annotations.All;
import com.artemis.systems.IteratingSystem;

/**
 * Artemis-odb 2.3.0 the way its documentation and the Dominion comparison suite use it:
 * entities from a prepared {@code Archetype} ({@code world.create(archetype)}), values
 * written through {@code ComponentMapper.get}, {@code Extra} added with
 * {@code ComponentMapper.create} and removed with {@code ComponentMapper.remove} (the javadoc's
 * "recommended way to mutate composition"), and iteration by an {@code IteratingSystem} over
 * {@code @All(Pos, Vel)} run by {@code world.process()}.
 *
 * <p>Artemis records composition changes and applies them to its subscriptions in
 * {@code world.process()}; each timed workload that changes structure ends with one
 * {@code world.process()}, so the measured time includes that work. The move system is
 * registered in every world (its subscription is kept current through every workload, as
 * in a game) and enabled only while the move workload runs.
 *
 * <p><b>Threading:</b> the world is used on JMH's benchmark thread only.
 */
public final class ArtemisPeer extends PeerWorld {
    /** Artemis' position component (Artemis components are mutable {@code Component} subclasses). */
    public static final class Pos extends Component {
        /** Coordinates. */
        public float x, y, z;
    }

    /** Artemis' velocity component. */
    public static final class Vel extends Component {
        /** Components. */
        public float x, y, z;
    }

    /** Artemis' extra component. */
    public static final class Xtra extends Component {
        /** The value. */
        public int v;
    }

    /** {@code p += v * delta} over every entity holding both; mappers are injected by Artemis. */
    @All({Pos.class, Vel.class})
    public static final class MoveSystem extends IteratingSystem {
        ComponentMapper<Pos> positions;
        ComponentMapper<Vel> velocities;

        @Override
        protected void process(int entityId) {
            Pos p = positions.get(entityId);
            Vel v = velocities.get(entityId);
            float d = world.delta;
            p.x += v.x * d;
            p.y += v.y * d;
            p.z += v.z * d;
        }
    }

    private World world;
    private MoveSystem mover;
    private Archetype shape;
    private ComponentMapper<Pos> positions;
    private ComponentMapper<Vel> velocities;
    private ComponentMapper<Xtra> extras;
    private int[] ids;

    @Override
    public String describe() {
        return "Artemis-odb 2.3.0 (world.create(archetype) + mappers)";
    }

    @Override
    protected void clear(int capacity) {
        if (world != null) {
            world.dispose();
        }
        mover = new MoveSystem();
        world = new World(new WorldConfigurationBuilder().with(mover).build());
        mover.setEnabled(false); // only the move workload runs it
        shape = new ArchetypeBuilder().add(Pos.class, Vel.class).build(world);
        positions = world.getMapper(Pos.class);
        velocities = world.getMapper(Vel.class);
        extras = world.getMapper(Xtra.class);
        if (ids == null || ids.length < capacity) {
            ids = new int[capacity]; // kept across resets: setup allocation shows in -prof gc
        }
    }

    @Override
    protected void createAll(int n) {
        World w = world;
        Archetype a = shape;
        ComponentMapper<Pos> pm = positions;
        ComponentMapper<Vel> vm = velocities;
        int[] e = ids;
        for (int i = 0; i < n; i++) {
            int id = w.create(a);
            Pos p = pm.get(id);
            p.x = px(i);
            p.y = py(i);
            p.z = pz(i);
            Vel v = vm.get(id);
            v.x = vx(i);
            v.y = vy(i);
            v.z = vz(i);
            e[i] = id;
        }
        w.process();
    }

    @Override
    public void addExtra() {
        ComponentMapper<Xtra> xm = extras;
        int[] e = ids;
        for (int i = 0, n = size; i < n; i++) {
            xm.create(e[i]).v = extra(i);
        }
        world.process();
    }

    @Override
    public void removeExtra() {
        ComponentMapper<Xtra> xm = extras;
        int[] e = ids;
        for (int i = 0, n = size; i < n; i++) {
            xm.remove(e[i]);
        }
        world.process();
    }

    @Override
    protected void step(float dt) {
        world.setDelta(dt);
        mover.setEnabled(true);
        world.process();
        mover.setEnabled(false);
    }

    @Override
    protected void release() {
        if (world != null) {
            world.dispose();
        }
        world = null;
        mover = null;
        shape = null;
        positions = null;
        velocities = null;
        extras = null;
        ids = null;
    }

    @Override
    protected int count() {
        return mover.getSubscription().getEntities().size();
    }

    @Override
    protected float value(int i, int field) {
        int id = ids[i];
        if (field < 3) {
            Pos p = positions.get(id);
            return field == 0 ? p.x : field == 1 ? p.y : p.z;
        }
        Vel v = velocities.get(id);
        return field == 3 ? v.x : field == 4 ? v.y : v.z;
    }

    @Override
    protected boolean hasExtra(int i) {
        return extras.has(ids[i]);
    }

    @Override
    protected int extraValue(int i) {
        return extras.get(ids[i]).v;
    }

    @Override
    void corrupt(int i) {
        positions.get(ids[i]).x = -12345f;
    }

    @Override
    void corruptExtra(int i) {
        extras.get(ids[i]).v = -1;
    }
}
