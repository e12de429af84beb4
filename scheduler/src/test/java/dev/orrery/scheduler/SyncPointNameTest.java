package dev.orrery.scheduler;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.orrery.ecs.World;
import dev.orrery.ecs.component.Component;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.Test;

/**
 * A sync point's name is built in one place ({@link SystemFailedException}'s builders, beside the
 * prefixes {@link SystemFailedException#namesSyncPoint} recognizes) and the executor names a
 * failed sync point with them: a real failure at each of the two forms is recognized, so a
 * producer whose format drifted from the recognizer fails here.
 */
class SyncPointNameTest {
    record Hp(int v) {
    }

    /** "spawner" spawns one Hp entity, whose onAdd hook throws while {@code armed}; "reader" (optional) reads Hp. */
    private static Schedule spawnerWithThrowingHook(World w, Component<Hp> hp, boolean readerAfter) {
        AtomicBoolean armed = new AtomicBoolean(true);
        w.observe(hp).onAdd((world, e, commands) -> {
            if (armed.get()) {
                throw new IllegalStateException("the hook refuses the spawn");
            }
        });
        Schedule.Builder b = Schedule.builder(w)
                .system("spawner").spawns(hp).forEachRange(() -> 1,
                        (job, from, to) -> job.commands().add(job.commands().spawn(), hp, new Hp(1)));
        if (readerAfter) { // reads what spawner spawns: an automatic sync point before it
            b.system("reader").query(w.query().with(hp).build()).reads(hp).forEachChunk(job -> { });
        }
        return b.build();
    }

    private static SystemFailedException fail(boolean readerAfter, int workers) {
        World w = new World(256);
        Component<Hp> hp = w.component(Hp.class, "Hp");
        try (ScheduleExecutor executor = spawnerWithThrowingHook(w, hp, readerAfter).executor(workers)) {
            return assertThrows(SystemFailedException.class, executor::run);
        }
    }

    @Test
    void shouldRecognizeTheNameTheExecutorGivesAFailedSyncPointEndingAPhase() {
        for (int workers : new int[] {1, 2}) {
            SystemFailedException e = fail(false, workers);
            assertTrue(SystemFailedException.namesSyncPoint(e.system()), "the recognizer takes the producer's name: "
                    + e.system());
            assertEquals(SystemFailedException.syncPointEndingPhase(Phase.UPDATE.toString()), e.system());
            assertEquals("sync point ending phase Update", e.system(), "the wording journals and tests pin");
            assertTrue(e.getMessage().startsWith("the " + e.system() + " failed"), e.getMessage());
        }
    }

    @Test
    void shouldRecognizeTheNameTheExecutorGivesAFailedSyncPointBeforeASystem() {
        for (int workers : new int[] {1, 2}) {
            SystemFailedException e = fail(true, workers);
            assertTrue(SystemFailedException.namesSyncPoint(e.system()), "the recognizer takes the producer's name: "
                    + e.system());
            assertEquals(SystemFailedException.syncPointBeforeSystem("reader"), e.system());
            assertEquals("sync point before system 'reader'", e.system(), "the wording journals and tests pin");
            assertTrue(e.getMessage().startsWith("the " + e.system() + " failed"), e.getMessage());
        }
    }

    @Test
    void shouldRecognizeWhatTheBuildersBuildAndNoSystemNameTheBuilderTakes() {
        for (String name : new String[] {"b", "Update", "sync point 3", "a 'quoted' name", " x "}) {
            String before = SystemFailedException.syncPointBeforeSystem(name);
            String ending = SystemFailedException.syncPointEndingPhase(name);
            assertTrue(SystemFailedException.namesSyncPoint(before), before);
            assertTrue(SystemFailedException.namesSyncPoint(ending), ending);
            World w = new World(256);
            for (String taken : new String[] {before, ending}) { // a journal could not tell such a system from the sync point
                assertThrows(IllegalArgumentException.class, () -> Schedule.builder(w).system(taken), taken);
            }
        }
        assertFalse(SystemFailedException.namesSyncPoint("sync point 3"), "only the scheduler's own forms");
    }
}
