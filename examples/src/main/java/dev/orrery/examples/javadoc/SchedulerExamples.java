package dev.orrery.examples.javadoc;

import dev.orrery.ecs.Query;
import dev.orrery.ecs.Relation;
import dev.orrery.ecs.World;
import dev.orrery.ecs.component.Component;
import dev.orrery.ecs.component.Field;
import dev.orrery.scheduler.EventKey;
import dev.orrery.scheduler.EventReader;
import dev.orrery.scheduler.FixedTimestep;
import dev.orrery.scheduler.JobContext;
import dev.orrery.scheduler.LongSum;
import dev.orrery.scheduler.Phase;
import dev.orrery.scheduler.ResourceKey;
import dev.orrery.scheduler.RunCondition;
import dev.orrery.scheduler.Schedule;
import dev.orrery.scheduler.States;
import java.util.HashMap;
import java.util.Map;

/**
 * The Javadoc examples of the types of package {@code dev.orrery.scheduler} (those of
 * {@link Schedule} itself are in {@link ScheduleExamples}), as compiled code: each method holds
 * one type's example verbatim, with the variables it takes for granted as parameters and the
 * keys as constants. {@code s} stands for a schedule builder, as in
 * {@code Simulation.builder(world).systems(s -> s...)}. See {@code JavadocExamplesTest}.
 */
final class SchedulerExamples {
    record Position(float x, float y, float z) {}
    record Velocity(float x, float y, float z) {}
    record Health(int hp) {}
    record Local(float x) {}
    record Global(float x) {}
    record Hit(long target, int damage) {}
    record Kill(long killer) {}
    record Crown() {}
    record Settings(float drag) {}
    record Weather(float rain) {}
    record Wet(float level) {}
    record Ready(boolean everyone) {}
    enum Mode { LOBBY, PLAYING, OVER }

    /** Kills per entity, and who has the most. */
    static final class Score {
        private final Map<Long, Integer> kills = new HashMap<>();
        private Long leader;

        void add(long killer) {
            int k = kills.merge(killer, 1, Integer::sum);
            if (leader == null || k > kills.get(leader)) {
                leader = killer;
            }
        }

        Long leader() {
            return leader;
        }
    }

    static final EventKey<Hit> HITS = EventKey.of("hits", Hit.class);
    static final EventKey<Kill> KILLS = EventKey.of("kills", Kill.class);
    static final ResourceKey<Score> SCORE = ResourceKey.of("score", Score.class);
    static final ResourceKey<Weather> WEATHER = ResourceKey.of("weather", Weather.class);
    static final ResourceKey<States<Mode>> GAME = States.key("game", Mode.class);
    static final ResourceKey<Ready> READY = ResourceKey.of("ready", Ready.class);

    private SchedulerExamples() {
    }

    /** {@link EventKey}: the key a writer and its readers share. */
    static EventKey<?> eventKey() {
        record Hit(long target, int damage) {}
        EventKey<Hit> HITS = EventKey.of("hits", Hit.class);
        return HITS;
    }

    /** {@link EventReader}. */
    static Schedule eventReader(Schedule.Builder s, Field hp) {
        return s
                .system("apply hits").readsEvents(HITS).exclusive((world, job) -> {   // one job: each hit applied once
                    EventReader<Hit> hits = job.events(HITS);
                    for (int i = 0, n = hits.size(); i < n; i++) {
                        Hit h = hits.get(i);
                        world.setInt(h.target(), hp, world.getInt(h.target(), hp) - h.damage());
                    }
                })
                .build();
    }

    /** {@link EventReader#missed}, in an exclusive system's body. */
    static void eventReaderMissed(JobContext job, Map<Long, Integer> damage) {
        EventReader<Hit> hits = job.events(HITS);     // in an exclusive system
        if (hits.missed()) damage.clear();            // some hits were dropped unread: count afresh from here
        hits.forEach(h -> damage.merge(h.target(), h.damage(), Integer::sum));
    }

    /** {@link dev.orrery.scheduler.ExclusiveJobSystem}. */
    static Schedule exclusiveJobSystem(Schedule.Builder s, Component<Crown> crown) {
        return s.resource(SCORE, new Score())
                .system("scoreboard").readsEvents(KILLS).exclusive((world, job) -> {
                    Score score = job.resourceForWrite(SCORE);
                    job.events(KILLS).forEach(k -> score.add(k.killer()));
                    if (score.leader() != null) job.commands().add(score.leader(), crown, new Crown());
                })
                .build();
    }

