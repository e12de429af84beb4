package dev.orrery.engine;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.orrery.ecs.World;
import dev.orrery.ecs.component.Component;
import dev.orrery.scheduler.Phase;
import dev.orrery.scheduler.SystemFailedException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code RunRecorder.start} from inside a tick (a system) was refused only by the
 * {@code Simulation.snapshot()} it calls, so the message named a snapshot the caller never
 * made, and the recording folder was already created; it is refused naming
 * {@code RunRecorder.start()} now, before anything is written, with the same guidance.
 */
class MidTickRecordingStartTest {
    record Hp(int hp) {
    }

    @Test
    void shouldRefuseARecordingStartedInsideATickNamingRunRecorderStart(@TempDir Path tmp) throws Exception {
        Path dir = tmp.resolve("rec");
        World world = new World();
        Component<Hp> hp = world.component(Hp.class);
        Simulation[] self = new Simulation[1];
        try (Simulation sim = Simulation.builder(world).systems(s -> s
                .system("heal").query(world.query().with(hp).build()).writes(hp).forEachChunk(job -> { })
                .system("record").inPhase(Phase.POST_UPDATE).readsResource(Simulation.CLOCK).exclusive((w, job) -> {
                    if (job.resource(Simulation.CLOCK).tick() == 1) {
                        try {
                            RunRecorder.start(self[0], dir, InputPipeline.builder()).close();
                        } catch (java.io.IOException e) {
                            throw new java.io.UncheckedIOException(e);
                        }
                    }
                })).build()) {
            self[0] = sim;
            world.spawn(new Hp(3));
            sim.tick();
            SystemFailedException e = assertThrows(SystemFailedException.class, sim::tick);
            IllegalStateException cause = assertInstanceOf(IllegalStateException.class, e.getCause());
            String m = cause.getMessage();
            assertTrue(m.contains("RunRecorder.start() called while tick 1 runs") && m.contains("between ticks")
                    && !m.contains("Simulation.snapshot()"), m);
            assertFalse(Files.exists(dir), "nothing is written when the start is refused");
        }
    }
}
