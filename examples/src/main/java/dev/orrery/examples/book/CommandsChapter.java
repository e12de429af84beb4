package dev.orrery.examples.book;

import dev.orrery.ecs.CommandBuffer;
import dev.orrery.ecs.CommandKind;
import dev.orrery.ecs.CommandOutcome;
import dev.orrery.ecs.PlaybackReport;
import dev.orrery.ecs.Query;
import dev.orrery.ecs.RefusedCommandException;
import dev.orrery.ecs.Relation;
import dev.orrery.ecs.Shape;
import dev.orrery.ecs.Template;
import dev.orrery.ecs.World;
import dev.orrery.ecs.component.Component;
import dev.orrery.ecs.component.EntityRef;
import dev.orrery.ecs.component.Field;
import dev.orrery.examples.ProgramArgs;
import dev.orrery.scheduler.LongSum;
import dev.orrery.scheduler.Phase;
import dev.orrery.scheduler.ResourceKey;
import dev.orrery.scheduler.Schedule;
import dev.orrery.scheduler.ScheduleExecutor;

/** The code of docs/command-buffers-and-sync-points.md. */
public final class CommandsChapter {
    private CommandsChapter() {}

    record Position(float x, float y) {}
    record Velocity(float x, float y) {}
    record Health(int hp) {}
    record Projectile() {}
    record Corpse() {}

    // snippet:entity-ref
    record Homing(@EntityRef long target) {}     // an entity id, resolved at playback
    // end:entity-ref

    static void syncPoints() {
        World world = new World();
        Component<Position> pos = world.component(Position.class);
        Component<Velocity> vel = world.component(Velocity.class);
        Component<Projectile> projectile = world.component(Projectile.class);
        Component<Health> health = world.component(Health.class);
        world.spawn(new Position(0, 0), new Health(3));
        Query shooters = world.query().with(pos, health).build();
        Query movers = world.query().with(pos, vel).build();
        Shape bolt = world.shape(pos, vel, projectile);
        // snippet:auto-sync
        Schedule.Builder b = Schedule.builder(world);
        b.system("fire").query(shooters).reads(pos).spawns(pos, vel, projectile).forEachChunk(job -> {
            for (int i = 0; i < job.chunk().size(); i++) job.commands().spawn(bolt);
        });
        b.system("move").query(movers).reads(vel).writes(pos).forEachChunk(job -> { /* ... */ });
        System.out.println(b.build());
        // end:auto-sync
        // snippet:before-structural
        b = Schedule.builder(world);
        b.system("fire").query(shooters).reads(pos).spawns(pos, vel, projectile).forEachChunk(job -> {
            for (int i = 0; i < job.chunk().size(); i++) job.commands().spawn(bolt);
        });
        b.system("move").query(movers).reads(vel).writes(pos)
                .beforeStructuralChanges()           // new bolts start moving next tick
                .forEachChunk(job -> { /* ... */ });
        // end:before-structural
        System.out.println(b.build());
    }

    /** A despawn that a relation's cleanup has already done in the same playback: skipped, and counted once by the log. */
    static void despawnTwice() {
        World world = new World();
        Component<Health> health = world.component(Health.class);
        Relation childOf = world.relations().childOf();
        Query mothers = world.query().with(health).without(childOf.column()).build();
        Query lambs = world.query().with(health, childOf.column()).build();
        Field hp = health.field("hp");
        long mother = world.spawn(new Health(1));
        for (int i = 0; i < 3; i++) {
            world.relations().add(world.spawn(new Health(0)), childOf, mother);
        }
        ResourceKey<LongSum> culled = ResourceKey.of("culled", LongSum.class);
        ResourceKey<LongSum> gone = ResourceKey.of("gone", LongSum.class);
        // snippet:despawn-twice
        world.trackRemoved(health);                              // at set-up
        Schedule schedule = Schedule.builder(world)
                .resource(culled, new LongSum()).resource(gone, new LongSum())
                .system("eat").query(mothers).reads(health).despawns()
                .forEachChunk(job -> {
                    int[] h = job.chunk().readInts(hp);
                    for (int i = 0, n = job.chunk().size(); i < n; i++) {
                        if (h[i] == 1) job.commands().despawn(job.chunk().entity(i));  // her lambs go too
                    }
                })
                .system("cull").after("eat").query(lambs).reads(health).despawns().reducesResource(culled)
                .beforeStructuralChanges()                       // one playback for both, at the phase's end
                .forEachChunk(job -> {
                    int[] h = job.chunk().readInts(hp);
                    for (int i = 0, n = job.chunk().size(); i < n; i++) {
                        if (h[i] > 0) continue;
                        job.commands().despawn(job.chunk().entity(i));  // SKIPPED_DEAD: gone already
                        job.add(culled, 1);                      // counts requests, not outcomes
                    }
                })
                .system("count").inPhase(Phase.POST_UPDATE).reads(health).reducesResource(gone)
                .exclusive((w, job) -> job.add(gone, job.removed(health).count()))   // one job: each once
                .build();
        // end:despawn-twice
        try (ScheduleExecutor executor = schedule.executor(2)) {
            executor.run();
            // snippet:despawn-outcome
            PlaybackReport totals = executor.commandTotals();
            long applied = totals.count(CommandKind.DESPAWN, CommandOutcome.APPLIED);         // 1: the mother
            long skipped = totals.count(CommandKind.DESPAWN, CommandOutcome.SKIPPED_DEAD);    // 3: the lambs
            long went = schedule.resources().get(gone).total();                               // 4, each once
            // end:despawn-outcome
            long requested = schedule.resources().get(culled).total();
            // The whole flock went, so no chunk holds Health any more: the exclusive reader still counts them.
            if (applied != 1 || skipped != 3 || went != 4 || requested != 3 || world.isAlive(mother)
                    || world.query().with(health).build().count() != 0) {
                throw new AssertionError(applied + " applied, " + skipped + " skipped, " + went + " gone, "
                        + requested + " culled");
            }
        }
    }

