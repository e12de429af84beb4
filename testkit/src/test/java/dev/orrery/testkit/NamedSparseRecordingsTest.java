package dev.orrery.testkit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.orrery.ecs.World;
import dev.orrery.ecs.component.Component;
import dev.orrery.ecs.component.Storage;
import dev.orrery.engine.Simulation;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Recordings of a game whose differing column is a sparse named instance ({@code Aura:Fog})
 * beside a table instance of the same record ({@code Aura:Glow}): {@link CompareRecordings}
 * and {@link GoldenRecording#assertReplays} name the instance (type and name), not the bare
 * record or a column number, down to the field. A guard: it passed when written.
 */
class NamedSparseRecordingsTest {
    record Aura(int level) {
    }

    /** Ten entities with a Glow, every other one with a Fog that 'thicken' grows by {@code step} a tick. */
    static SimulationFactory game(int step) {
        return (workers, populate) -> {
            World world = new World(1024);
            Component<Aura> glow = world.component(Aura.class, "Glow");
            Component<Aura> fog = world.component(Aura.class, "Fog", Storage.SPARSE);
            if (populate) {
                for (int i = 0; i < 10; i++) {
                    long e = world.spawn();
                    world.add(e, glow, new Aura(i));
                    if (i % 2 == 0) {
                        world.add(e, fog, new Aura(i));
                    }
                }
            }
            return Simulation.builder(world).seed(1).workers(workers).hashEvery(1).systems(s -> s
                    .system("thicken").query(world.query().with(glow).optional(fog).build()).writes(fog)
                    .forEachChunk(job -> {
                        for (int i = 0; i < job.chunk().size(); i++) {
                            if (job.chunk().has(fog, i)) {
                                job.chunk().set(fog, i, new Aura(job.chunk().get(fog, i).level() + step));
                            }
                        }
                    })).build();
        };
    }

    @Test
    void shouldNameTheSparseNamedInstanceThatDiffers(@TempDir Path dir) {
        GoldenRecording.record(game(1), (tick, send) -> { }, 5, dir.resolve("a"));
        GoldenRecording.record(game(2), (tick, send) -> { }, 5, dir.resolve("b"));
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        PrintStream print = new PrintStream(out, true, StandardCharsets.UTF_8);
        int status = CompareRecordings.run(new String[] {dir.resolve("a").toString(), dir.resolve("b").toString()},
                print, print);
        String text = out.toString(StandardCharsets.UTF_8);
        assertEquals(1, status, text);
        assertTrue(text.contains("system: first difference after system 'thicken' at tick 0"), text);
        assertTrue(text.contains("components: [Aura:Fog] differ"), text);

        AssertionError golden = assertThrows(AssertionError.class,
                () -> GoldenRecording.assertReplays(dir.resolve("a"), game(2)));
        assertTrue(golden.getMessage().contains("components that differ: [Aura:Fog]"), golden.getMessage());
        assertTrue(golden.getMessage().contains("entity 0v1 Aura:Fog.level: 5 in the reference, 10 here"),
                golden.getMessage());
    }
}
