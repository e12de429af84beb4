package dev.orrery.engine;

import dev.orrery.ecs.ChunkView;
import dev.orrery.ecs.CommandBuffer;
import dev.orrery.ecs.Query;
import dev.orrery.ecs.Relation;
import dev.orrery.ecs.RemovedEntities;
import dev.orrery.ecs.Shape;
import dev.orrery.ecs.World;
import dev.orrery.ecs.component.Component;
import dev.orrery.ecs.component.Field;
import dev.orrery.ecs.component.Storage;
import dev.orrery.scheduler.EventKey;
import dev.orrery.scheduler.EventReader;
import dev.orrery.scheduler.FixedTimestep;
import dev.orrery.scheduler.LongSum;
import dev.orrery.scheduler.Phase;
import dev.orrery.scheduler.ResourceKey;
import dev.orrery.scheduler.RunCondition;
import dev.orrery.scheduler.Schedule;
import dev.orrery.scheduler.States;
import java.util.EnumSet;
import java.util.Set;

/**
 * Test support: a simulation of particles that live {@value #LIFE} ticks, with the features a
 * game turns on, each switched on by a {@link Feature}, for tests that measure what a warm
 * tick allocates. Nothing in a system allocates: events are sent from a preallocated array and
 * component values added through commands are shared immutable records, so any allocation a
 * tick shows is the engine's.
 */
final class AllocationWorkload {
    /** What the simulation turns on besides moving its particles. */
    enum Feature {
        /** Commands: spawns through a shape with field writes, despawns, tag adds and removes. */
        COMMANDS,
        /** An event channel written by a chunk system and read by an exclusive one. */
        EVENTS,
        /** A user resource read and written, a run condition, a fixed-step phase, a state machine that changes state. */
        FLOW,
        /** Changed and added filters, per-row change tracking, observers, a removal log. */
        CHANGES,
        /** ChildOf pairs on spawned particles with a level system. */
        RELATIONS,
        /** A sparse component added and removed through commands. */
        SPARSE,
        /** An input pipeline the test publishes into every tick, read by a system with CounterRandom. */
        INPUTS,
        /**
         * A tick watchdog that never reports (its limit is far above a tick): every job is timed,
         * and the tick thread publishes its steps outside jobs (run conditions, sync points, hooks).
         */
        WATCHDOG,
        /** The state hash every tick. */
        HASH
    }

    record Pos(float x, float y) {
    }

    record Vel(float dx, float dy) {
    }

    record Life(int ticks) {
    }

    record Hp(int hp) {
    }

    record Marked() {
    }

    record Burning(float dps) {
    }

    record Ping(int from) {
    }

    enum Mode { REST, FIGHT }

    /** A user resource. */
    static final class Score {
        long points;
    }

    static final Phase FIXED = Phase.named("AllocationFixed");
    static final EventKey<Ping> PINGS = EventKey.of("allocationPings", Ping.class);
    static final ResourceKey<States<Mode>> MODE = States.key("allocationMode", Mode.class);
    static final ResourceKey<FixedTimestep> STEP = ResourceKey.of("allocationStep", FixedTimestep.class);
    static final ResourceKey<Score> SCORE = ResourceKey.of("allocationScore", Score.class);
    static final ResourceKey<LongSum> SEEN = ResourceKey.of("allocationSeen", LongSum.class);
    static final int LIFE = 64;
    static final int SPAWNS = 16;
    static final int INPUTS_PER_TICK = 8;
    private static final int WANDER = CounterRandom.stream("allocation wander");
    private static final Ping[] PING = {new Ping(0), new Ping(1), new Ping(2), new Ping(3)};
    private static final Burning FIRE = new Burning(2f);
    private static final Marked MARK = new Marked();

    final Set<Feature> features;
    final World world = new World(1024);
    final Component<Pos> pos = world.component(Pos.class);
    final Component<Vel> vel = world.component(Vel.class);
    final Component<Life> life = world.component(Life.class);
    final Component<Hp> hp = world.component(Hp.class);
    final Component<Marked> marked = world.component(Marked.class);
    final Component<Burning> burning = world.component(Burning.class, Storage.SPARSE);
    final Relation childOf = world.relations().childOf();
    final Shape particle = world.shape(pos, vel, life, hp);
    final Field px = pos.field("x");
    final Field py = pos.field("y");
    final Field vx = vel.field("dx");
    final Field ticksLeft = life.field("ticks");
    final Field hpv = hp.field("hp");
    /** Counts the systems and hooks bump, so a test can see that each feature ran. */
    final long[] counts = new long[16];
    final long[] roots = new long[8];

