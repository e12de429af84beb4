package dev.orrery.scheduler.flow;

import dev.orrery.ecs.World;
import dev.orrery.ecs.component.Component;
import dev.orrery.ecs.component.Field;
import dev.orrery.scheduler.EventKey;
import dev.orrery.scheduler.EventReader;
import dev.orrery.scheduler.FixedTimestep;
import dev.orrery.scheduler.Phase;
import dev.orrery.scheduler.ResourceKey;
import dev.orrery.scheduler.RunCondition;
import dev.orrery.scheduler.Schedule;
import dev.orrery.scheduler.ScheduleExecutor;
import dev.orrery.scheduler.States;

/**
 * A schedule using every flow feature at once, for determinism tests: hits sent from
 * parallel chunk jobs and applied in the same phase, deaths sent at the end of a tick and
 * tallied at the start of the next (events across the tick boundary, merge order hashed
 * into spawned entities), a fixed-timestep phase (2 units per run, 3 per step), a phase and
 * systems behind run conditions, and a state machine whose transitions spawn and despawn.
 */
final class FlowWorkload {
    record Pos(float x, float y) {
    }

    record Vel(float x, float y) {
    }

    record Hp(int hp) {
    }

    record Soldier() {
    }

    /** What the tally saw: an order-sensitive hash of the events and their count. */
    record Tally(long order, int count) {
    }

    record Hit(long target, int damage) {
    }

    record Death(long entity) {
    }

    enum Mode { CALM, WAR }

    /** The tick number, set by the test between runs; read by conditions and systems. */
    static final class Ticker {
        long tick;
    }

    static final Phase FIXED = Phase.named("Fixed");
    static final Phase BONUS = Phase.named("Bonus");
    static final ResourceKey<Ticker> TICKER = ResourceKey.of("ticker", Ticker.class);
    static final ResourceKey<FixedTimestep> STEP = ResourceKey.of("step", FixedTimestep.class);
    static final ResourceKey<States<Mode>> MODE = States.key("mode", Mode.class);
    static final EventKey<Hit> HITS = EventKey.of("hits", Hit.class);
    static final EventKey<Death> DEATHS = EventKey.of("deaths", Death.class);

    final World world = new World(1024);
    final Component<Pos> pos = world.component(Pos.class);
    final Component<Vel> vel = world.component(Vel.class);
    final Component<Hp> hp = world.component(Hp.class);
    final Component<Soldier> soldier = world.component(Soldier.class);
    final Component<Tally> tally = world.component(Tally.class);
    final Ticker ticker = new Ticker();
    final Schedule.Builder builder;
    final Schedule schedule;

    /** Same on every thread: a mix of the entity id and the tick, never a shared generator. */
    static int roll(long entity, long tick) {
        long h = entity * 0x9E3779B97F4A7C15L + tick * 0xC2B2AE3D27D4EB4FL;
        h ^= h >>> 29;
        h *= 0xBF58476D1CE4E5B9L;
        return (int) ((h ^ (h >>> 32)) & 0x7FFF_FFFF);
    }

    FlowWorkload(int minBatchRows) {
        for (int i = 0; i < 3000; i++) {
            world.spawn(new Pos(i, -i), new Vel(i % 7, i % 5), new Hp(20 + i % 40));
        }
        Field px = pos.field("x");
        Field py = pos.field("y");
        Field vx = vel.field("x");
        Field vy = vel.field("y");
        Field hpValue = hp.field("hp");
        builder = Schedule.builder(world).minBatchRows(minBatchRows)
                .phases(Phase.PRE_UPDATE, FIXED, Phase.UPDATE, BONUS, Phase.POST_UPDATE)
                .resource(TICKER, ticker)
                .resource(STEP, new FixedTimestep(3, 2, 4))
                .resource(MODE, new States<>(Mode.class, Mode.CALM))
                .fixedTimestep(FIXED, STEP)
                .runIf(BONUS, RunCondition.resource(TICKER, t -> t.tick % 5 == 0).describedAs("every 5th tick"));
        declare(builder, px, py, vx, vy, hpValue);
        schedule = builder.build();
    }

