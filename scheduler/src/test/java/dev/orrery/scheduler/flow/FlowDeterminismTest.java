package dev.orrery.scheduler.flow;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.orrery.scheduler.Schedule;
import dev.orrery.scheduler.ScheduleExecutor;
import dev.orrery.scheduler.executor.SingleThreadedExecutor;
import dev.orrery.scheduler.internal.SchedulerInternals;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Events, run conditions, a fixed-timestep phase and state transitions in one schedule give
 * the identical world after every tick on 1, 2, 4 and 8 workers and any job split: the state
 * hash of each of 160 ticks is compared with a single-threaded run. The tally system hashes
 * the order of the events it reads into the entities it spawns, so an order that depended on
 * the workers would show in the hash.
 */
class FlowDeterminismTest {
    static final int TICKS = 160;

    /** The single-threaded reference and what it did, so the test knows the features were exercised. */
    record Reference(long[] hashes, long tallies, long fixedSteps, int maxSoldiers) {
    }

    static Reference reference;

    static synchronized Reference reference() {
        if (reference == null) {
            FlowWorkload w = new FlowWorkload(Schedule.DEFAULT_MIN_BATCH_ROWS);
            long[] hashes = new long[TICKS];
            int maxSoldiers = 0;
            try (ScheduleExecutor ex = new SingleThreadedExecutor(SchedulerInternals.plan(w.schedule))) {
                for (int t = 0; t < TICKS; t++) {
                    w.ticker.tick = t;
                    ex.run();
                    hashes[t] = w.world.stateHash();
                    maxSoldiers = Math.max(maxSoldiers, w.world.query().with(w.soldier).build().count());
                }
            }
            long tallies = w.world.query().with(w.tally).build().count();
            reference = new Reference(hashes, tallies, w.schedule.resources().get(FlowWorkload.STEP).steps(),
                    maxSoldiers);
        }
        return reference;
    }

    static Stream<Arguments> executors() {
        return Stream.of(Arguments.of(1, 1), Arguments.of(2, 1), Arguments.of(2, 500), Arguments.of(4, 64),
                Arguments.of(8, 1), Arguments.of(8, 300));
    }

    @ParameterizedTest(name = "{0} workers, min batch {1} rows")
    @MethodSource("executors")
    void shouldGiveTheSameStateAfterEveryTick(int workers, int minBatchRows) {
        Reference ref = reference();
        assertTrue(ref.tallies() > TICKS / 2, "events must reach the tally on most ticks, got " + ref.tallies());
        assertEquals(TICKS * 2 / 3, ref.fixedSteps(), "2 units per run, 3 per step");
        assertEquals(40, ref.maxSoldiers(), "entering WAR musters 40 soldiers, leaving it disbands them");
        FlowWorkload w = new FlowWorkload(minBatchRows);
        long[] hashes;
        try (ScheduleExecutor ex = w.schedule.executor(workers)) {
            hashes = w.run(ex, TICKS);
        }
        for (int t = 0; t < TICKS; t++) {
            assertEquals(ref.hashes()[t], hashes[t], "state diverged at tick " + t + " with " + workers
                    + " workers, batch " + minBatchRows);
        }
        assertArrayEquals(ref.hashes(), hashes);
    }
}