    AllocationWorkload(Set<Feature> features) {
        this.features = features.isEmpty() ? EnumSet.noneOf(Feature.class) : EnumSet.copyOf(features);
        if (has(Feature.CHANGES)) {
            world.trackRowChanges(hp);
            world.trackRemoved(life);
            world.observe(marked).onAdd((w, e, c) -> counts[0]++).onRemove((w, e, c) -> counts[1]++);
            world.observe(hp).onSet((w, e, c) -> counts[2]++);
        }
        for (int i = 0; i < roots.length; i++) {
            roots[i] = world.spawn(new Pos(i, 0));
        }
        for (int i = 0; i < SPAWNS * LIFE; i++) {
            long e = world.spawn(new Pos(i, 0), new Vel(1, 0), new Life(1 + i / SPAWNS), new Hp(10));
            if (has(Feature.RELATIONS)) {
                world.relations().add(e, childOf, roots[i % roots.length]);
            }
        }
    }

    boolean has(Feature f) {
        return features.contains(f);
    }

    /** The simulation, fed by {@code inputs} when not null. */
    Simulation build(int workers, InputSource inputs) {
        SimulationBuilder b = Simulation.builder(world).seed(5).workers(workers).hashEvery(has(Feature.HASH) ? 1 : 0)
                .resource(SCORE, new Score()).resource(SEEN, new LongSum())
                .resource(MODE, new States<>(Mode.class, Mode.REST))
                .resource(STEP, new FixedTimestep(5, 3, 3));
        if (inputs != null) {
            b.inputs(inputs);
        }
        if (has(Feature.WATCHDOG)) {
            b.watchdog(1e6, (tick, elapsed, system, job) -> { });
        }
        return b.systems(this::declare).build();
    }

    private void declare(Schedule.Builder s) {
        s.phases(Phase.PRE_UPDATE, FIXED, Phase.UPDATE, Phase.POST_UPDATE).fixedTimestep(FIXED, STEP);
        Query moving = world.query().with(pos, vel).build();
        s.system("move").query(moving).reads(vel).writes(pos).forEachChunk(job -> {
            ChunkView c = job.chunk();
            float[] x = c.writeFloats(px);
            float[] dx = c.readFloats(vx);
            for (int i = 0, n = c.size(); i < n; i++) {
                x[i] += dx[i] * 0.5f;
            }
        });
        Query aging = world.query().with(life).build();
        boolean commands = has(Feature.COMMANDS);
        s.system("age").inPhase(Phase.POST_UPDATE).query(aging).writes(life).despawns().adds(marked).removes(marked)
                .forEachChunk(job -> {
                    ChunkView c = job.chunk();
                    int[] t = c.writeInts(ticksLeft);
                    long[] ids = c.entities();
                    for (int i = 0, n = c.size(); i < n; i++) {
                        t[i]--;
                        if (!commands) {
                            if (t[i] <= 0) {
                                t[i] = LIFE;
                            }
                        } else if (t[i] <= 0) {
                            job.commands().despawn(ids[i]);
                        } else if (t[i] == LIFE / 2) {
                            job.commands().add(ids[i], marked, MARK);
                        } else if (t[i] == LIFE / 4) {
                            job.commands().remove(ids[i], marked);
                        }
                    }
                });
        if (commands) {
            boolean pairs = has(Feature.RELATIONS);
            s.system("spawn").inPhase(Phase.POST_UPDATE).spawns(pos, vel, life, hp).adds(childOf.column()).forEachRange(() -> SPAWNS,
                    (job, from, to) -> {
                        CommandBuffer cmd = job.commands();
                        for (int i = from; i < to; i++) {
                            long e = cmd.spawn(particle);
                            cmd.setFloat(e, px, i);
                            cmd.setFloat(e, vx, 1f);
                            cmd.setInt(e, ticksLeft, LIFE);
                            cmd.setInt(e, hpv, 10);
                            if (pairs) {
                                cmd.addPair(e, childOf, roots[i % roots.length]);
                            }
                        }
                    });
        }
        if (has(Feature.EVENTS)) {
            events(s, moving);
        }
        if (has(Feature.FLOW)) {
            flow(s);
        }
        if (has(Feature.CHANGES)) {
            changes(s, aging);
        }
        if (has(Feature.RELATIONS)) {
            relations(s);
        }
        if (has(Feature.SPARSE)) {
            sparse(s, aging);
        }
        if (has(Feature.INPUTS)) {
            inputs(s, moving);
        }
    }

    private void events(Schedule.Builder s, Query moving) {
        s.system("shout").query(moving).reads(pos).writesEvents(PINGS).forEachChunk(job -> {
            for (int i = 0, n = Math.min(job.chunk().size(), PING.length); i < n; i++) {
                job.send(PINGS, PING[i]);
            }
        });
        s.system("listen").inPhase(Phase.POST_UPDATE).readsEvents(PINGS).exclusive((w, job) -> {
            EventReader<Ping> pings = job.events(PINGS);
            for (int i = 0; i < pings.size(); i++) {
                counts[3] += pings.get(i).from();
            }
        });
    }

