package dev.orrery.engine;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.orrery.ecs.World;
import dev.orrery.ecs.component.Component;
import dev.orrery.ecs.component.Field;
import dev.orrery.scheduler.BatchDecision;
import dev.orrery.scheduler.JobObserver;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import org.junit.jupiter.api.Test;

/** What a simulation shows of its executor: the batching it chose, and jobs named by their systems. */
class SimulationIntrospectionTest {
    record Pos(float x) {
    }

    static Simulation build(int workers) {
        World world = new World(1024);
        Component<Pos> pos = world.component(Pos.class);
        world.entity().with(pos, new Pos(1)).spawnMany(20_000);
        Field x = pos.field("x");
        return Simulation.builder(world).workers(workers)
                .systems(s -> s
                        .system("drift").query(world.query().with(pos).build()).writes(pos).forEachChunk(job -> {
                            float[] px = job.chunk().writeFloats(x);
                            for (int i = 0, n = job.chunk().size(); i < n; i++) {
                                px[i] = px[i] * 1.0001f + 0.5f;
                            }
                        })
                        .system("census").after("drift").forEachRange(() -> 1, (job, from, to) -> {
                        }))
                .build();
    }

    @Test
    void shouldShowTheBatchingDecisionsOfItsExecutorByName() {
        try (Simulation sim = build(2)) {
            for (int t = 0; t < 20; t++) {
                sim.tick();
            }
            List<BatchDecision> decisions = sim.batching();
            assertEquals(List.of("drift", "census"), decisions.stream().map(BatchDecision::system).toList());
            assertTrue(BatchDecision.toText(decisions).contains("drift"), BatchDecision.toText(decisions));
        }
        try (Simulation sim = build(1)) {
            sim.tick();
            assertEquals(List.of(), sim.batching(), "one worker runs every job on the calling thread");
        }
    }

    @Test
    void shouldNameTheSystemOfEveryObservedJob() {
        try (Simulation sim = build(2)) {
            List<String> names = sim.schedule().systemNames();
            assertEquals(List.of("drift", "census"), names);
            Set<String> seen = ConcurrentHashMap.newKeySet();
            sim.observeJobs((JobObserver) (worker, system, from, to, start, end) -> seen.add(names.get(system)));
            sim.tick();
            assertEquals(Set.of("drift", "census"), seen);
        }
    }
}
