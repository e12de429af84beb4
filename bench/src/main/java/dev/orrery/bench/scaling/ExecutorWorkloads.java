package dev.orrery.bench.scaling;

import dev.orrery.bench.fixture.EcsSuite.Scalar;
import dev.orrery.bench.scheduling.SchedulerBenchmark;
import dev.orrery.ecs.Query;
import dev.orrery.ecs.World;
import dev.orrery.ecs.component.Component;
import dev.orrery.ecs.component.Field;
import dev.orrery.scheduler.Schedule;

/**
 * The scaling report's two executor workloads that are not part of the ECS suite: the
 * scheduler benchmark's 64-flops system, and empty-body jobs that measure the executor's own
 * cost per job. (Kept here rather than in {@code EcsSuite}, so the shared fixtures do not
 * depend on the scheduling benchmarks.)
 */
final class ExecutorWorkloads {
    private ExecutorWorkloads() {
    }

    /** The 64-flops system of {@link SchedulerBenchmark} over {@code entities} entities of {@code Vec4}. */
    static Schedule flops64Schedule(int entities) {
        World world = new World();
        Component<SchedulerBenchmark.Vec4> vec = world.component(SchedulerBenchmark.Vec4.class);
        world.entity().with(vec, new SchedulerBenchmark.Vec4(1, 2, 3, 4)).spawnMany(entities);
        Field fx = vec.field("x");
        Field fy = vec.field("y");
        Field fz = vec.field("z");
        Field fw = vec.field("w");
        Query q = world.query().with(vec).build();
        return Schedule.builder(world)
                .system("flops64").query(q).writes(vec)
                .forEachChunk(job -> SchedulerBenchmark.compute(job.chunk(), fx, fy, fz, fw))
                .build();
    }

    /**
     * An empty-body system over {@code chunks} chunks of 64 rows each, split into jobs of
     * one chunk: what the executor itself costs per job (hand-off, binding, completion).
     */
    static Schedule emptyJobsSchedule(int chunks) {
        World world = new World(256); // the smallest budget: 64 rows of one float per chunk
        Component<Scalar> s = world.component(Scalar.class);
        world.entity().with(s, new Scalar(0)).spawnMany(64 * chunks);
        return Schedule.builder(world)
                .system("empty").query(world.query().with(s).build()).writes(s).minBatchRows(1)
                .forEachChunk(job -> {
                })
                .build();
    }
}
