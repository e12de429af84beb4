package dev.orrery.examples.book;

import dev.orrery.ecs.ChunkView;
import dev.orrery.ecs.World;
import dev.orrery.ecs.component.Component;
import dev.orrery.ecs.component.Field;
import dev.orrery.engine.CounterRandom;
import dev.orrery.engine.InputBatch;
import dev.orrery.engine.Simulation;
import dev.orrery.examples.ProgramArgs;
import dev.orrery.scheduler.Phase;
import dev.orrery.scheduler.ResourceKey;
import dev.orrery.testkit.DeterminismCheck;
import dev.orrery.testkit.GoldenRecording;
import dev.orrery.testkit.InputScript;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Stream;

/** The code of docs/determinism.md. */
public final class DeterminismChapter {
    private DeterminismChapter() {}

    record Position(float x, float y) {}
    record Heading(float angle) {}
    record Team(int id) {}

    // snippet:ordered-state
    static final class Standings {
        final Map<Integer, Long> byTeam = new TreeMap<>();       // iterated in key order, always
        final float[] perChunk = new float[4096];                // partial sums by chunk ordinal
        float totalDistance;
    }
    static final ResourceKey<Standings> STANDINGS = ResourceKey.of("standings", Standings.class);
    static final int TURN = CounterRandom.stream("turn");
    // end:ordered-state

    // snippet:input-script
    static final int NUDGE = 1;                                       // a command type of the game's own
    static final InputScript PLAYERS = (tick, send) -> {              // depends on the tick alone
        if (tick % 10 == 0) {
            send.input(7, NUDGE, ByteBuffer.allocate(4).putFloat(0.25f).array());   // client 7, a payload
        }
    };
    // end:input-script

    static Simulation build(int workers, boolean populate) {
        World world = new World();
        Component<Position> pos = world.component(Position.class);
        Component<Heading> heading = world.component(Heading.class);
        Component<Team> team = world.component(Team.class);
        for (int i = 0; populate && i < 20_000; i++) {
            world.spawn(new Position(i % 200, i / 200), new Heading(i * 0.01f), new Team(i % 3));
        }
        Field px = pos.field("x"), py = pos.field("y"), angle = heading.field("angle"), teamId = team.field("id");
        var movers = world.query().with(pos, heading).build();
        var members = world.query().with(team).build();
        return Simulation.builder(world).seed(1).workers(workers)
                .resource(STANDINGS, new Standings())
                .systems(s -> {
                    s.system("nudge").inPhase(Phase.PRE_UPDATE).query(movers).writes(heading)
                            .readsResource(Simulation.INPUTS).forEachChunk(job -> {
                                InputBatch in = job.resource(Simulation.INPUTS);
                                float[] a = job.chunk().writeFloats(angle);
                                for (int k = 0; k < in.size(); k++) {
                                    if (in.type(k) != NUDGE) continue;
                                    for (int i = 0, n = job.chunk().size(); i < n; i++) a[i] += in.payloadFloat(k, 0);
                                }
                            });
                    // snippet:random-and-time
                    s.system("turn").query(movers).writes(heading)
                            .readsResource(Simulation.RANDOM, Simulation.CLOCK).forEachChunk(job -> {
                                CounterRandom random = job.resource(Simulation.RANDOM);  // not java.util.Random
                                long tick = job.resource(Simulation.CLOCK).tick();     // not System.nanoTime()
                                ChunkView c = job.chunk();
                                long[] ids = c.entities();
                                float[] a = c.writeFloats(angle);
                                for (int i = 0, n = c.size(); i < n; i++) {
                                    a[i] += random.nextFloat(tick, ids[i], TURN) - 0.5f;
                                }
                            });
                    // end:random-and-time
                    // snippet:strict-math
                    s.system("walk").query(movers).reads(heading).writes(pos)
                            .writesResource(STANDINGS).forEachChunk(job -> {
                                ChunkView c = job.chunk();
                                float[] x = c.writeFloats(px), y = c.writeFloats(py), a = c.readFloats(angle);
                                float walked = 0;
                                for (int i = 0, n = c.size(); i < n; i++) {
                                    x[i] += (float) StrictMath.cos(a[i]);      // the same bits on every JDK
                                    y[i] += (float) StrictMath.sin(a[i]);
                                    walked += 1;
                                }
                                job.resourceForWrite(STANDINGS).perChunk[job.chunkOrdinal()] = walked;
                            });
                    // end:strict-math
                    // snippet:ordered-sum
                    s.system("total").inPhase(Phase.POST_UPDATE).writesResource(STANDINGS)
                            .forEachRange(() -> 1, (job, from, to) -> {
                                Standings st = job.resourceForWrite(STANDINGS);
                                float sum = 0;
                                for (int k = 0; k < st.perChunk.length; k++) {  // chunk order, not worker order
                                    sum += st.perChunk[k];
                                    st.perChunk[k] = 0;
                                }
                                st.totalDistance += sum;
                            });
                    // end:ordered-sum
                    // A TreeMap takes no writes from parallel jobs, and a batch size is a hint, not a promise
                    // of one job (the determinism kit forces jobs of one row): count on the world's thread.
                    s.system("count teams").inPhase(Phase.POST_UPDATE).writesResource(STANDINGS)
                            .exclusive((w, job) -> {
                                Map<Integer, Long> byTeam = job.resourceForWrite(STANDINGS).byTeam;
                                members.forEachChunk(c -> {
                                    int[] t = c.readInts(teamId);
                                    for (int i = 0; i < c.size(); i++) byTeam.merge(t[i], 1L, Long::sum);
                                });
                            });
                })
                .build();
    }

    public static void main(String[] args) throws IOException {
        ProgramArgs.atMost("DeterminismChapter", args);
        // snippet:check
        List<String> runs = DeterminismCheck.of(DeterminismChapter::build)   // (workers, populate) -> Simulation
                .ticks(100)
                .workers(1, 2, 4)
                .inputs(PLAYERS)                                             // every run gets the same inputs
                .run();          // throws DeterminismFailure: the run, the tick, the system, the fields
        runs.forEach(run -> System.out.println("same hashes: " + run));
        // end:check
        Path folder = Files.createTempDirectory("orrery-golden-");
        try {
            // snippet:golden
            Path golden = folder.resolve("golden");
            GoldenRecording.record(DeterminismChapter::build, InputScript.NONE, 50, golden);  // once, then commit it
            GoldenRecording.assertReplays(golden, DeterminismChapter::build);                 // in a test
            // end:golden
            System.out.println("the golden recording replays");
        } finally {
            try (Stream<Path> files = Files.walk(folder)) {
                files.sorted(Comparator.reverseOrder()).forEach(f -> f.toFile().delete());
            }
        }
        System.out.println("determinism chapter: ok");
    }
}
