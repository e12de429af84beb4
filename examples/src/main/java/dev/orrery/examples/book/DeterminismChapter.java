package dev.orrery.examples.book;

import dev.orrery.ecs.ChunkView;
import dev.orrery.ecs.World;
import dev.orrery.ecs.component.Component;
import dev.orrery.ecs.component.Field;
import dev.orrery.engine.CounterRandom;
import dev.orrery.engine.Simulation;
import dev.orrery.scheduler.Phase;
import dev.orrery.scheduler.ResourceKey;
import java.util.Map;
import java.util.TreeMap;

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

    static Simulation build(int workers) {
        World world = new World();
        Component<Position> pos = world.component(Position.class);
        Component<Heading> heading = world.component(Heading.class);
        Component<Team> team = world.component(Team.class);
        for (int i = 0; i < 20_000; i++) {
            world.spawn(new Position(i % 200, i / 200), new Heading(i * 0.01f), new Team(i % 3));
        }
        Field px = pos.field("x"), py = pos.field("y"), angle = heading.field("angle"), teamId = team.field("id");
        var movers = world.query().with(pos, heading).build();
        var members = world.query().with(team).build();
        return Simulation.builder(world).seed(1).workers(workers)
                .resource(STANDINGS, new Standings())
                .systems(s -> {
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
                    s.system("count teams").inPhase(Phase.POST_UPDATE).query(members).reads(team)
                            .writesResource(STANDINGS).minBatchRows(Integer.MAX_VALUE).forEachChunk(job -> {
                                int[] t = job.chunk().readInts(teamId);
                                Map<Integer, Long> byTeam = job.resourceForWrite(STANDINGS).byTeam;
                                for (int i = 0; i < job.chunk().size(); i++) byTeam.merge(t[i], 1L, Long::sum);
                            });
                })
                .build();
    }

    public static void main(String[] args) {
        // snippet:check
        try (Simulation one = build(1); Simulation four = build(4)) {
            for (int tick = 0; tick < 200; tick++) {
                one.tick();
                four.tick();
                if (one.world().stateHash() != four.world().stateHash()) {
                    long[] a = one.world().columnHashes(), b = four.world().columnHashes();
                    for (int c = 0; c < a.length; c++) {
                        if (a[c] != b[c]) System.out.println("differs: " + one.world().columns().get(c));
                    }
                    throw new AssertionError("1 and 4 workers part at tick " + tick);
                }
            }
        }
        // end:check
        System.out.println("determinism chapter: ok");
    }
}
