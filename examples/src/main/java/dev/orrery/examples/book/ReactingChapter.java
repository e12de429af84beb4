package dev.orrery.examples.book;

import dev.orrery.ecs.ChunkView;
import dev.orrery.ecs.Query;
import dev.orrery.ecs.RemovedEntities;
import dev.orrery.ecs.World;
import dev.orrery.ecs.component.Component;
import dev.orrery.ecs.component.Entity;
import dev.orrery.ecs.component.Field;
import dev.orrery.engine.Simulation;
import dev.orrery.examples.ProgramArgs;
import dev.orrery.scheduler.EventKey;
import dev.orrery.scheduler.FixedTimestep;
import dev.orrery.scheduler.LongSum;
import dev.orrery.scheduler.Phase;
import dev.orrery.scheduler.ResourceKey;
import dev.orrery.scheduler.RunCondition;
import dev.orrery.scheduler.Schedule;
import dev.orrery.scheduler.ScheduleExecutor;
import dev.orrery.scheduler.States;
import java.util.ArrayList;
import java.util.List;

/** The code of docs/reacting-to-change.md. */
public final class ReactingChapter {
    private ReactingChapter() {}

    record Position(float x, float y) {}
    record Velocity(float x, float y) {}
    record Cell(int index) {}
    record Health(int hp, int max) {}
    record Loot(int gold) {}
    record Corpse() {}
    record Burning(float heat) {}

    // snippet:event-type
    record Hit(long target, int damage) {}
    static final EventKey<Hit> HITS = EventKey.of("hits", Hit.class);
    // end:event-type

    // snippet:states-type
    enum Mode { LOBBY, PLAYING, OVER }
    static final ResourceKey<States<Mode>> MODE = States.key("mode", Mode.class);
    // end:states-type

    static final ResourceKey<LongSum> HEALED = ResourceKey.of("healed", LongSum.class);
    // snippet:fixed-step-key
    static final ResourceKey<FixedTimestep> PHYSICS_CLOCK =
            ResourceKey.of("physics clock", FixedTimestep.class);
    // end:fixed-step-key

    static void filters() {
        World world = new World();
        Component<Position> pos = world.component(Position.class);
        Component<Velocity> vel = world.component(Velocity.class);
        Component<Cell> cell = world.component(Cell.class);
        Component<Health> health = world.component(Health.class);
        Field px = pos.field("x"), py = pos.field("y"), index = cell.field("index");
        Field hp = health.field("hp");
        // snippet:track-rows
        world.trackRowChanges(health);           // at set-up, before entities hold it
        // end:track-rows
        for (int i = 0; i < 10_000; i++) {
            world.spawn(new Position(i % 100, i / 100), new Cell(0), new Health(10, 10));
        }
        Query moving = world.query().with(pos, vel).build();
        Schedule.Builder b = Schedule.builder(world).resource(HEALED, new LongSum());
        // snippet:changed
        Query moved = world.query().with(cell).changed(pos).build();
        b.system("rebucket").query(moved).reads(pos).writes(cell).forEachChunk(job -> {
            ChunkView c = job.chunk();                   // only chunks whose Position changed
            float[] x = c.readFloats(px), y = c.readFloats(py);
            int[] cellOf = c.writeInts(index);
            for (int i = 0, n = c.size(); i < n; i++) {
                cellOf[i] = (int) (y[i] / 10) * 16 + (int) (x[i] / 10);
            }
        });
        // end:changed
        b.system("move").after("rebucket").query(moving).reads(vel).writes(pos).forEachChunk(job -> {});
        // snippet:mark-rows
        b.system("regen").query(world.query().with(health).build()).writes(health).forEachChunk(job -> {
            ChunkView c = job.chunk();
            c.markRows(health);                          // promise: I mark the rows I write
            int[] h = c.writeInts(hp);
            for (int i = 0, n = c.size(); i < n; i++) {
                if (h[i] < 10) {
                    h[i]++;
                    c.markChanged(health, i);            // this row only
                }
            }
        });
        // end:mark-rows
        // snippet:changed-rows
        Query hurt = world.query().with(health).changed(health).build();
        b.system("healed").after("regen").query(hurt).reads(health).reducesResource(HEALED)
                .forEachChunk(job -> {
                ChunkView c = job.chunk();
                int[] h = c.readInts(hp);
                int healed = 0;
                for (int i = c.firstChanged(health); i >= 0; i = c.nextChanged(i + 1)) {
                    if (h[i] == 10) healed++;            // only rows changed since the last run
                }
                job.add(HEALED, healed);
                });
        // end:changed-rows
        Schedule schedule = b.build();
        try (ScheduleExecutor executor = schedule.executor(1)) {
            executor.run();
            executor.run();
        }
    }

