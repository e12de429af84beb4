package dev.orrery.testkit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.orrery.ecs.World;
import dev.orrery.ecs.component.Component;
import dev.orrery.engine.ResourceCodec;
import dev.orrery.engine.Simulation;
import dev.orrery.scheduler.ResourceKey;
import java.io.ByteArrayOutputStream;
import java.io.DataInput;
import java.io.DataOutput;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Two recordings whose worlds agree on every tick and whose resources differ at the end (a score
 * kept outside the world, counted by another step), from versions of the game that put their two
 * resources in another order. The recordings' hashes cover the world only, so CompareRecordings
 * said they agree (exit 0) and named no resource, with or without the game. It now compares the
 * end snapshots' resources by name, whatever order each version put them in: the score differs,
 * the level does not, in both orders of the recordings and of the resources.
 */
class ResourceOrderTest {
    record Pos(float x) {}

    /** A score kept outside the world; it prints its value, so the report shows both. */
    static final class Score {
        long points;

        @Override
        public String toString() {
            return "score " + points;
        }
    }

    record Level(int n) {}

    static final ResourceKey<Score> SCORE = ResourceKey.of("score", Score.class);
    static final ResourceKey<Level> LEVEL = ResourceKey.of("level", Level.class);

    static final ResourceCodec<Score> SCORE_CODEC = new ResourceCodec<>() {
        @Override
        public void write(Score s, DataOutput out) throws IOException {
            out.writeLong(s.points);
        }

        @Override
        public Score read(DataInput in) throws IOException {
            Score s = new Score();
            s.points = in.readLong();
            return s;
        }
    };

    static final ResourceCodec<Level> LEVEL_CODEC = new ResourceCodec<>() {
        @Override
        public void write(Level l, DataOutput out) throws IOException {
            out.writeInt(l.n());
        }

        @Override
        public Level read(DataInput in) throws IOException {
            return new Level(in.readInt());
        }
    };

    /** The game: one walker the world holds; a score counted {@code step} a tick; level and score put in either order. */
    static SimulationFactory game(int step, boolean levelFirst) {
        return (workers, populate) -> {
            World world = new World();
            Component<Pos> pos = world.component(Pos.class);
            if (populate) {
                world.spawn(new Pos(0));
            }
            var b = Simulation.builder(world).workers(workers).seed(3).hashEvery(1);
            if (levelFirst) {
                b.resource(LEVEL, new Level(2), LEVEL_CODEC).resource(SCORE, new Score(), SCORE_CODEC);
            } else {
                b.resource(SCORE, new Score(), SCORE_CODEC).resource(LEVEL, new Level(2), LEVEL_CODEC);
            }
            return b.systems(s -> {
                s.system("walk").query(world.query().with(pos).build()).writes(pos).forEachChunk(job -> {
                    float[] x = job.chunk().writeFloats(pos.field("x"));
                    for (int i = 0; i < job.chunk().size(); i++) {
                        x[i] += 1;
                    }
                });
                s.system("score").writesResource(SCORE).exclusive((w, job) -> {
                    job.resourceForWrite(SCORE).points += step;
                });
            }).build();
        };
    }

    /** The game as {@code --game} makes it: score and level in that order, one point a tick. */
    public static final class OnePoint implements SimulationFactory {
        /** Needed by {@code --game}. */
        public OnePoint() {
        }

        @Override
        public Simulation create(int workers, boolean populate) {
            return game(1, false).create(workers, populate);
        }
    }

    @TempDir
    static Path dir;
    static Path onePoint;
    static Path onePointLevelFirst;
    static Path twoPointsLevelFirst;
    static Path twoPoints;

    @BeforeAll
    static void record() {
        onePoint = dir.resolve("one-point");
        onePointLevelFirst = dir.resolve("one-point-level-first");
        twoPointsLevelFirst = dir.resolve("two-points-level-first");
        twoPoints = dir.resolve("two-points");
        GoldenRecording.record(game(1, false), InputScript.NONE, 5, onePoint);
        GoldenRecording.record(game(1, true), InputScript.NONE, 5, onePointLevelFirst);
        GoldenRecording.record(game(2, true), InputScript.NONE, 5, twoPointsLevelFirst);
        GoldenRecording.record(game(2, false), InputScript.NONE, 5, twoPoints);
    }

    private static String[] run(int expected, String... args) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        int status = CompareRecordings.run(args, new PrintStream(out, true, StandardCharsets.UTF_8),
                new PrintStream(err, true, StandardCharsets.UTF_8));
        String o = out.toString(StandardCharsets.UTF_8) + err.toString(StandardCharsets.UTF_8);
        assertEquals(expected, status, String.join(" ", args) + "\n" + o);
        return new String[] {out.toString(StandardCharsets.UTF_8), String.join(" ", args)};
    }

    @Test
    void aResourceThatDiffersIsNamedInEitherOrderOfTheResourcesAndOfTheRecordings() {
        for (Path[] pair : new Path[][] {{onePoint, twoPointsLevelFirst}, {twoPointsLevelFirst, onePoint},
                {onePointLevelFirst, twoPoints}, {twoPoints, onePointLevelFirst}, {onePoint, twoPoints}}) {
            boolean twoFirst = pair[0] == twoPointsLevelFirst || pair[0] == twoPoints;
            String[] plain = run(1, pair[0].toString(), pair[1].toString());
            String o = plain[0];
            assertTrue(o.contains("state: the same hash on every tick both hold (5 hashed ticks)"), plain[1] + "\n" + o);
            assertTrue(o.contains("resources: at the end (tick 4), the reference is the first recording:\n"
                    + "  resource 'score': its codec writes 8 bytes here and 8 in the reference, first differing at "
                    + "byte 7\n"), plain[1] + "\n" + o);
            assertFalse(o.contains("'level'"), plain[1] + "\n" + o);
            assertTrue(o.contains("give --game to see both values"), plain[1] + "\n" + o);
            assertTrue(o.contains("cause: the same inputs gave different resources; the worlds agree"),
                    plain[1] + "\n" + o);

            String[] game = run(1, "--game", OnePoint.class.getName(), pair[0].toString(), pair[1].toString());
            assertTrue(game[0].contains("  resource 'score': its codec writes 8 bytes here and 8 in the reference, first "
                    + "differing at byte 7 (score " + (twoFirst ? 10 : 5) + " in the reference, score " + (twoFirst ? 5 : 10)
                    + " here)"), game[1] + "\n" + game[0]);
            assertFalse(game[0].contains("'level'"), game[1] + "\n" + game[0]);
        }
    }

    @Test
    void theSameResourcesPutInAnotherOrderAgree() {
        for (Path[] pair : new Path[][] {{onePoint, onePointLevelFirst}, {onePointLevelFirst, onePoint}}) {
            String o = run(0, pair[0].toString(), pair[1].toString())[0];
            assertFalse(o.contains("resource"), o);
            o = run(0, "--game", OnePoint.class.getName(), pair[0].toString(), pair[1].toString())[0];
            assertFalse(o.contains("resource"), o);
        }
    }
}
