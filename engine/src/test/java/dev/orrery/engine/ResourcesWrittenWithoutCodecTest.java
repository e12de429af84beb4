package dev.orrery.engine;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.orrery.ecs.World;
import dev.orrery.engine.internal.EngineInternals;
import dev.orrery.scheduler.LongSum;
import dev.orrery.scheduler.ResourceKey;
import java.io.DataInput;
import java.io.DataOutput;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * The resources a snapshot leaves out though systems write them, as the test kit names them when
 * a restored run differs: written or reduced, without a codec, the built-ins aside; read-only
 * configuration and resources with a codec are not named, and the snapshot still leaves them out
 * without a word (a resource rebuilt every tick is rightly left out).
 */
class ResourcesWrittenWithoutCodecTest {
    static final class Grid {
        int cells;
    }

    record Settings(float drag) {
    }

    static final class Score {
        long points;
    }

    static final ResourceKey<Grid> GRID = ResourceKey.of("grid", Grid.class);
    static final ResourceKey<LongSum> DEAD = ResourceKey.of("dead", LongSum.class);
    static final ResourceKey<Settings> SETTINGS = ResourceKey.of("settings", Settings.class);
    static final ResourceKey<Score> SCORE = ResourceKey.of("score", Score.class);
    static final ResourceCodec<Score> SCORES = new ResourceCodec<>() {
        @Override
        public void write(Score s, DataOutput out) throws java.io.IOException {
            out.writeLong(s.points);
        }

        @Override
        public Score read(DataInput in) throws java.io.IOException {
            Score s = new Score();
            s.points = in.readLong();
            return s;
        }
    };

    private static Simulation build() {
        return Simulation.builder(new World(1024)).seed(3)
                .resource(SETTINGS, new Settings(0.5f)).resource(GRID, new Grid()).resource(DEAD, new LongSum())
                .resource(SCORE, new Score(), SCORES)
                .systems(s -> s
                        .system("index").readsResource(SETTINGS, Simulation.CLOCK).writesResource(GRID)
                        .forEachRange(() -> 1, (job, from, to) -> job.resourceForWrite(GRID).cells++)
                        .system("count").after("index").reducesResource(DEAD)
                        .forEachRange(() -> 1, (job, from, to) -> job.add(DEAD, 1))
                        .system("regrid").after("count").writesResource(GRID, SCORE)
                        .forEachRange(() -> 1, (job, from, to) -> job.resourceForWrite(SCORE).points++))
                .build();
    }

    @Test
    void shouldNameEveryWrittenOrReducedResourceWithoutACodecWithItsSystems() {
        try (Simulation sim = build()) {
            Map<String, List<String>> left = EngineInternals.resourcesWrittenWithoutCodec(sim);
            assertEquals(Map.of("grid", List.of("index", "regrid"), "dead", List.of("count")), left);
            assertEquals(List.of("grid", "dead"), List.copyOf(left.keySet()), "in the order put");
        }
    }

    @Test
    void shouldNameTheDeclaredWritersAndLeaveConfigurationOutWithoutAnExclusiveSystem() {
        try (Simulation sim = build()) {
            Map<String, String> left = EngineInternals.resourcesWritableWithoutCodec(sim);
            assertEquals(List.of("grid", "dead"), List.copyOf(left.keySet()), "settings is only read: " + left);
            assertEquals("written by 'index', 'regrid'", left.get("grid"));
            assertEquals("written by 'count'", left.get("dead"));
        }
    }

    @Test
    void shouldNameEveryResourceWithoutACodecWhenAnExclusiveSystemMayWriteIt() {
        // 'tune' declares nothing, yet the scheduler lets its body write any resource: the tick below does
        try (Simulation sim = Simulation.builder(new World(1024)).seed(3)
                .resource(SETTINGS, new Settings(0.5f)).resource(GRID, new Grid()).resource(SCORE, new Score(), SCORES)
                .systems(s -> s
                        .system("index").writesResource(GRID)
                        .forEachRange(() -> 1, (job, from, to) -> job.resourceForWrite(GRID).cells++)
                        .system("tune").after("index").exclusive((w, job) -> job.resourceForWrite(SETTINGS))
                        .system("calm").after("tune").exclusive(w -> { }))
                .build()) {
            sim.tick(); // an undeclared write from a system that is not exclusive would be refused here
            Map<String, String> left = EngineInternals.resourcesWritableWithoutCodec(sim);
            assertEquals(List.of("settings", "grid"), List.copyOf(left.keySet()), "in the order put: " + left);
            assertEquals("exclusive systems 'tune', 'calm' may write any resource", left.get("settings"));
            assertEquals("written by 'index'; exclusive systems 'tune', 'calm' may write any resource", left.get("grid"),
                    "a declared writer is named first, then the exclusive systems that may write it too");
            assertFalse(left.containsKey("score"), "score has a codec");
            assertFalse(left.containsKey(Simulation.CLOCK.name()), "the built-ins are rebuilt from the tick and seed");
        }
    }

    @Test
    void shouldStillSnapshotAndRestoreWhatItNamesWithoutAWord() {
        try (Simulation sim = build()) {
            sim.run(3, 0);
            byte[] snapshot = sim.snapshot(); // not refused: a resource rebuilt every tick needs no codec
            try (Simulation restored = build()) {
                restored.restore(snapshot);
                assertEquals(3, restored.resources().get(SCORE).points, "the codec carries the score");
                assertEquals(0, restored.resources().get(GRID).cells, "the grid is as the building code put it");
                assertTrue(restored.resources().get(DEAD).total() == 0, "so is the count");
            }
        }
    }
}
