package dev.orrery.examples.book;

import dev.orrery.ecs.ChunkView;
import dev.orrery.ecs.CommandBuffer;
import dev.orrery.ecs.Query;
import dev.orrery.ecs.Shape;
import dev.orrery.ecs.World;
import dev.orrery.ecs.component.Component;
import dev.orrery.ecs.component.Field;
import dev.orrery.engine.CounterRandom;
import dev.orrery.engine.RandomCursor;
import dev.orrery.engine.Simulation;
import dev.orrery.examples.ProgramArgs;
import dev.orrery.scheduler.BatchDecision;
import dev.orrery.scheduler.LongSum;
import dev.orrery.scheduler.Phase;
import dev.orrery.scheduler.ResourceKey;

/**
 * The code of docs/game-loop.md: the particle scenario (particles move, take damage, the dead
 * are removed, as many are spawned, the living are counted) as one Simulation.
 */
public final class GameLoopChapter {
    private GameLoopChapter() {}

    // snippet:components
    record Position(float x, float y, float z) {}
    record Velocity(float x, float y, float z) {}
    record Health(float hp) {}
    // end:components

    // snippet:keys
    static final ResourceKey<LongSum> DEATHS = ResourceKey.of("deaths", LongSum.class);
    static final ResourceKey<LongSum> LIVING = ResourceKey.of("living", LongSum.class);
    static final int SPAWN = CounterRandom.stream("spawn");
    static final float LIFETIME = 100;
    // end:keys

    static Simulation build(int workers, int particles) {
        // snippet:world
        World world = new World();
        Component<Position> pos = world.component(Position.class);
        Component<Velocity> vel = world.component(Velocity.class);
        Component<Health> health = world.component(Health.class);
        Field px = pos.field("x"), py = pos.field("y"), pz = pos.field("z");
        Field vx = vel.field("x"), vy = vel.field("y"), vz = vel.field("z");
        Field hp = health.field("hp");

        Shape particle = world.shape(pos, vel, health);          // the one kind of entity here
        for (int i = 0; i < particles; i++) {
            particle.spawn(new Position(i, 0, 0), new Velocity(1, 0.5f, 0), new Health(1 + i % 100));
        }
        Query particlesQuery = world.query().with(pos, vel, health).build();
        // end:world

        return Simulation.builder(world).workers(workers).seed(2024)
                .resource(DEATHS, new LongSum())
                .resource(LIVING, new LongSum())
                .systems(s -> {
                    Query all = particlesQuery;
                    // snippet:move-damage
                    s.system("move").query(all).reads(vel).writes(pos).readsResource(Simulation.CLOCK)
                            .forEachChunk(job -> {
                                float dt = job.resource(Simulation.CLOCK).dt();
                                ChunkView c = job.chunk();
                                float[] x = c.writeFloats(px), y = c.writeFloats(py), z = c.writeFloats(pz);
                                float[] dx = c.readFloats(vx), dy = c.readFloats(vy), dz = c.readFloats(vz);
                                for (int i = 0, n = c.size(); i < n; i++) {
                                    x[i] += dx[i] * dt;
                                    y[i] += dy[i] * dt;
                                    z[i] += dz[i] * dt;
                                }
                            });
                    s.system("damage").query(all).writes(health).forEachChunk(job -> {
                        float[] h = job.chunk().writeFloats(hp);
                        for (int i = 0, n = job.chunk().size(); i < n; i++) h[i] -= 1;
                    });
                    // end:move-damage
                    // snippet:reap
                    s.system("reap").query(all).reads(health).despawns().reducesResource(DEATHS)
                            .forEachChunk(job -> {
                                ChunkView c = job.chunk();
                                float[] h = c.readFloats(hp);
                                long[] ids = c.entities();
                                CommandBuffer commands = job.commands();
                                int died = 0;
                                for (int i = 0, n = c.size(); i < n; i++) {
                                    if (h[i] <= 0) {
                                        commands.despawn(ids[i]);        // applied at the sync point
                                        died++;
                                    }
                                }
                                job.add(DEATHS, died);                   // this worker's slot
                            });
                    // end:reap
                    // snippet:respawn
                    s.system("respawn").spawns(pos, vel, health)
                            .readsResource(DEATHS, Simulation.RANDOM, Simulation.CLOCK)
                            .forEachRange(() -> (int) s.resources().get(DEATHS).total(), (job, from, to) -> {
                                long tick = job.resource(Simulation.CLOCK).tick();
                                RandomCursor rng = job.resource(Simulation.RANDOM).cursor();
                                CommandBuffer commands = job.commands();
                                for (int k = from; k < to; k++) {
                                    rng.reset(tick, k, SPAWN);           // keyed by tick and index
                                    long e = commands.spawn(particle);   // one command, no record
                                    commands.setFloat(e, px, rng.nextFloat() * 100);
                                    commands.setFloat(e, vx, rng.nextFloat() - 0.5f);
                                    commands.setFloat(e, vy, rng.nextFloat() - 0.5f);
                                    commands.setFloat(e, hp, LIFETIME);
                                }
                            });
                    // end:respawn
                    // snippet:count
                    s.system("count").inPhase(Phase.POST_UPDATE).query(all).reducesResource(LIVING)
                            .forEachChunk(job -> job.add(LIVING, job.chunk().size()));
                    s.system("new tick").inPhase(Phase.PRE_UPDATE).writesResource(DEATHS, LIVING)
                            .forEachRange(() -> 1, (job, from, to) -> {
                                job.resourceForWrite(DEATHS).reset();
                                job.resourceForWrite(LIVING).reset();
                            });
                    // end:count
                })
                .build();
    }

    public static void main(String[] args) {
        ProgramArgs.atMost("GameLoopChapter", args, "ticks");
        int ticks = ProgramArgs.number("GameLoopChapter", args, 0, "ticks", 300, 1, 1_000_000);
        // snippet:run
        try (Simulation sim = build(2, 10_000)) {
            sim.run(ticks, 60.0);                                        // paced at 60 ticks/s
            long living = sim.resources().get(LIVING).total();
            System.out.printf("tick %d: %d living, hash %016x%n", sim.currentTick(), living,
                    sim.world().stateHash());
            System.out.print(BatchDecision.toText(sim.batching()));
            System.out.println(sim.schedule());
        }
        // end:run
        try (Simulation one = build(1, 10_000); Simulation two = build(2, 10_000)) {
            one.run(ticks, 0);
            two.run(ticks, 0);
            if (one.world().stateHash() != two.world().stateHash()) {
                throw new AssertionError("1 and 2 workers differ");
            }
        }
        System.out.println("game loop chapter: ok");
    }
}
