package dev.orrery.testkit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.orrery.engine.Simulation;
import dev.orrery.scheduler.Phase;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Two recordings of the same game, in an older kit's format (a hash after each system only),
 * where one run applied commands at a sync point and the other applied none: a spawner gated
 * by state outside the simulation (a static, as a wall clock or a first-run flag would be)
 * spawned while the first was recorded only. The re-run with {@code --game} spawns in neither,
 * so it has no sync point there to see; compared against the first's hashes it must not lay
 * the difference at the system after the sync point, which did nothing wrong, as
 * {@link SyncPointInOneRunTest} shows for the determinism check's own runs.
 */
public class SyncPointInOneRecordingTest {
    /** Whether the spawner spawns: outside the simulation, so each run may see another value. */
    static volatile boolean spawning;

    /** The game, loaded by name by {@code --game}. */
    public static final class Game implements SimulationFactory {
        /** Needed by {@code CompareRecordings --game}. */
        public Game() {
        }

        @Override
        public Simulation create(int workers, boolean populate) {
            GrowingWorld g = new GrowingWorld(populate);
            return g.builder(workers)
                    .systems(s -> {
                        s.system("spawner").inPhase(Phase.PRE_UPDATE).spawns(g.growth)
                                .forEachRange(() -> 1, (job, from, to) -> {
                                    if (spawning) {
                                        job.commands().add(job.commands().spawn(), g.growth, new GrowingWorld.Growth(7));
                                    }
                                });
                        s.system("grow").query(g.growing).writes(g.growth).forEachChunk(job -> {
                            float[] v = job.chunk().writeFloats(g.size);
                            for (int i = 0, n = job.chunk().size(); i < n; i++) v[i] += 1;
                        });
                    })
                    .build();
        }
    }

    @Test
    void commandsOnlyTheFirstRecordingAppliedAreNotLaidAtTheNextSystem(@TempDir Path dir) {
        Path spawned = dir.resolve("spawned");
        Path plain = dir.resolve("plain");
        try {
            spawning = true;
            GoldenRecording.record(new Game(), InputScript.NONE, 5, spawned);
            spawning = false;
            GoldenRecording.record(new Game(), InputScript.NONE, 5, plain);
        } finally {
            spawning = false;
        }
        Path spawnedV1 = OldSystemHashes.copy(spawned, dir.resolve("spawned-v1"));
        Path plainV1 = OldSystemHashes.copy(plain, dir.resolve("plain-v1"));
        for (String[] args : new String[][] {{"--game", Game.class.getName(), spawnedV1.toString(), plainV1.toString()},
                {"--game", Game.class.getName(), plainV1.toString(), spawnedV1.toString()}}) {
            ByteArrayOutputStream out = new ByteArrayOutputStream();
            int status = CompareRecordings.run(args, new PrintStream(out, true, StandardCharsets.UTF_8),
                    new PrintStream(new ByteArrayOutputStream(), true, StandardCharsets.UTF_8));
            String o = out.toString(StandardCharsets.UTF_8);
            assertEquals(1, status, o);
            assertTrue(o.contains("state: first differs at tick 0"), o);
            // on the old code: "system: first difference after system 'grow' at tick 0 (the ... recording re-run ..."
            assertFalse(o.contains("system: first difference after system 'grow' at tick 0 ("), o);
            assertTrue(o.contains("system: first difference after system 'grow' at tick 0, or in the commands of system "
                    + "'spawner' applied at the sync point before it"), o);
        }
    }
}
