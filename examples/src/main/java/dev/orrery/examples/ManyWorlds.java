package dev.orrery.examples;

import dev.orrery.ecs.ChunkView;
import dev.orrery.ecs.World;
import dev.orrery.ecs.component.Component;
import dev.orrery.ecs.component.Field;
import dev.orrery.engine.RandomCursor;
import dev.orrery.engine.Simulation;
import dev.orrery.engine.host.HostedWorld;
import dev.orrery.engine.host.WorldHost;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

/**
 * Several simulations on one {@link WorldHost}: three arenas of different sizes and tick
 * rates share a pool of two threads instead of a thread each. A hosted world's ticks run one at
 * a time, in order, on whichever pool thread is free, so it ends in the same state it reaches
 * alone; each line prints the arena's hash and checks it against the same arena run alone.
 * Run it with a tick count for the fastest arena ({@code 120} by default).
 */
public final class ManyWorlds {
    record Position(float x, float y) {}
    record Velocity(float dx, float dy) {}

    private ManyWorlds() {
    }

    /** An arena of {@code movers} wanderers whose random walk comes from {@code seed}. */
    static Simulation arena(int movers, long seed) {
        World world = new World();
        Component<Position> pos = world.component(Position.class);
        Component<Velocity> vel = world.component(Velocity.class);
        Field x = pos.field("x"), y = pos.field("y"), dx = vel.field("dx"), dy = vel.field("dy");
        world.entity().with(pos, new Position(0, 0)).with(vel, new Velocity(1, 0)).spawnMany(movers);
        return Simulation.builder(world).seed(seed)          // workers(1), the default: the host's thread runs it
                .systems(s -> s.system("wander").query(world.query().with(pos, vel).build()).writes(pos, vel)
                        .readsResource(Simulation.CLOCK, Simulation.RANDOM)
                        .forEachChunk(job -> {
                            ChunkView c = job.chunk();
                            long tick = job.resource(Simulation.CLOCK).tick();
                            RandomCursor rng = job.resource(Simulation.RANDOM).cursor();
                            float[] px = c.writeFloats(x), py = c.writeFloats(y);
                            float[] vx = c.writeFloats(dx), vy = c.writeFloats(dy);
                            for (int i = 0; i < c.size(); i++) {
                                rng.reset(tick, c.entity(i), 0);
                                vx[i] += rng.nextFloat() - 0.5f;
                                vy[i] += rng.nextFloat() - 0.5f;
                                px[i] += vx[i];
                                py[i] += vy[i];
                            }
                        }))
                .build();
    }

    public static void main(String[] args) {
        ProgramArgs.atMost("ManyWorlds", args, "ticks");
        int ticks = ProgramArgs.number("ManyWorlds", args, 0, "ticks", 120, 4, 1_000_000); // a quarter of it is at least 1
        String[] names = {"arena-a", "arena-b", "arena-c"};
        int[] movers = {1_000, 4_000, 250};
        double[] hz = {240, 120, 60};                          // each arena ticks at its own rate
        long[] limits = {ticks, ticks / 2, ticks / 4};         // so all three run for the same half second
        long[] alone = new long[names.length];
        for (int i = 0; i < names.length; i++) {
            try (Simulation sim = arena(movers[i], i)) {       // each arena alone, on this thread, for comparison
                sim.run(limits[i], 0);
                alone[i] = sim.world().stateHash();
            }
        }
        // snippet:host
        try (WorldHost host = WorldHost.builder().threads(2).build()) {
            List<HostedWorld> hosted = new ArrayList<>();
            for (int i = 0; i < names.length; i++) {           // from now on the host ticks them
                hosted.add(host.add(names[i], arena(movers[i], i), hz[i], limits[i], Duration.ZERO));
            }
            for (int i = 0; i < names.length; i++) {
                HostedWorld w = hosted.get(i);
                try (Simulation sim = w.done().join()) {        // completes after its last tick: FINISHED
                    sim.bindTickThread();                       // this thread takes the simulation back
                    long hash = sim.world().stateHash();
                    System.out.printf("%s: %d movers, %d ticks at %.0f Hz, %s, same as alone: %b, hash=%016x%n",
                            w.name(), movers[i], w.stats().ticks(), w.hz(), w.state(), hash == alone[i], hash);
                }
            }
            System.out.printf("the host's %d threads ran %d ticks%n", host.threads(), host.stats().ticks());
        }
        // end:host
    }
}