    private void flow(Schedule.Builder s) {
        s.system("fixed").inPhase(FIXED).readsResource(SCORE).query(world.query().with(hp).build()).writes(hp)
                .forEachChunk(job -> {
                    int[] h = job.chunk().writeInts(hpv);
                    h[0] = (int) (job.resource(SCORE).points & 7) + 1;
                });
        s.system("score").inPhase(Phase.PRE_UPDATE).writesResource(SCORE).readsResource(Simulation.CLOCK)
                .runIf(RunCondition.resource(Simulation.CLOCK, c -> c.tick() % 2 == 0))
                .exclusive((w, job) -> job.resourceForWrite(SCORE).points += job.resource(Simulation.CLOCK).tick());
        s.system("toggle").inPhase(Phase.POST_UPDATE).readsResource(Simulation.CLOCK).writesResource(MODE)
                .forEachRange(() -> 1, (job, from, to) -> {
                    long t = job.resource(Simulation.CLOCK).tick();
                    if (t % 10 == 0) {
                        job.resourceForWrite(MODE).request(t % 20 == 0 ? Mode.FIGHT : Mode.REST);
                    }
                });
        s.system("enter fight").onEnter(MODE, Mode.FIGHT).exclusive(w -> counts[4]++);
        s.system("leave fight").onExit(MODE, Mode.FIGHT).exclusive(w -> counts[5]++);
        s.system("fighting").inPhase(Phase.UPDATE).runIf(RunCondition.inState(MODE, Mode.FIGHT))
                .exclusive(w -> counts[6]++);
    }

    private void changes(Schedule.Builder s, Query aging) {
        s.system("regen").query(world.query().with(hp).build()).writes(hp).forEachChunk(job -> {
            ChunkView c = job.chunk();
            c.markRows(hp);
            int[] h = c.writeInts(hpv);
            for (int i = 0, n = c.size(); i < n; i += 7) {
                h[i]++;
                c.markChanged(hp, i);
            }
        });
        s.system("healed").after("regen").query(world.query().with(hp).changed(hp).build()).reads(hp)
                .reducesResource(SEEN).forEachChunk(job -> {
                    ChunkView c = job.chunk();
                    int seen = 0;
                    for (int i = c.firstChanged(hp); i >= 0; i = c.nextChanged(i + 1)) {
                        seen++;
                    }
                    job.add(SEEN, seen);
                });
        s.system("fresh").query(world.query().with(pos).added(pos).build()).reads(pos).reducesResource(SEEN)
                .forEachChunk(job -> job.add(SEEN, job.chunk().size()));
        s.system("forget").query(aging).reads(life).reducesResource(SEEN).forEachChunk(job -> {
            if (job.chunkOrdinal() == 0) {
                RemovedEntities gone = job.removed(life);
                job.add(SEEN, gone.count());
            }
        });
        s.system("poke").inPhase(Phase.POST_UPDATE).query(world.query().with(hp, life).build()).reads(life)
                .setsLater(hp).forEachChunk(job -> {
                    ChunkView c = job.chunk();
                    if (c.size() > 0) {
                        job.commands().setInt(c.entity(0), hpv, 9);
                    }
                });
    }

    private void relations(Schedule.Builder s) {
        s.system("levels").reads(pos).reducesResource(SEEN).forEachLevel(childOf, (job, h, from, to) -> {
            long sum = 0;
            for (int i = from; i < to; i++) {
                sum += (long) job.getFloat(h.entity(i), px) + h.parentSlot(i);
            }
            job.add(SEEN, sum);
        });
    }

    private void sparse(Schedule.Builder s, Query aging) {
        s.system("burn").inPhase(Phase.POST_UPDATE).query(aging).reads(life).adds(burning).removes(burning)
                .forEachChunk(job -> {
                    ChunkView c = job.chunk();
                    int[] t = c.readInts(ticksLeft);
                    long[] ids = c.entities();
                    for (int i = 0, n = c.size(); i < n; i++) {
                        if (t[i] == LIFE - 8) {
                            job.commands().add(ids[i], burning, FIRE);
                        } else if (t[i] == LIFE - 16) {
                            job.commands().remove(ids[i], burning);
                        }
                    }
                });
    }

    private void inputs(Schedule.Builder s, Query moving) {
        s.system("steer").query(moving).reads(pos).writes(vel)
                .readsResource(Simulation.INPUTS, Simulation.RANDOM, Simulation.CLOCK).forEachChunk(job -> {
                    InputBatch in = job.resource(Simulation.INPUTS);
                    CounterRandom random = job.resource(Simulation.RANDOM);
                    long tick = job.resource(Simulation.CLOCK).tick();
                    ChunkView c = job.chunk();
                    float[] dx = c.writeFloats(vx);
                    long[] ids = c.entities();
                    float push = 0;
                    for (int k = 0; k < in.size(); k++) {
                        push += in.payloadFloat(k, 0);
                    }
                    for (int i = 0, n = c.size(); i < n; i++) {
                        dx[i] = 0.5f + random.nextFloat(tick, ids[i], WANDER) + push * 1e-6f;
                    }
                });
    }
}
