package dev.orrery.engine;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.orrery.ecs.Query;
import dev.orrery.ecs.World;
import dev.orrery.ecs.component.Component;
import dev.orrery.ecs.component.Field;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A query with a {@code changed} filter iterated directly in an exclusive system (where the
 * iteration guard and docs/reacting-to-change.md send a direct iteration) is the system's
 * iteration: it compares against the tick the system last ran at and stamps the system's tick,
 * as the system's jobs would. Before, it took ticks of its own, which had two effects, one
 * test each (both failed then):
 *
 * <ol>
 *   <li>The iteration advanced the world's change clock past the exclusive system's planned
 *       tick, and the phase's end set the clock back; the systems of the next run took ticks
 *       no higher than the query's remembered tick, so the query saw none of their writes.</li>
 *   <li>The query's own last-iteration tick is a field of the query, not of the world, so the
 *       snapshot left it out: restored, the query saw every chunk while the uninterrupted run
 *       saw none, and the state hash differed from that tick. The system's last run is in the
 *       snapshot (by name).</li>
 * </ol>
 */
class ExclusiveChangedQueryTest {
    /**
     * A query with a {@code changed} filter iterated directly in an exclusive system (what
     * docs/reacting-to-change.md allows: "a query compares against its own previous direct
     * iteration"), while a chunk system writes hp of one archetype every third tick.
     */
    static Simulation directChangedQuery(int workers, boolean populate, FeaturePairRuns.Log log) {
        World world = new World(1024);
        Component<FeaturePairsTest.Hp> hp = world.component(FeaturePairsTest.Hp.class);
        Component<FeaturePairsTest.Seen> seen = world.component(FeaturePairsTest.Seen.class);
        Component<FeaturePairsTest.TagA> a = world.component(FeaturePairsTest.TagA.class);
        Component<FeaturePairsTest.TagB> b = world.component(FeaturePairsTest.TagB.class);
        Component<FeaturePairsTest.TagC> c = world.component(FeaturePairsTest.TagC.class);
        if (populate) {
            FeaturePairsTest.populate(world, hp, seen, a, b, c);
        }
        Field hpv = hp.field("hp");
        Field seenv = seen.field("count");
        Query changedHp = world.query().changed(hp).with(seen).build();
        SimulationBuilder builder = Simulation.builder(world).seed(3).workers(workers).hashEvery(1);
        var res = builder.resources();
        return builder.systems(s -> s
                .system("hurt").query(world.query().with(hp, a).without(b).build()).writes(hp)
                .readsResource(Simulation.CLOCK).forEachChunk(job -> {
                    if (job.resource(Simulation.CLOCK).tick() % 3 == 0) {
                        int[] h = job.chunk().writeInts(hpv);
                        for (int i = 0; i < job.chunk().size(); i++) {
                            h[i]--;
                        }
                    }
                })
                .system("watch").after("hurt").exclusive(w -> {
                    int[] rows = {0};
                    changedHp.forEachChunk(v -> {
                        int[] n = v.writeInts(seenv);
                        for (int i = 0; i < v.size(); i++) {
                            n[i]++;
                        }
                        rows[0] += v.size();
                    });
                    log.add("tick " + res.get(Simulation.CLOCK).tick() + ": watch saw " + rows[0] + " changed rows");
                }))
                .build();
    }

    @Test
    void shouldSeeTheWritesOfTheScheduledSystemBeforeIt() {
        FeaturePairRuns.Log log = new FeaturePairRuns.Log();
        try (Simulation sim = directChangedQuery(1, true, log)) {
            sim.run(10, 0);
        }
        List<String> expected = new ArrayList<>();
        List<String> seen = new ArrayList<>();
        for (String line : log.from(0)) {
            for (String t : new String[] {"tick 3:", "tick 6:", "tick 9:"}) {
                if (line.startsWith(t)) {
                    expected.add(t + " watch saw 20 changed rows");
                    seen.add(line);
                }
            }
        }
        assertEquals(expected, seen, "the hurt system writes hp of the 20 TagA-only rows on every third tick");
    }

    @Test
    void shouldSeeTheSameChangedRowsInADirectIterationAfterARestoreAndInAReplay(@TempDir Path dir) throws Exception {
        FeaturePairRuns.check(ExclusiveChangedQueryTest::directChangedQuery, 20, dir, 0, 5, 7);
    }
}