    static void observers() {
        World world = new World();
        Component<Position> pos = world.component(Position.class);
        Component<Health> health = world.component(Health.class);
        Component<Loot> loot = world.component(Loot.class);
        Component<Corpse> corpse = world.component(Corpse.class);
        Component<Burning> burning = world.component(Burning.class);
        List<String> log = new ArrayList<>();
        // snippet:observers
        world.observe(burning)
                .onAdd((w, e, commands) -> log.add("burning " + Entity.toString(e)))
                .onRemove((w, e, commands) -> log.add("put out " + Entity.toString(e)));
        world.observe(health)
                .onSet((w, e, commands) -> {
                    if (w.get(e, health).hp() <= 0) commands.despawn(e);   // structural: recorded
                });
        // end:observers
        // snippet:on-remove-value
        world.observe(loot).onRemove((w, e, last, commands) -> {
            long drop = commands.spawn();                   // the chest is gone; its gold is not
            commands.add(drop, loot, new Loot(last.gold()));
            commands.add(drop, corpse);
        });
        // end:on-remove-value
        long chest = world.spawn(new Position(1, 1), new Loot(50));
        long orc = world.spawn(new Position(2, 2), new Health(5, 5));
        world.add(orc, burning, new Burning(2));
        world.remove(orc, burning);
        world.set(orc, health, new Health(0, 5));
        world.despawn(chest);
        if (world.isAlive(orc) || log.size() != 2 || world.query().with(loot, corpse).build().count() != 1) {
            throw new AssertionError(log);
        }

        // snippet:removal-log
        world.trackRemoved(health);                         // at set-up
        Schedule schedule = Schedule.builder(world)
                .system("forget").reads(health).exclusive((w, job) -> {   // one job, every run
                    RemovedEntities gone = job.removed(health); // since this system last ran
                    if (gone.missed()) log.add("missed some");  // older ones aged out unread
                    for (int i = 0; i < gone.count(); i++) {
                        log.add("gone " + Entity.toString(gone.entity(i)));
                    }
                })
                .build();
        // end:removal-log
        world.spawn(new Health(1, 1));
        long victim = world.spawn(new Health(1, 1));
        int before = log.size(); // the observers' lines come first
        try (ScheduleExecutor executor = schedule.executor(1)) {
            executor.run();
            world.despawn(victim);
            executor.run();
            if (!log.subList(before, log.size()).equals(List.of("gone " + Entity.toString(victim)))) {
                throw new AssertionError(log);
            }
            // snippet:removal-log-own-loop
            for (int frame = 0; frame < 600; frame++) {        // an editor's loop, no schedule
                world.despawn(world.spawn(new Health(1, 1)));  // its own changes
                world.retireRemovals();                        // the logs keep two frames
            }
            executor.run();                                    // "forget" reads "missed some"
            // end:removal-log-own-loop
            if (!log.get(before + 1).equals("missed some") || log.size() > before + 6) {
                throw new AssertionError("the schedule's next run sees that removals aged out, and only the last "
                        + "frames' ones: " + log);
            }
            // The last entity holding Health goes: no chunk holds the column any more, and the
            // reader still hears of it.
            long[] last = new long[1];
            world.query().with(health).build().forEachReadOnly((view, row) -> last[0] = view.entity(row));
            if (world.query().with(health).build().count() != 1) throw new AssertionError("one holder left");
            world.despawn(last[0]);
            int beforeLast = log.size();
            executor.run();
            if (!log.subList(beforeLast, log.size()).equals(List.of("gone " + Entity.toString(last[0])))) {
                throw new AssertionError("the removal of the last Health holder was read: " + log.subList(beforeLast,
                        log.size()));
            }
        }
    }

