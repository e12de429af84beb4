package dev.orrery.examples;

import dev.orrery.ecs.ChunkView;
import dev.orrery.ecs.CommandBuffer;
import dev.orrery.ecs.CommandKind;
import dev.orrery.ecs.CommandOutcome;
import dev.orrery.ecs.Query;
import dev.orrery.ecs.Shape;
import dev.orrery.ecs.World;
import dev.orrery.ecs.component.Component;
import dev.orrery.ecs.component.Field;
import dev.orrery.engine.CounterRandom;
import dev.orrery.engine.RandomCursor;
import dev.orrery.engine.Simulation;
import dev.orrery.scheduler.LongSum;
import dev.orrery.scheduler.Phase;
import dev.orrery.scheduler.ResourceKey;

/**
 * The particle scenario published for JVM ECS libraries: particles with a position, a velocity
 * and a health; every tick they move and lose one health, the dead are reaped through a command
 * buffer, as many fresh ones respawn through a prepared {@link Shape}, and the living are
 * counted into a {@link LongSum}. The same run on 1 and 2 workers prints the same state hash.
 * Run it with a tick count ({@code 300} by default).
 */
public final class ParticleGameLoop {
    // snippet:components
    record Position(float x, float y) {}
    record Velocity(float dx, float dy) {}
    record Health(int hp) {}
    // end:components

    static final int PARTICLES = 20_000;
    /** A fresh particle's health: it lives this many ticks. Initial healths spread over 1..100. */
    static final int LIFETIME = 100;

    // snippet:sums
    /** Particles reaped this tick: every job adds its chunk's count into a slot of its own, with no lock. */
    static final ResourceKey<LongSum> DEAD = ResourceKey.of("dead", LongSum.class);
    /** Particles alive at the end of the tick. */
    static final ResourceKey<LongSum> LIVING = ResourceKey.of("living", LongSum.class);
    // end:sums

    private ParticleGameLoop() {
    }

    /** The particles and their five systems, on {@code workers} threads (counting the tick thread). */
    static Simulation build(int workers) {
        World world = new World();
        Component<Position> pos = world.component(Position.class);
        Component<Velocity> vel = world.component(Velocity.class);
        Component<Health> health = world.component(Health.class);
        Field x = pos.field("x"), y = pos.field("y"), dx = vel.field("dx"), dy = vel.field("dy");
        Field hp = health.field("hp");
        // snippet:populate
        Shape particle = world.shape(pos, vel, health);          // prepared once: spawns need no look-up
        for (int i = 0; i < PARTICLES; i++) {
            particle.spawn(new Position(i % 200, i / 200f), new Velocity(i % 7 - 3, i % 5 - 2),
                    new Health(1 + i % LIFETIME));
        }
        Query particles = world.query().with(pos, vel, health).build();
        // end:populate
        int respawnStream = CounterRandom.stream("respawn");    // our own random stream, so other draws never shift it
        // snippet:systems
        return Simulation.builder(world).workers(workers).seed(7)
                .resource(DEAD, new LongSum()).resource(LIVING, new LongSum())
                .systems(s -> s.minBatchRows(2_048)            // small jobs, so that two workers really share chunks
                        .system("reset").inPhase(Phase.PRE_UPDATE).writesResource(DEAD, LIVING)
                        .forEachRange(() -> 1, (job, from, to) -> {
                            job.resourceForWrite(DEAD).reset();
                            job.resourceForWrite(LIVING).reset();
                        })
                        .system("move").query(particles).reads(vel).writes(pos).readsResource(Simulation.CLOCK)
                        .forEachChunk(job -> {
                            ChunkView c = job.chunk();
                            float dt = job.resource(Simulation.CLOCK).dt();
                            float[] px = c.writeFloats(x), py = c.writeFloats(y);   // checked against writes(pos)
                            float[] vx = c.readFloats(dx), vy = c.readFloats(dy);  // and reads(vel)
                            for (int i = 0; i < c.size(); i++) {
                                px[i] += vx[i] * dt;
                                py[i] += vy[i] * dt;
                            }
                        })
                        .system("damage").query(particles).writes(health).forEachChunk(job -> {
                            int[] h = job.chunk().writeInts(hp);
                            for (int i = 0; i < job.chunk().size(); i++) {
                                h[i]--;
                            }
                        })
                        // reads health, so the graph runs it after "damage"; despawns wait for the sync point
                        .system("reap").query(particles).reads(health).despawns().reducesResource(DEAD)
                        .forEachChunk(job -> {
                            ChunkView c = job.chunk();
                            int[] h = c.readInts(hp);
                            int died = 0;
                            for (int i = 0; i < c.size(); i++) {
                                if (h[i] <= 0) {
                                    job.commands().despawn(c.entity(i));
                                    died++;
                                }
                            }
                            job.add(DEAD, died);                   // once per chunk, not per row
                        })
                        // a range system over this tick's death toll: it reads DEAD, so it runs after "reap"
                        .system("respawn").readsResource(DEAD, Simulation.CLOCK, Simulation.RANDOM)
                        .spawns(pos, vel, health)
                        .forEachRange(() -> (int) s.resources().get(DEAD).total(), (job, from, to) -> {
                            long tick = job.resource(Simulation.CLOCK).tick();
                            RandomCursor rng = job.resource(Simulation.RANDOM).cursor(); // one per job
                            CommandBuffer commands = job.commands();
                            for (int k = from; k < to; k++) {
                                rng.reset(tick, k, respawnStream);  // draws keyed by (tick, k): the same anywhere
                                long p = commands.spawn(particle);  // straight into the shape's archetype, no records
                                commands.setFloat(p, x, rng.nextFloat() * 200);
                                commands.setFloat(p, y, rng.nextFloat() * 100);
                                commands.setFloat(p, dx, rng.nextFloat() * 6 - 3);
                                commands.setFloat(p, dy, rng.nextFloat() * 4 - 2);
                                commands.setInt(p, hp, LIFETIME);
                            }
                        })
                        // after the end of Update's sync point: it sees this tick's despawns and spawns
                        .system("count").inPhase(Phase.POST_UPDATE).query(particles).reducesResource(LIVING)
                        .forEachChunk(job -> job.add(LIVING, job.chunk().size())))
                .build();
        // end:systems
    }

    public static void main(String[] args) {
        ProgramArgs.atMost("ParticleGameLoop", args, "ticks");
        int ticks = ProgramArgs.number("ParticleGameLoop", args, 0, "ticks", 300, 1, 1_000_000);
        // snippet:run
        for (int workers = 1; workers <= 2; workers++) {
            try (Simulation sim = build(workers)) {
                sim.run(ticks, 0);                                   // as fast as possible
                long reaped = sim.commandTotals().count(CommandKind.DESPAWN, CommandOutcome.APPLIED);
                System.out.printf("%d worker(s), %d ticks: living=%d reaped=%d hash=%016x%n", workers, ticks,
                        sim.resources().get(LIVING).total(), reaped, sim.world().stateHash());
            }
        }
        // end:run
    }
}