    private void declare(Schedule.Builder b, Field px, Field py, Field vx, Field vy, Field hpValue) {
        b.system("tally").inPhase(Phase.PRE_UPDATE).readsEvents(HITS, DEATHS).spawns(tally)
                .forEachRange(() -> 1, (job, from, to) -> {
                    long h = 17;
                    EventReader<Hit> hits = job.events(HITS);
                    for (int i = 0; i < hits.size(); i++) {
                        h = h * 31 + hits.get(i).target() * 7 + hits.get(i).damage();
                    }
                    EventReader<Death> deaths = job.events(DEATHS);
                    for (int i = 0; i < deaths.size(); i++) {
                        h = h * 37 + deaths.get(i).entity();
                    }
                    if (hits.size() + deaths.size() > 0) {
                        long e = job.commands().spawn();
                        job.commands().add(e, tally, new Tally(h, hits.size() + deaths.size()));
                    }
                })
                .system("integrate").inPhase(FIXED).query(world.query().with(pos, vel).build()).reads(vel).writes(pos)
                .readsResource(STEP)
                .forEachChunk(job -> {
                    float dt = 1 + job.resource(STEP).stepInRun();
                    float[] x = job.chunk().writeFloats(px);
                    float[] y = job.chunk().writeFloats(py);
                    float[] u = job.chunk().readFloats(vx);
                    float[] v = job.chunk().readFloats(vy);
                    for (int i = 0, n = job.chunk().size(); i < n; i++) {
                        x[i] += u[i] * dt;
                        y[i] += v[i] * dt;
                    }
                })
                .system("switch").readsResource(TICKER).writesResource(MODE)
                .forEachRange(() -> 1, (job, from, to) -> {
                    long t = job.resource(TICKER).tick;
                    if (t % 40 == 20) {
                        job.resourceForWrite(MODE).request(Mode.WAR);
                    } else if (t % 40 == 0) {
                        job.resourceForWrite(MODE).request(Mode.CALM);
                    }
                })
                .system("combat").runIf(RunCondition.inState(MODE, Mode.WAR)).query(world.query().with(pos, hp).build())
                .reads(pos, hp).readsResource(TICKER).writesEvents(HITS)
                .forEachChunk(job -> {
                    long t = job.resource(TICKER).tick;
                    for (int i = 0, n = job.chunk().size(); i < n; i++) {
                        long e = job.chunk().entity(i);
                        int r = roll(e, t);
                        if (r % 11 == 0) {
                            job.send(HITS, new Hit(e, 1 + r % 5));
                        }
                    }
                })
                .system("skirmish").query(world.query().with(hp).build()).reads(hp).readsResource(TICKER)
                .writesEvents(HITS)
                .forEachChunk(job -> {
                    long t = job.resource(TICKER).tick;
                    for (int i = 0, n = job.chunk().size(); i < n; i++) {
                        long e = job.chunk().entity(i);
                        if (roll(e, t + 7) % 29 == 0) {
                            job.send(HITS, new Hit(e, 2));
                        }
                    }
                })
                // one inline job (minBatchRows beyond any world): the first chunk's call applies every hit by id
                .system("apply hits").query(world.query().with(hp).build()).writes(hp).readsEvents(HITS)
                .minBatchRows(Integer.MAX_VALUE)
                .forEachChunk(job -> {
                    if (job.chunkOrdinal() == 0) {
                        job.events(HITS).forEach(h -> job.setInt(h.target(), hpValue,
                                job.getInt(h.target(), hpValue) - h.damage()));
                    }
                })
                .system("regen").runIf(RunCondition.resource(TICKER, t -> t.tick % 3 == 0))
                .query(world.query().with(hp).build()).writes(hp)
                .forEachChunk(job -> {
                    int[] h = job.chunk().writeInts(hpValue);
                    for (int i = 0, n = job.chunk().size(); i < n; i++) {
                        h[i] += i % 2;
                    }
                })
                .system("heal").inPhase(BONUS).query(world.query().with(hp).build()).writes(hp)
                .forEachChunk(job -> {
                    int[] h = job.chunk().writeInts(hpValue);
                    for (int i = 0, n = job.chunk().size(); i < n; i++) {
                        h[i] += 3;
                    }
                })
                .system("reap").inPhase(Phase.POST_UPDATE).query(world.query().with(hp).build()).reads(hp).despawns()
                .writesEvents(DEATHS)
                .forEachChunk(job -> {
                    int[] h = job.chunk().readInts(hpValue);
                    for (int i = 0, n = job.chunk().size(); i < n; i++) {
                        if (h[i] <= 0) {
                            job.commands().despawn(job.chunk().entity(i));
                            job.send(DEATHS, new Death(job.chunk().entity(i)));
                        }
                    }
                })
                .system("muster").onEnter(MODE, Mode.WAR).spawns(pos, vel, hp, soldier)
                .forEachRange(() -> 40, (job, from, to) -> {
                    for (int i = from; i < to; i++) {
                        long e = job.commands().spawn();
                        job.commands().add(e, pos, new Pos(i, i));
                        job.commands().add(e, vel, new Vel(1, 1));
                        job.commands().add(e, hp, new Hp(15));
                        job.commands().add(e, soldier, new Soldier());
                    }
                })
                .system("disband").onExit(MODE, Mode.WAR).query(world.query().with(soldier).build()).reads(soldier)
                .despawns()
                .forEachChunk(job -> {
                    for (int i = 0, n = job.chunk().size(); i < n; i++) {
                        job.commands().despawn(job.chunk().entity(i));
                    }
                })
                .system("peace").onEnter(MODE, Mode.CALM).spawns(pos, vel, hp)
                .forEachRange(() -> 5, (job, from, to) -> {
                    for (int i = from; i < to; i++) {
                        long e = job.commands().spawn();
                        job.commands().add(e, pos, new Pos(-i, i));
                        job.commands().add(e, vel, new Vel(0, 1));
                        job.commands().add(e, hp, new Hp(30));
                    }
                });
    }

    /** Runs {@code ticks} ticks on {@code executor}; returns the state hash after each. */
    long[] run(ScheduleExecutor executor, int ticks) {
        long[] hashes = new long[ticks];
        for (int t = 0; t < ticks; t++) {
            ticker.tick = t;
            executor.run();
            hashes[t] = world.stateHash();
        }
        return hashes;
    }
}