    static void flow() {
        World world = new World();
        Component<Position> pos = world.component(Position.class);
        Component<Velocity> vel = world.component(Velocity.class);
        Component<Health> health = world.component(Health.class);
        for (int i = 0; i < 100; i++) {
            world.spawn(new Position(i, 0), new Velocity(1, 0), new Health(10, 10));
        }
        Phase physics = Phase.named("Physics");
        // snippet:flow-resources
        Simulation sim = Simulation.builder(world).workers(2)
                .resource(PHYSICS_CLOCK, new FixedTimestep(20_000_000, 16_666_667, 4)) // 20 ms steps
                .resource(MODE, new States<>(Mode.class, Mode.LOBBY))                  // a state machine
                .systems(s -> flowSystems(s, world, physics))
                .build();
        // end:flow-resources
        try (sim) {
            sim.run(30, 0);
            if (sim.resources().get(MODE).current() != Mode.PLAYING
                    || sim.resources().get(PHYSICS_CLOCK).steps() != 25) {
                throw new AssertionError(sim.resources().get(PHYSICS_CLOCK));
            }
            System.out.println(sim.schedule());
        }
    }

    static void flowSystems(Schedule.Builder s, World world, Phase physics) {
        Component<Position> pos = world.component(Position.class);
        Component<Velocity> vel = world.component(Velocity.class);
        Component<Health> health = world.component(Health.class);
        Query fighters = world.query().with(pos, health).build();
        Query living = world.query().with(health).build();
        Query bodies = world.query().with(pos, vel).build();
        Field hp = health.field("hp"), px = pos.field("x"), vx = vel.field("x");
        // snippet:events
        s.system("combat").query(fighters).reads(pos).writesEvents(HITS).forEachChunk(job -> {
            long[] ids = job.chunk().entities();
            for (int i = 0; i + 1 < job.chunk().size(); i += 2) {
                job.send(HITS, new Hit(ids[i + 1], 1));       // this worker's buffer
            }
        });
        s.system("apply hits").readsEvents(HITS).exclusive((w, job) ->
                job.events(HITS).forEach(h -> {                // in merge order
                    int left = w.getInt(h.target(), hp) - h.damage();
                    w.unvalidated().setInt(h.target(), hp, left);
                }));
        // end:events
        // snippet:run-if
        s.system("regen").query(living).writes(health)
                .runIf(RunCondition.resource(Simulation.CLOCK, c -> c.tick() % 10 == 0)
                        .describedAs("every tenth tick"))
                .forEachChunk(job -> { /* every tenth tick */ });
        // end:run-if
        // snippet:fixed-step-phase
        s.phases(Phase.PRE_UPDATE, physics, Phase.UPDATE, Phase.POST_UPDATE)
                .fixedTimestep(physics, PHYSICS_CLOCK);
        s.system("integrate").inPhase(physics).query(bodies).reads(vel).writes(pos)
                .forEachChunk(job -> {
                    float[] x = job.chunk().writeFloats(px), v = job.chunk().readFloats(vx);
                    for (int i = 0; i < job.chunk().size(); i++) x[i] += v[i] * 0.02f;
                });
        // end:fixed-step-phase
        // snippet:states
        s.system("spawn wave").onEnter(MODE, Mode.PLAYING).spawns(pos, health)
                .forEachRange(() -> 10, (job, from, to) -> {
                    for (int i = from; i < to; i++) {
                        long e = job.commands().spawn();
                        job.commands().add(e, pos, new Position(i, 50));
                        job.commands().add(e, health, new Health(3, 3));
                    }
                });
        s.system("start").inPhase(Phase.POST_UPDATE).readsResource(Simulation.CLOCK)
                .writesResource(MODE).forEachRange(() -> 1, (job, from, to) -> {
                    if (job.resource(Simulation.CLOCK).tick() == 5) {
                        job.resourceForWrite(MODE).request(Mode.PLAYING);  // from the next tick
                    }
                });
        s.runIf(Phase.UPDATE, RunCondition.inState(MODE, Mode.PLAYING));
        // end:states
    }

    public static void main(String[] args) {
        ProgramArgs.atMost("ReactingChapter", args);
        filters();
        observers();
        flow();
        System.out.println("reacting chapter: ok");
    }
}
