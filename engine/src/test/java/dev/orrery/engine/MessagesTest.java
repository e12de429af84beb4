package dev.orrery.engine;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.orrery.ecs.World;
import dev.orrery.engine.journal.JournalWriter;
import dev.orrery.scheduler.ResourceKey;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Error messages of the engine's entry points: each names the thing refused and says what to
 * do instead (a confusing message is a defect).
 */
class MessagesTest {
    @TempDir
    Path dir;

    private static void assertContains(String message, String... parts) {
        for (String part : parts) {
            assertTrue(message.contains(part), "message should contain '" + part + "': " + message);
        }
    }

    @Test
    void shouldSayTheBoundIsExclusiveWhenARandomRangeIsEmpty() {
        RandomCursor cursor = new CounterRandom(42).cursor();
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> cursor.nextInt(5, 5));
        assertContains(e.getMessage(), "[5, 5) is empty", "bound above the origin", "nextInt(5, 5 + 1) draws 5");
    }

    @Test
    void shouldNameTheTickWhenASimulationThatRanIsRestored() {
        try (Simulation sim = ArenaWorkload.build(3, 1, true, 0)) {
            sim.run(2, 0);
            byte[] snapshot = sim.snapshot();
            IllegalStateException e = assertThrows(IllegalStateException.class, () -> sim.restore(snapshot));
            assertContains(e.getMessage(), "Simulation.restore() refused", "at tick 2",
                    "before the first tick, into a new simulation");
        }
    }

    @Test
    void shouldSayWhenToReportASkippedTickToThePipeline() {
        try (InputPipeline pipeline = InputPipeline.builder().build()) {
            IllegalStateException e = assertThrows(IllegalStateException.class,
                    () -> pipeline.tickSkipped(3, "move", 0));
            assertContains(e.getMessage(), "tickSkipped(3)", "none", "after its beginTick and before the next");
        }
    }

    @Test
    void shouldSayToTestHasNextTickAtTheEndOfAJournalAndWhenToReportTicks() throws Exception {
        Path journal = dir.resolve("one-tick.journal");
        try (InputPipeline pipeline = InputPipeline.builder().recorder(JournalWriter.create(journal)).build()) {
            pipeline.beginTick(1);
            pipeline.recordHash(1, 0x1234L);
        }
        try (JournalInputSource replay = JournalInputSource.open(journal)) {
            IllegalStateException early = assertThrows(IllegalStateException.class,
                    () -> replay.tickSkipped(1, "move", 0));
            assertContains(early.getMessage(), "tickSkipped(1)", "none", "after its beginTick and before the next");
            replay.beginTick(1);
            IllegalStateException hash = assertThrows(IllegalStateException.class,
                    () -> replay.recordHash(2, 0x1234L));
            assertContains(hash.getMessage(), "recordHash(2)", "is 1", "after its beginTick and before the next");
            replay.recordHash(1, 0x1234L);
            assertFalse(replay.hasNextTick());
            IllegalStateException end = assertThrows(IllegalStateException.class, replay::nextTick);
            assertContains(end.getMessage(), journal.toString(), "no more ticks", "hasNextTick()");
        }
    }

    /**
     * A system of a simulation that read a resource no one put was refused with "put one with
     * Resources.put (or Schedule.Builder.resource)": a user of a Simulation calls neither, but
     * SimulationBuilder.resource. The refusal now names it.
     */
    @Test
    void shouldNameSimulationBuilderResourceWhenAResourceHasNoValue() {
        ResourceKey<StringBuilder> log = ResourceKey.of("log", StringBuilder.class);
        try (Simulation sim = Simulation.builder(new World())
                .systems(s -> s.system("write log").readsResource(log).exclusive((w, job) -> job.resource(log)))
                .build()) {
            Throwable e = assertThrows(RuntimeException.class, sim::tick);
            StringBuilder messages = new StringBuilder();
            for (Throwable t = e; t != null; t = t.getCause()) {
                messages.append(t.getMessage()).append(" | ");
            }
            assertContains(messages.toString(), "resource 'log' has no value", "SimulationBuilder.resource",
                    "before the first run");
        }
    }
}
