package dev.orrery.bench.scaling;

import dev.orrery.bench.fixture.CommandLine;
import dev.orrery.bench.scheduling.SchedulerBenchmark;
import dev.orrery.ecs.World;
import dev.orrery.ecs.component.Component;
import dev.orrery.ecs.component.Field;
import dev.orrery.scheduler.Schedule;
import dev.orrery.scheduler.ScheduleExecutor;
import java.lang.management.ManagementFactory;

/**
 * The compute-bound system of {@link SchedulerBenchmark} at 1, 2, ... workers, printing per
 * tick the wall time, the speed-up over 1 worker, the process CPU time over wall time (how
 * many cores the run really got: near the worker count on a quiet machine, lower when
 * other processes hold cores), and each worker's share of the chunks. A speed-up is only
 * meaningful where CPU/wall reached the worker count.
 *
 * <p>{@link ScalingReport} runs the same system (as its {@code flops64} workload) beside
 * the suite's workloads, with medians, the model and the plot; this report stays for its
 * per-worker chunk shares.
 *
 * <pre>{@code java -cp bench/target/benchmarks.jar dev.orrery.bench.scaling.SchedulerScalingReport [maxWorkers] [ticks]}</pre>
 */
public final class SchedulerScalingReport {
    private SchedulerScalingReport() {
    }

    /** Runs the report; arguments: the most workers (default: available processors), ticks per measurement (default 300). */
    public static void main(String[] args) throws Exception {
        CommandLine.main(SchedulerScalingReport.class, args, SchedulerScalingReport::run);
    }

    private static void run(String[] args) {
        String[] a = new CommandLine(args, SchedulerScalingReport.class, "[maxWorkers] [ticks]",
                "The compute-bound system at 1 to maxWorkers workers (default: the cores), ticks per measurement "
                + "(default 300).").positionals(2);
        int maxWorkers = a.length > 0 ? CommandLine.intAtLeast("maxWorkers", a[0], 1, CommandLine.THREADS)
                : Runtime.getRuntime().availableProcessors();
        int ticks = a.length > 1 ? CommandLine.intAtLeast("ticks", a[1], 1, CommandLine.TICKS) : 300;
        World world = new World();
        Component<SchedulerBenchmark.Vec4> vec = world.component(SchedulerBenchmark.Vec4.class);
        world.entity().with(vec, new SchedulerBenchmark.Vec4(1, 2, 3, 4)).spawnMany(1_000_000);
        Field fx = vec.field("x");
        Field fy = vec.field("y");
        Field fz = vec.field("z");
        Field fw = vec.field("w");
        long[] chunksBy = new long[(maxWorkers + 1) * 8]; // 8 longs apart: no false sharing between workers
        Schedule schedule = Schedule.builder(world)
                .system("compute").query(world.query().with(vec).build()).writes(vec)
                .forEachChunk(job -> {
                    chunksBy[job.workerId() * 8]++;
                    SchedulerBenchmark.compute(job.chunk(), fx, fy, fz, fw);
                })
                .build();
        var os = (com.sun.management.OperatingSystemMXBean) ManagementFactory.getOperatingSystemMXBean();
        System.out.printf("compute: 1 M entities, 64 flops each; %d ticks per line; %d processors%n", ticks,
                Runtime.getRuntime().availableProcessors());
        double base = 0;
        for (int workers = 1; workers <= maxWorkers; workers++) {
            try (ScheduleExecutor executor = schedule.executor(workers)) {
                for (int i = 0; i < ticks / 3; i++) {
                    executor.run();
                }
                java.util.Arrays.fill(chunksBy, 0);
                long cpu0 = os.getProcessCpuTime();
                long t0 = System.nanoTime();
                for (int i = 0; i < ticks; i++) {
                    executor.run();
                }
                long wall = System.nanoTime() - t0;
                long cpu = os.getProcessCpuTime() - cpu0;
                double us = wall / 1e3 / ticks;
                if (workers == 1) {
                    base = us;
                }
                StringBuilder shares = new StringBuilder();
                for (int w = 0; w < workers; w++) {
                    shares.append(w == 0 ? "" : "/").append(chunksBy[w * 8] * 100 / Math.max(1, sum(chunksBy)));
                }
                System.out.printf("workers %d: %8.0f us/tick  speed-up %.2fx  cpu/wall %.2f  chunk share %% %s%n",
                        workers, us, base / us, (double) cpu / wall, shares);
            }
        }
    }

    private static long sum(long[] a) {
        long s = 0;
        for (long v : a) {
            s += v;
        }
        return s;
    }
}
