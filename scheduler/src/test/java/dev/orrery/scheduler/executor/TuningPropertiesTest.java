package dev.orrery.scheduler.executor;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.orrery.ecs.World;
import dev.orrery.ecs.component.Component;
import dev.orrery.scheduler.BatchDecision;
import dev.orrery.scheduler.Schedule;
import dev.orrery.scheduler.internal.SchedulerInternals;
import org.junit.jupiter.api.Test;

/**
 * The executor's tuning properties ({@value AdaptiveBatching#TARGET_PROPERTY},
 * {@value ChunkPipelines#PROPERTY}) are read when an executor is built: a malformed or
 * out-of-range value fails that build naming the property, where it used to be ignored
 * (a malformed one) or taken (a negative target).
 */
class TuningPropertiesTest {
    record Pos(float x, float y) {
    }

    private static Schedule schedule() {
        World world = new World(1024);
        Component<Pos> pos = world.component(Pos.class);
        for (int i = 0; i < 100; i++) {
            world.spawn(new Pos(i, i));
        }
        return Schedule.builder(world)
                .system("drift").query(world.query().with(pos).build()).writes(pos).forEachChunk(job -> { })
                .build();
    }

    /** Builds an executor with {@code property} set to {@code value}, clearing it afterwards. */
    private static ParallelExecutor buildWith(String property, String value) {
        Schedule s = schedule();
        System.setProperty(property, value);
        try {
            return new ParallelExecutor(SchedulerInternals.plan(s), 2);
        } finally {
            System.clearProperty(property);
        }
    }

    private static void refused(String property, String value, String accepted) {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> buildWith(property, value).close());
        assertTrue(e.getMessage().contains("-D" + property + "='" + value + "'"), e.getMessage());
        assertTrue(e.getMessage().contains(accepted), e.getMessage());
    }

    @Test
    void aMalformedOrNegativeTargetJobTimeFailsTheExecutorsBuild() {
        refused(AdaptiveBatching.TARGET_PROPERTY, "abc", "a whole number from 0 to " + Long.MAX_VALUE);
        refused(AdaptiveBatching.TARGET_PROPERTY, "-5", "default (10000)");
        refused(AdaptiveBatching.TARGET_PROPERTY, "10us", "a whole number from 0");
        try (ParallelExecutor ex = buildWith(AdaptiveBatching.TARGET_PROPERTY, "20000")) {
            assertEquals(BatchDecision.Mode.MEASURING, ex.batching().get(0).mode(), "a good value builds an adaptive executor");
        }
    }

    @Test
    void aMalformedPipelineSwitchFailsTheExecutorsBuild() {
        refused(ChunkPipelines.PROPERTY, "maybe", "give true or false");
        refused(ChunkPipelines.PROPERTY, "flase", "default (true)");
        buildWith(ChunkPipelines.PROPERTY, "false").close();
    }
}
