package dev.orrery.examples.book;

import dev.orrery.ecs.ChunkView;
import dev.orrery.ecs.Query;
import dev.orrery.ecs.World;
import dev.orrery.ecs.component.Component;
import dev.orrery.ecs.component.Field;
import dev.orrery.examples.ProgramArgs;
import dev.orrery.scheduler.BatchDecision;
import dev.orrery.scheduler.EventKey;
import dev.orrery.scheduler.LongSum;
import dev.orrery.scheduler.Phase;
import dev.orrery.scheduler.ResourceKey;
import dev.orrery.scheduler.Resources;
import dev.orrery.scheduler.Schedule;
import dev.orrery.scheduler.ScheduleExecutor;
import java.util.TreeMap;

/** The code of docs/systems-phases-and-the-graph.md. */
public final class SystemsChapter {
    private SystemsChapter() {}

    record Position(float x, float y) {}
    record Velocity(float x, float y) {}
    record Health(int hp) {}
    record Target(long entity) {}
    record Crown() {}

    // snippet:resource-types
    record Settings(float drag) {}
    static final class Heatmap { final int[] cells = new int[64 * 64]; }

    static final ResourceKey<Settings> SETTINGS = ResourceKey.of("settings", Settings.class);
    static final ResourceKey<Heatmap> HEATMAP = ResourceKey.of("heatmap", Heatmap.class);
    static final ResourceKey<LongSum> WOUNDED = ResourceKey.of("wounded", LongSum.class);
    // end:resource-types

    record Kill(long killer) {}
    static final EventKey<Kill> KILLS = EventKey.of("kills", Kill.class);
    static final class Score { long leader; int best; final TreeMap<Long, Integer> kills = new TreeMap<>(); }
    static final ResourceKey<Score> SCORE = ResourceKey.of("score", Score.class);

