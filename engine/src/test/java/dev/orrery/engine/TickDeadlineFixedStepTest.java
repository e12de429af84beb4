package dev.orrery.engine;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
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
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The tick deadline next to a fixed-timestep phase (three sub-steps a tick) and a recording:
 * the deadline counts from the tick's start across its sub-steps, not per sub-step; a tick it
 * ends in a sub-step counts the sub-steps left as dropped, as a throwing system's does; and a
 * recording of such a tick replays with matching hashes when the stuck job wrote nothing and
 * sticks again in the replay (the recording does not note the deadline), and is reported as a
 * divergence naming the deadline where it does not stick. The stuck job is kept off the tick thread (which the deadline
 * cannot end): the tick thread's own job waits, with a generous bound, until a worker holds
 * the other one. The deadline (1.5 s) is far above a tick's real time.
 */
class TickDeadlineFixedStepTest {
    record Body(int x) {
    }

    static final Phase FIXED = Phase.named("Physics");
    static final ResourceKey<FixedTimestep> STEP = ResourceKey.of("physics step", FixedTimestep.class);
    static final int BODIES = 300;
    static final long STUCK_TICK = 4;

    /** How tick {@link #STUCK_TICK}'s "stall" jobs behave. */
    enum Stall {
        /** Every sub-step's worker job sleeps 0.9 s: each below the deadline, together above it. */
        EVERY_SUB_STEP_SLOW,
        /** Sub-step 1's worker job waits until interrupted, before writing anything. */
        SUB_STEP_1_STUCK,
        /** No job stalls: a replay where what held the stuck job holds it no more. */
        NEVER
    }

    /**
     * Three sub-steps a tick: "integrate" adds {@code 1 + sub-step} to every body, "stall" (a
     * range system of two jobs) stalls at tick 4 as {@code stall} says, and "after" triples
     * every body.
     */
    static Simulation build(int workers, boolean populate, Stall stall) {
        World world = new World(1024);
        Component<Body> body = world.component(Body.class);
        if (populate) {
            world.entity().with(body, new Body(0)).spawnMany(BODIES);
        }
        Field x = body.field("x");
        Thread tickThread = Thread.currentThread();
        CountDownLatch[] workerInJob = {new CountDownLatch(1), new CountDownLatch(1), new CountDownLatch(1)};
        return Simulation.builder(world).seed(5).workers(workers).hashEvery(1).onSystemFailure(FailurePolicy.SKIP_TICK)
                .stepSeconds(0.05).tickDeadline(30)
                .resource(STEP, new FixedTimestep(2, 6, 4))
                .systems(s -> s.phases(Phase.PRE_UPDATE, FIXED, Phase.UPDATE).fixedTimestep(FIXED, STEP)
                        .system("integrate").inPhase(FIXED).query(world.query().with(body).build()).writes(body)
                        .readsResource(STEP).forEachChunk(job -> {
                            int[] v = job.chunk().writeInts(x);
                            for (int i = 0; i < job.chunk().size(); i++) {
                                v[i] += 1 + (int) job.resource(STEP).stepInRun();
                            }
                        })
                        .system("stall").inPhase(FIXED).after("integrate").minBatchRows(1)
                        .readsResource(Simulation.CLOCK, STEP).forEachRange(() -> 2, (job, from, to) -> {
                            int subStep = (int) job.resource(STEP).stepInRun();
                            if (job.resource(Simulation.CLOCK).tick() != STUCK_TICK || stall == Stall.NEVER
                                    || (stall == Stall.SUB_STEP_1_STUCK && subStep != 1)) {
                                return;
                            }
                            if (Thread.currentThread() == tickThread) { // let a worker take the other job first
                                await(workerInJob[subStep], 60_000);
                                return;
                            }
                            workerInJob[subStep].countDown();
                            if (stall == Stall.EVERY_SUB_STEP_SLOW) {
                                await(new CountDownLatch(1), 900);
                            } else {
                                await(new CountDownLatch(1), 60_000); // ends with the deadline's interrupt
                            }
                        })
                        .system("after").inPhase(FIXED).after("stall").query(world.query().with(body).build())
                        .writes(body).forEachChunk(job -> {
                            int[] v = job.chunk().writeInts(x);
                            for (int i = 0; i < job.chunk().size(); i++) {
                                v[i] *= 3;
                            }
                        }))
                .build();
    }

