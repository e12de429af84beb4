package dev.orrery.examples.javadoc;

import dev.orrery.ecs.Hierarchy;
import dev.orrery.ecs.Query;
import dev.orrery.ecs.Relation;
import dev.orrery.ecs.World;
import dev.orrery.ecs.component.Component;
import dev.orrery.ecs.component.Field;
import dev.orrery.engine.Clock;
import dev.orrery.engine.Simulation;
import dev.orrery.scheduler.EventKey;
import dev.orrery.scheduler.JobContext;
import dev.orrery.scheduler.LongSum;
import dev.orrery.scheduler.Phase;
import dev.orrery.scheduler.ResourceKey;
import dev.orrery.scheduler.RunCondition;
import dev.orrery.scheduler.Schedule;
import dev.orrery.scheduler.ScheduleExecutor;
import dev.orrery.scheduler.States;
import java.util.Map;

/**
 * The Javadoc examples of {@link Schedule} and its builders, as compiled code. The variables
 * the examples take for granted (a world, its components and fields, queries, resources) are
 * the fields of one instance; each method holds one example verbatim. See {@code JavadocExamplesTest}.
 */
final class ScheduleExamples {
    record Position(float x, float y, float z) {}
    record Velocity(float x, float y, float z) {}
    record Health(int hp) {}
    record Projectile() {}
    record Aim(long target) {}
    record Local(float x) {}
    record Global(float x) {}
    record Hit(long target, int damage) {}
    enum Mode { LOBBY, PLAYING, OVER }

    /** A grid of cells, a resource. */
    static final class Grid {
        private final float[] heat = new float[1024];

        int size() {
            return heat.length;
        }
    }

    /** A flow field computed from the grid, a resource. */
    static final class FlowField {
        private final float[] flow = new float[1024];

        void update(Grid grid, int from, int to) {
            for (int i = from; i < to; i++) {
                flow[i] = grid.heat[i] * 0.5f;
            }
        }
    }

    static final EventKey<Hit> HITS = EventKey.of("hits", Hit.class);
    static final ResourceKey<Grid> GRID = ResourceKey.of("grid", Grid.class);
    static final ResourceKey<FlowField> FIELD = ResourceKey.of("flow field", FlowField.class);
    static final ResourceKey<LongSum> DEAD = ResourceKey.of("dead", LongSum.class);
    static final ResourceKey<Map<Long, Integer>> DAMAGE = ResourceKey.of("damage", Map.class);
    static final ResourceKey<States<Mode>> MODE = States.key("mode", Mode.class);
    static final ResourceKey<Clock> CLOCK = Simulation.CLOCK;

    private final World world = new World();
    private final Component<Position> pos = world.component(Position.class);
    private final Component<Velocity> vel = world.component(Velocity.class);
    private final Component<Health> hp = world.component(Health.class);
    private final Component<Projectile> projectile = world.component(Projectile.class);
    private final Component<Aim> aim = world.component(Aim.class);
    private final Component<Local> local = world.component(Local.class);
    private final Component<Global> global = world.component(Global.class);
    private final Field px = pos.field("x"), vx = vel.field("x"), hpValue = hp.field("hp");
    private final Field aimTarget = aim.field("target"), localX = local.field("x"), globalX = global.field("x");
    private final Relation childOf = world.relations().childOf();
    private final Query q = world.query().with(hp).build();
    private final Query shooters = world.query().with(pos, aim).build();
    private final Query movers = world.query().with(pos, vel).build();
    private final Query fighters = world.query().with(aim).build();
    private final Grid grid = new Grid();
    private final FlowField field = new FlowField();

    /** {@link Schedule}: the four kinds of system, built and run once. */
    void schedule() {
        Schedule schedule = Schedule.builder(world)
            .system("move").query(world.query().with(pos, vel).build())
                .reads(vel).writes(pos)
                .forEachChunk(job -> {
                    float[] x = job.chunk().writeFloats(px);
                    float[] v = job.chunk().readFloats(vx);
                    for (int i = 0, n = job.chunk().size(); i < n; i++) x[i] += v[i];
                })
            .system("cells").readsResource(GRID).writesResource(FIELD)     // a range system
                .forEachRange(() -> grid.size(), (job, from, to) -> field.update(grid, from, to))
            .system("spawner").inPhase(Phase.POST_UPDATE).exclusive(w -> w.spawn(new Position(0, 0, 0)))
            .system("propagate").reads(local).writes(global)                // a level system over ChildOf
                .forEachLevel(childOf, (job, h, from, to) -> propagate(job, h, from, to))
            .build();
        try (ScheduleExecutor executor = schedule.executor(4)) {
            executor.run(); // one tick
        }
    }