    /** {@link FixedTimestep}. */
    static void fixedTimestep(World world, Query bodies, Component<Position> pos, Component<Velocity> vel, Field px,
            Field vx) {
        // a 60 Hz tick driving a 50 Hz physics phase: 0 or 1 sub-steps per tick, 50 per second
        ResourceKey<FixedTimestep> PHYSICS_CLOCK = ResourceKey.of("physics clock", FixedTimestep.class);
        Phase PHYSICS = Phase.named("Physics");
        Schedule.builder(world).phases(Phase.PRE_UPDATE, PHYSICS, Phase.UPDATE, Phase.POST_UPDATE)
            .resource(PHYSICS_CLOCK, new FixedTimestep(20_000_000, 16_666_667, 4))
            .fixedTimestep(PHYSICS, PHYSICS_CLOCK)
            .system("integrate").inPhase(PHYSICS).query(bodies).reads(vel).writes(pos).forEachChunk(job -> {
                float[] x = job.chunk().writeFloats(px), v = job.chunk().readFloats(vx);
                for (int i = 0; i < job.chunk().size(); i++) x[i] += v[i] * 0.02f;   // one 20 ms step
            })
            .build();
    }

    /** {@link dev.orrery.scheduler.LevelSystem}. */
    static Schedule levelSystem(Schedule.Builder s, Relation childOf, Component<Local> local, Component<Global> global,
            Field localX, Field globalX) {
        return s
            .system("propagate").reads(local).writes(global)
                .forEachLevel(childOf, (job, h, from, to) -> {
                    for (int i = from; i < to; i++) {
                        int p = h.parentSlot(i);                          // -1 for a root
                        long e = h.entity(i);
                        float x = job.getFloat(e, localX);
                        if (p >= 0) x += job.getFloat(h.entity(p), globalX); // the parent's, written a level earlier
                        job.setFloat(e, globalX, x);
                    }
                })
            .build();
    }

    /**
     * {@link LongSum}; its "reap" system is also the example of
     * {@link Schedule.SystemBuilder#reducesResource}.
     */
    static void longSum(World world, Query living, Component<Health> hp, Field hpValue) {
        ResourceKey<LongSum> DEAD = ResourceKey.of("dead", LongSum.class);
        Schedule.Builder b = Schedule.builder(world).resource(DEAD, new LongSum());
        b.system("reap").query(living).reads(hp).despawns().reducesResource(DEAD).forEachChunk(job -> {
                int[] h = job.chunk().readInts(hpValue);
                int n = 0;
                for (int i = 0; i < job.chunk().size(); i++) {
                    if (h[i] <= 0) {
                        job.commands().despawn(job.chunk().entity(i));
                        n++;
                    }
                }
                job.add(DEAD, n);                                          // once per chunk, not per row
            })
            .system("respawn").readsResource(DEAD).spawns(hp)
                .forEachRange(() -> (int) b.resources().get(DEAD).total(), (job, from, to) -> {   // the store's
                    for (int i = from; i < to; i++) job.commands().add(job.commands().spawn(), hp, new Health(100));
                })
            .system("reset").inPhase(Phase.POST_UPDATE).writesResource(DEAD)
                .forEachRange(() -> 1, (job, from, to) -> job.resourceForWrite(DEAD).reset())
            .build();
    }

    /** {@link dev.orrery.scheduler.Resources}. */
    static Schedule resources(World world, Query moving, Component<Velocity> vel, Field vx) {
        ResourceKey<Settings> SETTINGS = ResourceKey.of("settings", Settings.class);
        Schedule.Builder b = Schedule.builder(world).resource(SETTINGS, new Settings(0.5f));
        b.system("drag").query(moving).writes(vel).readsResource(SETTINGS)
            .forEachChunk(job -> {
                float k = job.resource(SETTINGS).drag();
                float[] v = job.chunk().writeFloats(vx);
                for (int i = 0; i < job.chunk().size(); i++) v[i] *= 1 - k;
            });
        return b.build();
    }

    /** {@link RunCondition}. */
    static void runCondition(World world, Query ground, Component<Wet> wet, Field wetLevel) {
        RunCondition raining = RunCondition.resource(WEATHER, w -> w.rain() > 0).describedAs("raining");
        Schedule.builder(world)
            .system("puddles").runIf(raining.and(RunCondition.inState(GAME, Mode.PLAYING))).query(ground).writes(wet)
            .forEachChunk(job -> {
                float[] level = job.chunk().writeFloats(wetLevel);
                for (int i = 0; i < job.chunk().size(); i++) level[i] += 0.1f;
            })
            .build();
    }

    /** {@link States}. */
    static void states(World world, Component<Health> hp) {
        enum Mode { LOBBY, PLAYING, OVER }
        ResourceKey<States<Mode>> MODE = States.key("mode", Mode.class);
        Schedule.builder(world).resource(MODE, new States<>(Mode.class, Mode.LOBBY))
            .system("spawn wave").onEnter(MODE, Mode.PLAYING).spawns(hp)
                .forEachRange(() -> 100, (job, from, to) -> {
                    for (int i = from; i < to; i++) job.commands().add(job.commands().spawn(), hp, new Health(10));
                })
            .system("start").readsResource(READY).writesResource(MODE)
                .forEachRange(() -> 1, (job, from, to) -> job.resourceForWrite(MODE).request(Mode.PLAYING))
            .build();
    }
}