    public static void main(String[] args) {
        ProgramArgs.atMost("SystemsChapter", args);
        World world = new World();
        Component<Position> pos = world.component(Position.class);
        Component<Velocity> vel = world.component(Velocity.class);
        Component<Health> health = world.component(Health.class);
        Component<Target> target = world.component(Target.class);
        Component<Crown> crown = world.component(Crown.class);
        for (int i = 0; i < 50_000; i++) {
            world.spawn(new Position(i % 64, i / 1000f), new Velocity(0.5f, 0.25f), new Health(i % 10));
        }
        long boss = world.spawn(new Position(1, 1), new Health(1000));
        for (int i = 0; i < 100; i++) {
            world.spawn(new Position(2, 2), new Target(boss));
        }
        long fled = world.spawn(new Position(9, 9), new Health(3));
        long lateHunter = world.spawn(new Position(3, 3), new Target(fled));
        world.despawn(fled);                               // a target that is gone before the first run

        // snippet:declare
        Query moving = world.query().with(pos, vel).build();
        Field px = pos.field("x"), py = pos.field("y");
        Field vx = vel.field("x"), vy = vel.field("y");

        Schedule schedule = Schedule.builder(world)
                .system("move").query(moving).reads(vel).writes(pos).forEachChunk(job -> {
                    ChunkView c = job.chunk();
                    float[] x = c.writeFloats(px), y = c.writeFloats(py);
                    float[] dx = c.readFloats(vx), dy = c.readFloats(vy);
                    for (int i = 0, n = c.size(); i < n; i++) {
                        x[i] += dx[i];
                        y[i] += dy[i];
                    }
                })
                .build();
        // end:declare
        try (ScheduleExecutor executor = schedule.executor(2)) {
            executor.run();
        }

        Query living = world.query().with(health).build();
        Query hunters = world.query().with(target).build();
        Field hp = health.field("hp");
        Field targetEntity = target.field("entity");
        // snippet:phases
        Schedule.Builder b = Schedule.builder(world)
                .resource(SETTINGS, new Settings(0.98f))
                .resource(HEATMAP, new Heatmap())
                .resource(WOUNDED, new LongSum());
        Resources resources = b.resources();             // for exclusive bodies to capture
        b.system("drag").query(moving).writes(vel).readsResource(SETTINGS).forEachChunk(job -> {
            float k = job.resource(SETTINGS).drag();
            float[] dx = job.chunk().writeFloats(vx);
            for (int i = 0, n = job.chunk().size(); i < n; i++) dx[i] *= k;
        });
        b.system("move").after("drag").query(moving).reads(vel).writes(pos).forEachChunk(job -> {
            /* as above */
        });
        b.system("census").query(living).reads(health).reducesResource(WOUNDED).forEachChunk(job -> {
            int[] h = job.chunk().readInts(hp);
            int wounded = 0;
            for (int i = 0, n = job.chunk().size(); i < n; i++) if (h[i] < 5) wounded++;
            job.add(WOUNDED, wounded);                   // this worker's slot: no lock
        });
        // end:phases

        // snippet:range
        b.system("heatmap").inPhase(Phase.POST_UPDATE).writesResource(HEATMAP)
                .forEachRange(() -> 64, (job, from, to) -> {     // rows [from, to) of the map
                    int[] cells = job.resourceForWrite(HEATMAP).cells;
                    for (int row = from; row < to; row++) {
                        for (int col = 0; col < 64; col++) cells[row * 64 + col] /= 2;
                    }
                });
        // end:range

        // snippet:by-id
        b.system("give up").query(hunters).reads(target, health).removes(target).forEachChunk(job -> {
            long[] ids = job.chunk().entities();
            long[] victims = job.chunk().readLongs(targetEntity);
            for (int i = 0, n = job.chunk().size(); i < n; i++) {
                if (!world.isAlive(victims[i])                  // gone: a by-id read would throw
                        || job.getInt(victims[i], hp) <= 0) {   // another entity's field, by id
                    job.commands().remove(ids[i], target);    // declared with .removes(target)
                }
            }
        });
        // end:by-id

        // snippet:exclusive
        b.system("report").inPhase(Phase.POST_UPDATE).exclusive(w -> {
            long wounded = resources.get(WOUNDED).total();
            if (wounded > w.entityCount()) {
                throw new IllegalStateException("more wounded than entities");
            }
            resources.getForWrite(WOUNDED).reset();
        });
        // end:exclusive
        b.system("boss hits").inPhase(Phase.POST_UPDATE).exclusive(w -> {
            int h = w.getInt(boss, hp);
            w.setInt(boss, hp, h - 1);
        });

        // snippet:exclusive-job
        b.system("scoreboard").inPhase(Phase.POST_UPDATE).readsEvents(KILLS).exclusive((w, job) -> {
            Score score = job.resourceForWrite(SCORE);
            job.events(KILLS).forEach(k -> score.kills.merge(k.killer(), 1, Integer::sum));
            score.kills.forEach((killer, n) -> {
                if (n > score.best && w.isAlive(killer)) {
                    score.best = n;
                    score.leader = killer;
                    job.commands().add(killer, crown);   // applied when the body returns
                }
            });
        });
        // end:exclusive-job
        b.resource(SCORE, new Score());
        b.system("fight").query(hunters).reads(target).writesEvents(KILLS).forEachChunk(job -> {
            long[] ids = job.chunk().entities();
            if (job.chunkOrdinal() == 0 && ids.length > 0) job.send(KILLS, new Kill(ids[0]));
        });
        Schedule full = b.build();

        // snippet:run
        try (ScheduleExecutor executor = full.executor(4)) {   // 4 threads, the caller included
            for (int tick = 0; tick < 100; tick++) {
                executor.run();                                   // every system once
            }
            System.out.print(BatchDecision.toText(executor.batching()));
        }
        // end:run
        // snippet:print
        System.out.println(full);              // the graph as text
        String dot = full.toDot();              // the same as Graphviz DOT
        // end:print
        if (dot.isEmpty() || world.has(lateHunter, target)) {
            throw new AssertionError("the hunter of a despawned target gives up");
        }
        System.out.println("systems chapter: ok");
    }
}