    public static void main(String[] args) {
        ProgramArgs.atMost("CommandsChapter", args);
        World world = new World();
        Component<Position> pos = world.component(Position.class);
        Component<Velocity> vel = world.component(Velocity.class);
        Component<Health> health = world.component(Health.class);
        Component<Projectile> projectile = world.component(Projectile.class);
        Component<Homing> homing = world.component(Homing.class);
        Component<Corpse> corpse = world.component(Corpse.class);
        long old = world.spawn(new Position(0, 0), new Health(0));
        long shooter = world.spawn(new Position(5, 5), new Health(10));

        // snippet:direct
        CommandBuffer commands = new CommandBuffer(0);
        long e = commands.spawn();                               // a provisional handle, now
        commands.add(e, pos, new Position(1, 2));
        commands.add(e, vel, new Velocity(0, 1));
        commands.despawn(old);
        PlaybackReport report = world.apply(commands);           // applied in recording order
        System.out.println(report.applied() + " applied, " + report.moves() + " moves");
        // end:direct

        // snippet:provisional
        long missile = commands.spawn();
        commands.add(missile, pos, new Position(5, 5));
        commands.add(missile, projectile);
        commands.add(shooter, homing, new Homing(missile));      // names the missile before it exists
        boolean notYet = CommandBuffer.isProvisional(missile);   // true: generation 0
        world.apply(commands);
        long real = world.get(shooter, homing).target();         // the missile's real id
        // end:provisional

        // snippet:report
        commands.despawn(old);                                   // dead already
        commands.remove(shooter, vel);                           // shooter has no Velocity
        commands.add(shooter, corpse);
        PlaybackReport r = world.apply(commands);
        long applied = r.count(CommandKind.ADD, CommandOutcome.APPLIED);       // 1
        long late = r.count(CommandKind.DESPAWN, CommandOutcome.SKIPPED_DEAD); // 1
        long noOps = r.count(CommandOutcome.NO_OP);                            // 1: the remove
        System.out.println(r.isClean() ? "clean" : r.messages());
        // end:report

        // snippet:strict
        commands.set(real, health, new Health(5));               // the missile has no Health
        try {
            world.apply(commands);
        } catch (RefusedCommandException refused) {              // strict mode (on under -ea)
            PlaybackReport what = refused.report();              // the rest was applied
            System.out.println(what.firstRefusal());
        }
        // end:strict

        Field px = pos.field("x"), py = pos.field("y"), vx = vel.field("x"), vy = vel.field("y");
        Query shooters = world.query().with(pos, health).without(corpse).build();
        Query dying = world.query().with(health).build();
        Field hp = health.field("hp");
        // snippet:in-job
        Shape bolt = world.shape(pos, vel, projectile);          // prepared once, at set-up
        Schedule schedule = Schedule.builder(world)
                .system("fire").query(shooters).reads(pos).spawns(pos, vel, projectile)
                .forEachChunk(job -> {
                    float[] x = job.chunk().readFloats(px), y = job.chunk().readFloats(py);
                    CommandBuffer cmd = job.commands();          // this worker's buffer
                    for (int i = 0, n = job.chunk().size(); i < n; i++) {
                        long b = cmd.spawn(bolt);                // one command, no record
                        cmd.setFloat(b, px, x[i]);
                        cmd.setFloat(b, py, y[i]);
                        cmd.setFloat(b, vx, 1);
                    }
                })
                .system("reap").query(dying).reads(health).despawns()
                .forEachChunk(job -> {
                    int[] h = job.chunk().readInts(hp);
                    for (int i = 0, n = job.chunk().size(); i < n; i++) {
                        if (h[i] <= 0) job.commands().despawn(job.chunk().entity(i));
                    }
                })
                .build();
        // end:in-job

        // snippet:template
        Template crate = Template.named("Crate")
                .with(pos, new Position(0, 0))
                .with(health, new Health(3))
                .build();
        long c = commands.spawn(crate);                          // a template spawn, deferred
        commands.setFloat(c, px, 7);
        world.apply(commands);
        // end:template

        try (ScheduleExecutor executor = schedule.executor(2)) {
            for (int t = 0; t < 3; t++) {
                executor.run();
            }
            // snippet:totals
            PlaybackReport totals = executor.commandTotals();    // every sync point so far
            long fired = totals.count(CommandKind.SPAWN, CommandOutcome.APPLIED);
            // end:totals
            System.out.println(schedule);
            if (fired == 0) {
                throw new AssertionError();
            }
        }
        if (!notYet || real != world.get(shooter, homing).target() || applied != 1 || late != 1 || noOps != 1
                || vy == null) {
            throw new AssertionError(applied + " " + late + " " + noOps);
        }
        syncPoints();
        despawnTwice();
        System.out.println("commands chapter: ok");
    }
}
