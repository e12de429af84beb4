package dev.orrery.examples.book;

import dev.orrery.ecs.Query;
import dev.orrery.ecs.Shape;
import dev.orrery.ecs.World;
import dev.orrery.ecs.component.Component;
import dev.orrery.ecs.component.Field;
import dev.orrery.examples.ProgramArgs;
import dev.orrery.scheduler.BatchDecision;
import dev.orrery.scheduler.Schedule;
import dev.orrery.scheduler.ScheduleExecutor;

/** The code of docs/performance-and-tuning.md. */
public final class PerformanceChapter {
    private PerformanceChapter() {}

    record Position(float x, float y, float z) {}
    record Velocity(float x, float y, float z) {}
    record Matrix(float m00, float m01, float m10, float m11) {}

    public static void main(String[] args) {
        ProgramArgs.atMost("PerformanceChapter", args);
        // snippet:chunk-budget
        World world = new World();                   // chunks of about 256 KiB: the default
        World small = new World(64 * 1024);          // smaller chunks: more, shorter jobs
        // end:chunk-budget
        Component<Position> pos = world.component(Position.class);
        Component<Velocity> vel = world.component(Velocity.class);
        Component<Matrix> matrix = world.component(Matrix.class);
        Field px = pos.field("x"), vx = vel.field("x"), m00 = matrix.field("m00");

        // snippet:bulk
        Shape body = world.shape(pos, vel);
        body.reserve(1_000_000);                     // grow once, outside the timed part
        body.spawnMany(1_000_000, (rows, from, to, first) -> {
            float[] x = rows.writeFloats(px), v = rows.writeFloats(vx);
            for (int r = from; r < to; r++) {
                x[r] = first + (r - from);
                v[r] = 1;
            }
        });
        // end:bulk


        Query moving = world.query().with(pos, vel).build();
        Query heavy = world.query().with(matrix).build();
        world.entity().with(matrix, new Matrix(1, 0, 0, 1)).spawnMany(100_000);
        // snippet:batch-rows
        Schedule schedule = Schedule.builder(world)
                .system("move").query(moving).reads(vel).writes(pos).forEachChunk(job -> {
                    float[] x = job.chunk().writeFloats(px), v = job.chunk().readFloats(vx);
                    for (int i = 0, n = job.chunk().size(); i < n; i++) x[i] += v[i];
                })                                      // adaptive: timed, then split
                .system("invert").query(heavy).writes(matrix).minBatchRows(256)
                .forEachChunk(job -> {                  // explicit: jobs of at least 256 rows
                    float[] a = job.chunk().writeFloats(m00);
                    for (int i = 0, n = job.chunk().size(); i < n; i++) a[i] = 1 / a[i];
                })
                .build();
        try (ScheduleExecutor executor = schedule.executor(2)) {
            for (int tick = 0; tick < 100; tick++) executor.run();
            System.out.print(BatchDecision.toText(executor.batching()));
        }
        // end:batch-rows
        if (small == null) {
            throw new AssertionError();
        }
        System.out.println("performance chapter: ok");
    }
}
