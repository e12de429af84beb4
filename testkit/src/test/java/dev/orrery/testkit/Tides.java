package dev.orrery.testkit;

import dev.orrery.ecs.ChunkView;
import dev.orrery.ecs.CommandBuffer;
import dev.orrery.ecs.Query;
import dev.orrery.ecs.Relation;
import dev.orrery.ecs.World;
import dev.orrery.ecs.component.Component;
import dev.orrery.ecs.component.Field;
import dev.orrery.ecs.component.Storage;
import dev.orrery.engine.CounterRandom;
import dev.orrery.engine.InputBatch;
import dev.orrery.engine.ResourceCodec;
import dev.orrery.engine.Simulation;
import dev.orrery.scheduler.EventKey;
import dev.orrery.scheduler.EventReader;
import dev.orrery.scheduler.FixedTimestep;
import dev.orrery.scheduler.Phase;
import dev.orrery.scheduler.ResourceKey;
import dev.orrery.scheduler.RunCondition;
import dev.orrery.scheduler.States;
import java.io.DataInput;
import java.io.DataOutput;
import java.io.IOException;

/**
 * A game where the flow features meet: a state machine switched by inputs and by the clock,
 * an {@code onEnter} system that spawns children (a ChildOf pair and a sparse column) and an
 * {@code onExit} one, a fixed-timestep phase that sends events, a reader ordered before the
 * writer (so events cross the tick boundary, and a snapshot between ticks holds them), a
 * system gated by the state that despawns parents (the ChildOf cleanup takes their children
 * and their sparse columns), an observer hook that adds a sparse component, an exclusive
 * system iterating a {@code changed} query (its last run travels in snapshots), and a system
 * that slows the fixed step. All the kit's runs must agree on it. A {@link Flaw} plants a
 * run-dependent value in the fixed-step phase or in the onEnter system, which the kit must lay
 * at that system.
 */
final class Tides {
    record Pos(float x) {}
    record Vel(float v) {}
    record Heat(int level) {}
    record Shell(int layers) {}
    record Bump(long who, int step) {}

    enum Sea { CALM, STORM }

    /** A run-dependent value planted in one system: none, in the fixed-step phase, in an onEnter system. */
    enum Flaw { NONE, IN_FIXED_STEP, ON_ENTER }

    static int shared; // the flawed systems' run-dependent counter

    /** State kept across ticks: it has a codec. */
    static final class Log {
        long bumps;
        long bumpSum;
        long changedRows;
        long entered;
        long exited;
        long physicsSteps;
    }

    static final int TOGGLE = 5;
    static final ResourceKey<Log> LOG = ResourceKey.of("log", Log.class);
    static final ResourceKey<States<Sea>> SEA = States.key("sea", Sea.class);
    static final ResourceKey<FixedTimestep> PHYS = ResourceKey.of("phys", FixedTimestep.class);
    static final EventKey<Bump> BUMPS = EventKey.of("bumps", Bump.class);

    /** A player toggles the sea at ticks 4, 13 and 22 (and then every 9th). */
    static final InputScript PLAYERS = (tick, send) -> {
        if (tick % 9 == 4) {
            send.input(1, TOGGLE, new byte[0]);
        }
    };

    static final ResourceCodec<Log> LOG_CODEC = new ResourceCodec<>() {
        @Override
        public void write(Log l, DataOutput out) throws IOException {
            out.writeLong(l.bumps);
            out.writeLong(l.bumpSum);
            out.writeLong(l.changedRows);
            out.writeLong(l.entered);
            out.writeLong(l.exited);
            out.writeLong(l.physicsSteps);
        }

        @Override
        public Log read(DataInput in) throws IOException {
            Log l = new Log();
            l.bumps = in.readLong();
            l.bumpSum = in.readLong();
            l.changedRows = in.readLong();
            l.entered = in.readLong();
            l.exited = in.readLong();
            l.physicsSteps = in.readLong();
            return l;
        }
    };

    private Tides() {
    }

    static Simulation build(int workers, boolean populate) {
        return build(workers, populate, Flaw.NONE);
    }