    /** The level body of {@link #schedule()}: world x is the parent's world x plus the local x. */
    private void propagate(JobContext job, Hierarchy h, int from, int to) {
        for (int i = from; i < to; i++) {
            int p = h.parentSlot(i);
            float x = job.getFloat(h.entity(i), localX) + (p < 0 ? 0 : job.getFloat(h.entity(p), globalX));
            job.setFloat(h.entity(i), globalX, x);
        }
    }

    /** {@link Schedule.Builder#resource}. */
    void resource() {
        ResourceKey<LongSum> LIVING = ResourceKey.of("living", LongSum.class);
        Schedule.builder(world).resource(LIVING, new LongSum())
            .system("count").query(q).reducesResource(LIVING)
            .forEachChunk(job -> job.add(LIVING, job.chunk().size()))
            .build();
    }

    /** {@link Schedule.Builder#runIf}. */
    Schedule phaseRunIf() {
        return Schedule.builder(world).resource(MODE, new States<>(Mode.class, Mode.LOBBY))
            .runIf(Phase.UPDATE, RunCondition.inState(MODE, Mode.PLAYING))
            .build();
    }

    /** {@link Schedule.SystemBuilder#spawns}. */
    Schedule spawns() {
        Schedule.Builder b = Schedule.builder(world).resource(DEAD, new LongSum());
        return b
            .system("respawn").readsResource(DEAD).spawns(pos, vel, hp)
                .forEachRange(() -> (int) b.resources().get(DEAD).total(), (job, from, to) -> {
                    for (int i = from; i < to; i++) {
                        long e = job.commands().spawn();
                        job.commands().add(e, pos, new Position(i, 0, 0));
                    }
                })
            .build();
    }

    /** {@link Schedule.SystemBuilder#beforeStructuralChanges()}. */
    Schedule beforeStructuralChanges() {
        return Schedule.builder(world)
            .system("fire").query(shooters).reads(pos).spawns(pos, vel, projectile).forEachChunk(job -> {
                for (int i = 0; i < job.chunk().size(); i++) {
                    long shot = job.commands().spawn();
                    job.commands().add(shot, pos, job.get(job.chunk().entity(i), pos));   // at the shooter
                    job.commands().add(shot, vel, new Velocity(1, 0, 0));
                    job.commands().add(shot, projectile);
                }
            })
            .system("move").query(movers).reads(vel).writes(pos).beforeStructuralChanges().forEachChunk(job -> {
                float[] x = job.chunk().writeFloats(px), v = job.chunk().readFloats(vx);
                for (int i = 0; i < job.chunk().size(); i++) x[i] += v[i];
            })
            .build();
    }

    /** {@link Schedule.SystemBuilder#writesEvents}. */
    Schedule writesEvents() {
        return Schedule.builder(world)
            .system("combat").query(fighters).reads(aim).writesEvents(HITS).forEachChunk(job -> {
                long[] target = job.chunk().readLongs(aimTarget);
                for (int i = 0; i < job.chunk().size(); i++) job.send(HITS, new Hit(target[i], 5));
            })
            .system("apply hits").readsEvents(HITS).writesResource(DAMAGE)
                .forEachRange(() -> 1, (job, from, to) -> job.events(HITS)
                    .forEach(h -> job.resourceForWrite(DAMAGE).merge(h.target(), h.damage(), Integer::sum)))
            .build();
    }

    /** {@link Schedule.SystemBuilder#runIf}. */
    Schedule systemRunIf() {
        return Schedule.builder(world)
            .system("regen").runIf(RunCondition.resource(CLOCK, c -> c.tick() % 10 == 0)).query(q).writes(hp)
                .forEachChunk(job -> {
                    int[] h = job.chunk().writeInts(hpValue);
                    for (int i = 0; i < job.chunk().size(); i++) h[i]++;
                })
            .build();
    }

    /** {@link Schedule.SystemBuilder#forEachLevel}. */
    Schedule forEachLevel() {
        return Schedule.builder(world)
            .system("propagate").reads(local).writes(global)
                .forEachLevel(world.relations().childOf(), (job, h, from, to) -> {
                    for (int i = from; i < to; i++) {
                        int p = h.parentSlot(i);                          // -1 for a root
                        float x = job.getFloat(h.entity(i), localX) + (p < 0 ? 0 : job.getFloat(h.entity(p), globalX));
                        job.setFloat(h.entity(i), globalX, x);
                    }
                })
            .build();
    }
}
