package dev.orrery.engine;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.orrery.ecs.World;
import dev.orrery.ecs.component.Component;
import dev.orrery.ecs.component.Field;
import dev.orrery.scheduler.FixedTimestep;
import dev.orrery.scheduler.Phase;
import dev.orrery.scheduler.ResourceKey;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.locks.LockSupport;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A fixed-timestep phase (several sub-steps a tick) next to the tick watchdog and a failure
 * skipped under {@link FailurePolicy#SKIP_TICK}.
 */
class FixedStepFailureTest {
    record Body(int x) {
    }

    static final Phase FIXED = Phase.named("Physics");
    static final ResourceKey<FixedTimestep> STEP = ResourceKey.of("physics step", FixedTimestep.class);

    /** Three sub-steps a tick; "integrate" throws in sub-step 1 (the second) of tick 4. */
    static Simulation build(int workers, boolean populate) {
        World world = new World(1024);
        Component<Body> body = world.component(Body.class);
        if (populate) {
            world.entity().with(body, new Body(0)).spawnMany(300);
        }
        Field x = body.field("x");
        return Simulation.builder(world).seed(5).workers(workers).hashEvery(1).onSystemFailure(FailurePolicy.SKIP_TICK)
                .resource(STEP, new FixedTimestep(2, 6, 4))
                .systems(s -> s.phases(Phase.PRE_UPDATE, FIXED, Phase.UPDATE).fixedTimestep(FIXED, STEP)
                        .system("integrate").inPhase(FIXED).query(world.query().with(body).build()).writes(x.component())
                        .readsResource(Simulation.CLOCK, STEP).forEachChunk(job -> {
                            int[] v = job.chunk().writeInts(x);
                            for (int i = 0; i < job.chunk().size(); i++) {
                                v[i] += 1;
                            }
                            if (job.resource(Simulation.CLOCK).tick() == 4 && job.resource(STEP).stepInRun() == 1) {
                                throw new IllegalStateException("integrate fails in sub-step 1 of tick 4");
                            }
                        }))
                .build();
    }

    @Test
    void shouldCountTheSubStepsASkippedTickDidNotRunAsDroppedAndRunTheRightNumberNext() {
        try (Simulation sim = build(2, true)) {
            sim.failureListener((tick, failure, first) -> { });
            for (int t = 0; t < 4; t++) {
                sim.tick();
            }
            FixedTimestep step = sim.resources().get(STEP);
            assertEquals(12, step.steps());
            sim.tick(); // tick 4: sub-step 1 of 3 fails
            assertEquals(1, sim.skippedTicks());
            step = sim.resources().get(STEP);
            assertEquals(0, step.accumulated(), "the accumulator stays below one step");
            assertEquals(15, step.steps() + step.droppedSteps(),
                    "every whole step of 5 ticks either ran or was dropped: " + step);
            long before = step.steps();
            sim.tick();
            assertEquals(before + 3, sim.resources().get(STEP).steps(), "the next tick runs its 3 sub-steps");
        }
    }

    @Test
    void shouldReplayASkippedSubStepOnAnyWorkerCount(@TempDir Path dir) throws Exception {
        RecordedReplays.recordThenReplay(FixedStepFailureTest::build, dir, 9, 1, 2);
    }

    /**
     * The job of sub-step 3 waits until the watchdog reports the tick (30 s at most), so the
     * report must name it; a report that came early (a loaded machine slow in sub-steps 1 and
     * 2) lets that tick go and the next one is tried, up to five.
     */
    @Test
    void shouldNameTheSystemAndTheSubStepOfAnOverrunningFixedStep() throws Exception {
        World world = new World(1024);
        Component<Body> body = world.component(Body.class);
        world.entity().with(body, new Body(0)).spawnMany(10);
        List<String> reports = new ArrayList<>();
        AtomicInteger reported = new AtomicInteger();
        AtomicInteger before = new AtomicInteger();
        try (Simulation sim = Simulation.builder(world).workers(2)
                .resource(STEP, new FixedTimestep(2, 6, 4))
                .watchdog(6, (tick, nanos, system, job) -> {
                    synchronized (reports) {
                        reports.add(system + " | " + job);
                    }
                    reported.incrementAndGet();
                })
                .systems(s -> s.phases(Phase.PRE_UPDATE, FIXED, Phase.UPDATE).fixedTimestep(FIXED, STEP)
                        .system("integrate").inPhase(FIXED).readsResource(STEP).forEachRange(() -> 1, (job, from, to) -> {
                            long until = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
                            while (job.resource(STEP).stepInRun() == 2 && reported.get() == before.get()
                                    && System.nanoTime() < until) {
                                LockSupport.parkNanos(1_000_000);
                            }
                        }))
                .build()) {
            for (int t = 0; t < 5; t++) {
                before.set(reported.get());
                sim.tick();
                synchronized (reports) {
                    assertEquals(before.get() + 1, reports.size(), "tick " + t + " is reported once: " + reports);
                    if (reports.get(reports.size() - 1).contains("sub-step 3")) {
                        break;
                    }
                }
            }
            String report;
            synchronized (reports) {
                report = reports.get(reports.size() - 1);
            }
            assertTrue(report.startsWith("integrate | worker "), report);
            assertTrue(report.contains("indices [0, 1)") && report.endsWith(", in sub-step 3 of fixed-step phase Physics"),
                    report);
        }
    }
}