    static Simulation build(int workers, boolean populate, Flaw flaw) {
        World world = new World(256);
        Component<Pos> pos = world.component(Pos.class);
        Component<Vel> vel = world.component(Vel.class);
        Component<Heat> heat = world.component(Heat.class);
        Component<Shell> shell = world.component(Shell.class, Storage.SPARSE);
        Relation childOf = world.relations().childOf();
        if (populate) {
            for (int i = 0; i < 600; i++) {
                world.spawn(new Pos(i % 100), new Vel(1 + i % 7));
            }
        }
        Field px = pos.field("x"), vv = vel.field("v"), layers = shell.field("layers");
        world.observe(heat).onAdd((w, e, commands) -> commands.add(e, shell, new Shell(1)));
        Query bodies = world.query().with(pos, vel).build();
        Query moved = world.query().with(pos).changed(pos).build();
        Query shelled = world.query().with(pos).optional(shell, heat).build();
        Phase physics = Phase.named("Physics");
        return Simulation.builder(world).seed(5).workers(workers)
                .resource(LOG, new Log(), LOG_CODEC)
                .resource(SEA, new States<>(Sea.class, Sea.CALM))
                .resource(PHYS, new FixedTimestep(20, 16, 3))
                .systems(s -> {
                    s.phases(Phase.PRE_UPDATE, physics, Phase.UPDATE, Phase.POST_UPDATE).fixedTimestep(physics, PHYS);
                    // the reader comes before the writer: it reads last tick's bumps
                    s.system("tally").inPhase(Phase.PRE_UPDATE).readsEvents(BUMPS).writesResource(LOG)
                            .forEachRange(() -> 1, (job, from, to) -> {
                                EventReader<Bump> bumps = job.events(BUMPS);
                                Log log = job.resourceForWrite(LOG);
                                bumps.forEach(b -> {
                                    log.bumps++;
                                    log.bumpSum = log.bumpSum * 31 + b.who() * 7 + b.step();
                                });
                            });
                    s.system("integrate").inPhase(physics).query(bodies).reads(vel).writes(pos)
                            .readsResource(PHYS).writesEvents(BUMPS).forEachChunk(job -> {
                                ChunkView c = job.chunk();
                                float[] x = c.writeFloats(px), v = c.readFloats(vv);
                                int step = job.resource(PHYS).stepInRun();
                                for (int i = 0, n = c.size(); i < n; i++) {
                                    x[i] += v[i] + (flaw == Flaw.IN_FIXED_STEP && i == 0 ? shared++ % 3 : 0);
                                    if (x[i] > 200) {
                                        x[i] -= 200;
                                        job.send(BUMPS, new Bump(c.entity(i), step));
                                    }
                                }
                            });
                    s.system("count steps").inPhase(physics).after("integrate").writesResource(LOG)
                            .forEachRange(() -> 1, (job, from, to) -> job.resourceForWrite(LOG).physicsSteps++);
                    s.system("brood").onEnter(SEA, Sea.STORM).query(bodies).reads(pos).spawns(pos, vel, shell)
                            .adds(childOf.column()).writesResource(LOG).forEachChunk(job -> {
                                ChunkView c = job.chunk();
                                CommandBuffer cmd = job.commands();
                                float[] x = c.readFloats(px);
                                for (int i = 0, n = c.size(); i < n; i += 37) {
                                    long child = cmd.spawn();
                                    cmd.add(child, pos, new Pos(x[i]));
                                    cmd.add(child, vel, new Vel(2 + (flaw == Flaw.ON_ENTER ? shared++ % 3 : 0)));
                                    cmd.add(child, shell, new Shell(3));
                                    cmd.addPair(child, childOf, c.entity(i));
                                }
                                if (job.chunkOrdinal() == 0) {
                                    job.resourceForWrite(LOG).entered++;
                                }
                            });
                    s.system("calm down").onExit(SEA, Sea.STORM).writesResource(LOG)
                            .forEachRange(() -> 1, (job, from, to) -> job.resourceForWrite(LOG).exited++);
                    s.system("erode").query(shelled).reads(pos, shell, heat).adds(heat).removes(shell).despawns()
                            .readsResource(Simulation.RANDOM, Simulation.CLOCK)
                            .runIf(RunCondition.inState(SEA, Sea.STORM)).forEachChunk(job -> {
                                CounterRandom r = job.resource(Simulation.RANDOM);
                                long t = job.resource(Simulation.CLOCK).tick();
                                ChunkView c = job.chunk();
                                CommandBuffer cmd = job.commands();
                                for (int i = 0, n = c.size(); i < n; i++) {
                                    long e = c.entity(i);
                                    float roll = r.nextFloat(t, e, 0);
                                    if (roll < 0.01f) {
                                        cmd.despawn(e);
                                    } else if (roll < 0.05f && !c.has(heat, i)) {
                                        cmd.add(e, heat, new Heat(1)); // the hook adds a Shell
                                    } else if (roll < 0.1f && c.has(shell, i)) {
                                        cmd.remove(e, shell);
                                    }
                                }
                            });
                    s.system("thicken").inPhase(Phase.POST_UPDATE).query(shelled)
                            .reads(shell).setsLater(shell).forEachChunk(job -> {
                                ChunkView c = job.chunk();
                                CommandBuffer cmd = job.commands();
                                for (int i = 0, n = c.size(); i < n; i++) {
                                    if (c.has(shell, i) && c.entity(i) % 5 == 0) {
                                        cmd.setInt(c.entity(i), layers, c.get(shell, i).layers() + 1);
                                    }
                                }
                            });
                    s.system("watch").inPhase(Phase.POST_UPDATE).reads(pos).writesResource(LOG)
                            .exclusive((w, job) -> {
                                long[] n = {0};
                                moved.forEachChunk(c -> n[0] += c.size());
                                job.resourceForWrite(LOG).changedRows += n[0];
                            });
                    s.system("weather").inPhase(Phase.POST_UPDATE).writesResource(SEA, PHYS)
                            .readsResource(Simulation.INPUTS, Simulation.CLOCK).forEachRange(() -> 1, (job, from, to) -> {
                                InputBatch in = job.resource(Simulation.INPUTS);
                                long t = job.resource(Simulation.CLOCK).tick();
                                States<Sea> sea = job.resourceForWrite(SEA);
                                for (int k = 0; k < in.size(); k++) {
                                    if (in.type(k) == TOGGLE) {
                                        sea.request(sea.current() == Sea.CALM ? Sea.STORM : Sea.CALM);
                                    }
                                }
                                job.resourceForWrite(PHYS).unitsPerRun(t % 11 < 5 ? 16 : 40); // gusts
                            });
                })
                .build();
    }
}