    private static void await(CountDownLatch latch, long millis) {
        try {
            latch.await(millis, TimeUnit.MILLISECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    /** Every body's value after {@code ticks} ticks, tick 4 ending after "stall" of sub-step 1. */
    static int expected(int ticks) {
        int v = 0;
        for (int t = 0; t < ticks; t++) {
            for (int step = 0; step < 3; step++) {
                v += 1 + step;
                if (t == STUCK_TICK && step == 1) {
                    break;
                }
                v *= 3;
            }
        }
        return v;
    }

    @Test
    void shouldEndATickWhoseSubStepsTogetherPassTheDeadlineAndDropTheStepsLeft() {
        List<String> failures = new ArrayList<>();
        try (Simulation sim = build(2, true, Stall.EVERY_SUB_STEP_SLOW)) {
            sim.failureListener((tick, failure, first) -> failures.add(tick + ": " + failure.getMessage()));
            for (int t = 0; t <= STUCK_TICK; t++) {
                sim.tick();
            }
            assertEquals(1, sim.skippedTicks(), "three sub-steps of 0.9 s each pass the tick's 1.5 s deadline");
            assertEquals(1, failures.size(), failures.toString());
            assertTrue(failures.get(0).startsWith("4: system 'stall' did not finish"), failures.get(0));
            FixedTimestep step = sim.resources().get(STEP);
            assertEquals(0, step.accumulated());
            assertEquals(15, step.steps() + step.droppedSteps(), "every whole step of 5 ticks ran or was dropped: " + step);
            assertTrue(step.droppedSteps() >= 1, "the sub-step after the one the deadline ended was dropped: " + step);
            long before = step.steps();
            sim.tick();
            assertEquals(before + 3, sim.resources().get(STEP).steps(), "the next tick runs its 3 sub-steps");
            assertEquals(1, sim.skippedTicks());
        }
    }

    @Test
    void shouldReplayATickTheDeadlineEndedInASubStep(@TempDir Path dir) throws Exception {
        int ticks = 7;
        try (Simulation sim = build(2, true, Stall.SUB_STEP_1_STUCK)) {
            sim.failureListener((tick, failure, first) -> { });
            for (int t = 0; t < ticks; t++) {
                sim.tick();
            }
            assertEquals(1, sim.skippedTicks());
            FixedTimestep step = sim.resources().get(STEP);
            assertEquals(3 * (ticks - 1) + 2, step.steps(), "tick 4 ran sub-steps 0 and 1 only: " + step);
            assertEquals(1, step.droppedSteps(), "and dropped sub-step 2: " + step);
            int[] wrong = {0};
            sim.world().query().with(sim.world().component(Body.class)).build().forEach((v, row) -> {
                if (sim.world().get(v.entity(row), sim.world().component(Body.class)).x() != expected(ticks)) {
                    wrong[0]++;
                }
            });
            assertEquals(0, wrong[0], "bodies not at " + expected(ticks) + " (\"after\" skipped once, in tick 4 sub-step 1)");
        }
        RecordedReplays.recordThenReplay((workers, populate) -> build(workers, populate, Stall.SUB_STEP_1_STUCK), dir,
                ticks, 2);
    }

    /**
     * The recording notes the skip, not the deadline: a replay in which the job does not stick
     * runs tick 4 in full and is stopped there, and the message names the deadline and what to
     * do, not only a non-deterministic system.
     */
    @Test
    void shouldReportATickTheDeadlineEndedAsADivergenceWhenTheReplaysJobDoesNotStick(@TempDir Path dir)
            throws Exception {
        try (Simulation sim = build(2, true, Stall.SUB_STEP_1_STUCK);
             RunRecorder rec = RunRecorder.start(sim, dir, InputPipeline.builder().ringSize(64).maxPayloadBytes(8))) {
            sim.failureListener((tick, failure, first) -> { });
            for (int t = 0; t < 6; t++) {
                sim.tick();
            }
            assertEquals(1, sim.skippedTicks());
        }
        try (Simulation fresh = build(2, false, Stall.NEVER)) {
            ReplayDivergenceException e = assertThrows(ReplayDivergenceException.class,
                    () -> RunReplayer.replay(dir, fresh));
            assertEquals(STUCK_TICK, e.tick());
            String m = e.getMessage();
            assertTrue(m.contains("the recording skipped the tick (system 'stall' threw) but the replay ran it"), m);
            assertTrue(m.contains("a job the tick deadline ended") && m.contains("the same tickDeadline"), m);
        }
    }
}
