package dev.orrery.bench.gameloop;

import com.artemis.Archetype;
import com.artemis.ArchetypeBuilder;
import com.artemis.Aspect;
import com.artemis.BaseEntitySystem;
import com.artemis.BaseSystem;
import com.artemis.Component;
import com.artemis.ComponentMapper;
import com.artemis.World;
import com.artemis.WorldConfigurationBuilder;
import com.artemis.annotations.All;
import com.artemis.systems.IteratingSystem;
import com.artemis.utils.IntBag;
import dev.orrery.bench.peers.ArtemisPeer;
import dev.orrery.bench.peers.ArtemisPeer.MoveSystem;
import dev.orrery.bench.peers.ArtemisPeer.Pos;
import dev.orrery.bench.peers.ArtemisPeer.Vel;

/**
 * The particle scenario in Artemis-odb 2.3.0, in its documented idiom: components as mutable
 * {@code Component} subclasses, four {@code IteratingSystem}s and a {@code BaseSystem} in
 * registration order, run by {@code world.process()}; the reaper calls
 * {@code world.delete(id)}, the respawn {@code world.create(archetype)} and writes values
 * through {@code ComponentMapper.get}. Artemis applies a system's deletions and creations to
 * the subscriptions after that system, so the counter (the subscription's size) sees them.
 *
 * <p><b>Threading:</b> one thread, as Artemis runs.
 */
final class ArtemisParticles extends ParticleLoop {
    /** Health; position, velocity and the move system are the peers package's ({@link ArtemisPeer}). */
    public static final class Hp extends Component {
        /** Ticks left. */
        public float hp;
    }

    /** Health falls by one. */
    @All(Hp.class)
    public static final class DamageSystem extends IteratingSystem {
        ComponentMapper<Hp> healths;

        @Override
        protected void process(int id) {
            healths.get(id).hp -= 1f;
        }
    }

    /** Deletes the dead and counts them. */
    @All(Hp.class)
    public static final class ReapSystem extends IteratingSystem {
        ComponentMapper<Hp> healths;
        int died;

        @Override
        protected void begin() {
            died = 0;
        }

        @Override
        protected void process(int id) {
            if (healths.get(id).hp <= 0f) {
                world.delete(id);
                died++;
            }
        }
    }

    /** Creates as many particles as the reaper deleted. */
    public static final class RespawnSystem extends BaseSystem {
        ComponentMapper<Pos> positions;
        ComponentMapper<Vel> velocities;
        ComponentMapper<Hp> healths;
        ArtemisParticles loop;
        ReapSystem reaper;
        Archetype shape;

        @Override
        protected void processSystem() {
            long s = loop.seed;
            int t = loop.tick;
            for (int k = 0, n = reaper.died; k < n; k++) {
                int id = world.create(shape);
                Pos p = positions.get(id);
                p.x = Particles.value(s, t, k, 0);
                p.y = Particles.value(s, t, k, 1);
                p.z = Particles.value(s, t, k, 2);
                Vel v = velocities.get(id);
                v.x = Particles.value(s, t, k, 3);
                v.y = Particles.value(s, t, k, 4);
                v.z = Particles.value(s, t, k, 5);
                healths.get(id).hp = Particles.LIFETIME;
            }
        }
    }

    /** Counts the living: the size of its subscription. */
    @All({Pos.class, Vel.class, Hp.class})
    public static final class CountSystem extends BaseEntitySystem {
        int living;

        @Override
        protected void processSystem() {
            living = subscription.getEntities().size();
        }
    }

    private World world;
    private final ReapSystem reaper = new ReapSystem();
    private final RespawnSystem respawner = new RespawnSystem();
    private final CountSystem counter = new CountSystem();

    ArtemisParticles(long seed) {
        super(seed);
    }

    @Override
    public String describe() {
        return "Artemis-odb 2.3.0 (IteratingSystems, world.delete, world.create(archetype) + mappers)";
    }

    @Override
    protected void populate(int n) {
        world = new World(new WorldConfigurationBuilder()
                .with(new MoveSystem(), new DamageSystem(), reaper, respawner, counter).build());
        world.setDelta(Particles.DT);
        Archetype shape = new ArchetypeBuilder().add(Pos.class, Vel.class, Hp.class).build(world);
        respawner.loop = this;
        respawner.reaper = reaper;
        respawner.shape = shape;
        ComponentMapper<Pos> pm = world.getMapper(Pos.class);
        ComponentMapper<Vel> vm = world.getMapper(Vel.class);
        ComponentMapper<Hp> hm = world.getMapper(Hp.class);
        for (int i = 0; i < n; i++) {
            int id = world.create(shape);
            Pos p = pm.get(id);
            p.x = Particles.value(seed, Particles.INITIAL, i, 0);
            p.y = Particles.value(seed, Particles.INITIAL, i, 1);
            p.z = Particles.value(seed, Particles.INITIAL, i, 2);
            Vel v = vm.get(id);
            v.x = Particles.value(seed, Particles.INITIAL, i, 3);
            v.y = Particles.value(seed, Particles.INITIAL, i, 4);
            v.z = Particles.value(seed, Particles.INITIAL, i, 5);
            hm.get(id).hp = Particles.initialHealth(i);
        }
    }

    @Override
    protected void step() {
        world.process();
    }

    @Override
    public int living() {
        return counter.living;
    }

    @Override
    public long checksum() {
        IntBag ids = world.getAspectSubscriptionManager().get(Aspect.all(Pos.class, Vel.class, Hp.class)).getEntities();
        ComponentMapper<Pos> pm = world.getMapper(Pos.class);
        ComponentMapper<Vel> vm = world.getMapper(Vel.class);
        ComponentMapper<Hp> hm = world.getMapper(Hp.class);
        long sum = 0;
        for (int i = 0, n = ids.size(); i < n; i++) {
            int id = ids.get(i);
            Pos p = pm.get(id);
            Vel v = vm.get(id);
            sum += Particles.checksum(p.x, p.y, p.z, v.x, v.y, v.z, hm.get(id).hp);
        }
        return sum;
    }

    @Override
    public void close() {
        if (world != null) {
            world.dispose();
        }
    }
}
