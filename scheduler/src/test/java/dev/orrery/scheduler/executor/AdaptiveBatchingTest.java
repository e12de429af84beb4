package dev.orrery.scheduler.executor;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.orrery.ecs.CommandBuffer;
import dev.orrery.ecs.World;
import dev.orrery.ecs.component.Component;
import dev.orrery.ecs.component.Field;
import dev.orrery.scheduler.BatchDecision;
import dev.orrery.scheduler.Schedule;
import dev.orrery.scheduler.ScheduleExecutor;
import dev.orrery.scheduler.internal.SchedulerInternals;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Adaptive batching: the split a parallel executor chooses (one job, many jobs, or the
 * adaptive one from measured cost per row) never changes the world, on 1, 2 and 4 workers;
 * the decisions are visible through {@link ParallelExecutor#batching()}; an explicit
 * {@code minBatchRows} wins.
 */
class AdaptiveBatchingTest {
    /** How the jobs are split in one run of a workload. */
    enum Split {
        /** Explicit {@code minBatchRows} above any system's rows: every system inline, one job. */
        ONE_JOB(Integer.MAX_VALUE, -1),
        /** Explicit {@code minBatchRows} 1: as many jobs as the executor allows. */
        MANY_JOBS(1, -1),
        /** Adaptive with a zero target job time: after its timed runs, each system is split as far as allowed. */
        ADAPTIVE_FINEST(Schedule.DEFAULT_MIN_BATCH_ROWS, 0),
        /** Adaptive with the default target job time. */
        ADAPTIVE_DEFAULT(Schedule.DEFAULT_MIN_BATCH_ROWS, AdaptiveBatching.DEFAULT_TARGET_JOB_NANOS);

        final int minBatchRows;
        final long targetNanos;

        Split(int minBatchRows, long targetNanos) {
            this.minBatchRows = minBatchRows;
            this.targetNanos = targetNanos;
        }
    }

    record Pos(float x, float y) {
    }

    /** Range spawns, chunk moves and chunk despawns: a range system's commands cross the split too. */
    static final class RangeWorkload {
        static final int TICKS = 120;
        final World world = new World(2048);
        final Component<Pos> pos = world.component(Pos.class);
        final Schedule schedule;
        int tick;

        RangeWorkload(int minBatchRows) {
            Field px = pos.field("x");
            for (int i = 0; i < 2000; i++) {
                world.spawn(new Pos(i % 41, i));
            }
            schedule = Schedule.builder(world).minBatchRows(minBatchRows)
                    .system("drift").query(world.query().with(pos).build()).writes(pos).forEachChunk(job -> {
                        float[] x = job.chunk().writeFloats(px);
                        for (int i = 0, n = job.chunk().size(); i < n; i++) {
                            x[i] += 1;
                        }
                    })
                    .system("reap").query(world.query().with(pos).build()).reads(pos).after("drift").despawns()
                    .forEachChunk(job -> {
                        float[] x = job.chunk().readFloats(px);
                        for (int i = 0, n = job.chunk().size(); i < n; i++) {
                            long e = job.chunk().entity(i);
                            if (x[i] > 40 && StructuralDeterminismTest.roll(e, tick) % 2 == 0) {
                                job.commands().despawn(e);
                            }
                        }
                    })
                    .system("spawn").spawns(pos).forEachRange(() -> 150 + tick % 50, (job, from, to) -> {
                        CommandBuffer cmd = job.commands();
                        for (int k = from; k < to; k++) {
                            long e = cmd.spawn();
                            cmd.add(e, pos, new Pos(k % 13, tick));
                        }
                    })
                    .build();
        }

        long[] run(ScheduleExecutor executor) {
            long[] hashes = new long[TICKS];
            for (int t = 0; t < TICKS; t++) {
                tick = t;
                executor.run();
                hashes[t] = world.stateHash();
            }
            return hashes;
        }
    }

    static Stream<Arguments> cases() {
        return Stream.of(1, 2, 4).flatMap(w -> Stream.of(Split.values()).map(s -> Arguments.of(w, s)));
    }

    @ParameterizedTest(name = "{0} workers, {1}")
    @MethodSource("cases")
    void rangeWorkloadGivesTheSameWorldForEverySplit(int workers, Split split) {
        long[] reference = rangeReference();
        RangeWorkload w = new RangeWorkload(split.minBatchRows);
        try (ParallelExecutor ex = executor(w.schedule, workers, split)) {
            assertArrayEquals(reference, w.run(ex), "state hashes per tick, " + workers + " workers, " + split);
            assertSplitAsChosen(ex, split, "drift", "spawn");
        }
    }

    @ParameterizedTest(name = "{0} workers, {1}")
    @MethodSource("cases")
    void structuralWorkloadGivesTheSameWorldForEverySplit(int workers, Split split) {
        long[] reference = StructuralDeterminismTest.reference();
        StructuralDeterminismTest.Workload w = new StructuralDeterminismTest.Workload(split.minBatchRows);
        try (ParallelExecutor ex = executor(w.schedule, workers, split)) {
            assertArrayEquals(reference, w.run(ex), "state hashes per tick, " + workers + " workers, " + split);
            // its population dies out by the last tick, so only the mode is checked here; the
            // range workload above checks the jobs of a living run
            assertEquals(split.targetNanos < 0 ? BatchDecision.Mode.EXPLICIT : BatchDecision.Mode.ADAPTIVE,
                    decision(ex, "move").mode());
        }
    }

    /** The split asked for really happened, so the hash comparison covered it. */
    private static void assertSplitAsChosen(ParallelExecutor ex, Split split, String... systems) {
        for (String name : systems) {
            BatchDecision d = decision(ex, name);
            switch (split) {
                case ONE_JOB -> assertEquals(1, d.lastJobs(), d.toString());
                case MANY_JOBS -> assertTrue(d.mode() == BatchDecision.Mode.EXPLICIT && d.lastJobs() > 1, d.toString());
                case ADAPTIVE_FINEST -> assertTrue(d.mode() == BatchDecision.Mode.ADAPTIVE && d.lastJobs() > 1
                        && d.minRows() == 1 && d.nanosPerRow() > 0, d.toString());
                case ADAPTIVE_DEFAULT -> assertEquals(BatchDecision.Mode.ADAPTIVE, d.mode(), d.toString());
                default -> throw new AssertionError(split);
            }
        }
    }

    @Test
    void adaptiveSystemsRunInlineWhileMeasuringThenByCostAndTheTextSaysSo() {
        RangeWorkload w = new RangeWorkload(Schedule.DEFAULT_MIN_BATCH_ROWS);
        try (ParallelExecutor ex = executor(w.schedule, 2, Split.ADAPTIVE_FINEST)) {
            assertEquals(0, decision(ex, "drift").lastJobs(), "not run yet");
            for (int t = 0; t < AdaptiveBatching.WARM_SAMPLES; t++) {
                w.tick = t;
                ex.run();
                BatchDecision d = decision(ex, "drift");
                assertEquals(1, d.lastJobs(), "timed runs go inline: " + d);
                assertEquals(t + 1 < AdaptiveBatching.WARM_SAMPLES ? BatchDecision.Mode.MEASURING
                        : BatchDecision.Mode.ADAPTIVE, d.mode(), d.toString());
            }
            ex.run();
            BatchDecision d = decision(ex, "drift");
            assertEquals(8, d.lastJobs(), "2 workers x 4 jobs each at a zero target: " + d);
            String text = BatchDecision.toText(ex.batching());
            assertTrue(text.contains("drift: adaptive, ") && text.contains(" rows in 8 jobs"), text);
        }
    }

    @Test
    void aSystemThatWouldEndBeforeAWorkerPicksItUpRunsInlineAndIsSplitAgainToRetimeIt() {
        RangeWorkload w = new RangeWorkload(Schedule.DEFAULT_MIN_BATCH_ROWS);
        // a 1 ns target: one row per job is worth it, so only the pick-up rule can keep drift inline
        try (ParallelExecutor ex = executor(w.schedule, 2, 1)) {
            int t = 0;
            for (; t <= AdaptiveBatching.WARM_SAMPLES; t++) {
                w.tick = t;
                ex.run();
            }
            BatchDecision split = decision(ex, "drift");
            assertEquals(8, split.lastJobs(), "split as far as allowed once measured: " + split);
            assertTrue(split.pickupNanos() > 0, "the split timed its pick-up: " + split);
            assertTrue(split.toString().contains(", picked up in "), split.toString());
            ex.assumePickup("drift", 3_600_000_000_000L); // an hour: no run of drift lasts that long
            StringBuilder jobs = new StringBuilder();
            for (int k = 0; k < 15; k++, t++) {
                w.tick = t;
                ex.run();
                jobs.append(decision(ex, "drift").lastJobs()).append(' ');
            }
            // inline, then split after one inline run: each split re-times the pick-up, far
            // below the assumed hour, so the estimate halves and the next split comes as soon
            assertEquals("1 8 1 8 1 8 1 8 1 8 1 8 1 8 1 ", jobs.toString());
            assertTrue(decision(ex, "drift").pickupNanos() > 1e10, "seven re-timings halve it at most seven times: "
                    + decision(ex, "drift"));
            assertEquals(BatchDecision.Mode.ADAPTIVE, decision(ex, "drift").mode());
        }
    }

    @Test
    void anInlineRunIsTimedOnlyWhileItsTimeIsUsed() {
        RangeWorkload w = new RangeWorkload(Schedule.DEFAULT_MIN_BATCH_ROWS);
        // a huge target: every run too small to split, so every run is inline
        try (ParallelExecutor ex = executor(w.schedule, 2, Long.MAX_VALUE / 4)) {
            int t = 0;
            for (; t < AdaptiveBatching.MAX_SAMPLES - 1; t++) {
                w.tick = t;
                ex.run();
                assertTrue(ex.timesInline("drift"), "run " + t + " still samples the cost per row");
            }
            w.tick = t++;
            ex.run(); // the last sample: the estimate is fixed from here on
            double fixed = decision(ex, "drift").nanosPerRow();
            for (; t < RangeWorkload.TICKS; t++) {
                w.tick = t;
                ex.run();
                assertFalse(ex.timesInline("drift"), "run " + t + ": inline for its size, its time unused");
            }
            assertEquals(fixed, decision(ex, "drift").nanosPerRow(), "untimed runs leave the estimate alone");
            assertEquals(1, decision(ex, "drift").lastJobs());
        }
    }

    @Test
    void aHugeTargetKeepsEverySystemInline() {
        RangeWorkload w = new RangeWorkload(Schedule.DEFAULT_MIN_BATCH_ROWS);
        try (ParallelExecutor ex = executor(w.schedule, 2, Long.MAX_VALUE / 4)) {
            for (int t = 0; t < 10; t++) {
                w.tick = t;
                ex.run();
            }
            for (BatchDecision d : ex.batching()) {
                assertEquals(BatchDecision.Mode.ADAPTIVE, d.mode(), d.toString());
                assertEquals(1, d.lastJobs(), "inline: " + d);
                assertEquals(Integer.MAX_VALUE, d.minRows(), d.toString());
            }
            assertTrue(BatchDecision.toText(ex.batching()).contains("rows inline"));
        }
    }

    @Test
    void anExplicitMinBatchRowsWinsOverMeasurement() {
        World world = new World();
        Component<Pos> pos = world.component(Pos.class);
        for (int i = 0; i < 100; i++) {
            world.spawn(new Pos(i, i));
        }
        Schedule s = Schedule.builder(world)
                .system("fixed").query(world.query().with(pos).build()).reads(pos).minBatchRows(7).forEachChunk(j -> { })
                .system("free").query(world.query().with(pos).build()).reads(pos).forEachChunk(j -> { })
                .system("whole").exclusive(x -> { })
                .build();
        try (ParallelExecutor ex = executor(s, 2, 0)) {
            ex.run();
            List<BatchDecision> d = ex.batching();
            assertEquals(new BatchDecision("fixed", BatchDecision.Mode.EXPLICIT, Double.NaN, 7, 100, 1, Double.NaN), d.get(0));
            assertEquals(BatchDecision.Mode.MEASURING, d.get(1).mode());
            assertEquals(BatchDecision.Mode.EXCLUSIVE, d.get(2).mode());
            assertEquals("whole: exclusive, runs alone", d.get(2).toString());
        }
    }

    private static BatchDecision decision(ParallelExecutor ex, String system) {
        return ex.batching().stream().filter(d -> d.system().equals(system)).findFirst().orElseThrow();
    }

    private static ParallelExecutor executor(Schedule schedule, int workers, Split split) {
        return executor(schedule, workers,
                split.targetNanos < 0 ? AdaptiveBatching.DEFAULT_TARGET_JOB_NANOS : split.targetNanos);
    }

    /** An executor built under target job time {@code nanos} (the property is read when an executor is built). */
    private static synchronized ParallelExecutor executor(Schedule schedule, int workers, long nanos) {
        System.setProperty(AdaptiveBatching.TARGET_PROPERTY, Long.toString(nanos));
        try {
            return new ParallelExecutor(SchedulerInternals.plan(schedule), workers);
        } finally {
            System.clearProperty(AdaptiveBatching.TARGET_PROPERTY);
        }
    }

    private static long[] rangeReference;

    /** The range workload's hashes per tick on the single-threaded executor, computed once. */
    private static synchronized long[] rangeReference() {
        if (rangeReference == null) {
            RangeWorkload w = new RangeWorkload(Schedule.DEFAULT_MIN_BATCH_ROWS);
            try (ScheduleExecutor ex = new SingleThreadedExecutor(SchedulerInternals.plan(w.schedule))) {
                rangeReference = w.run(ex);
            }
        }
        return rangeReference;
    }
}
