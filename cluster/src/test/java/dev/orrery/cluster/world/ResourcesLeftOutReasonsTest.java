package dev.orrery.cluster.world;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.orrery.ecs.World;
import dev.orrery.engine.Simulation;
import dev.orrery.scheduler.ResourceKey;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Which resources without a codec a node names for a moved world, and why, by the rule the test
 * kit's restored run uses too: those a system declares it writes, with its writers; read-only
 * configuration only in a world with an exclusive system, which may write any resource whatever
 * it declares.
 */
class ResourcesLeftOutReasonsTest {
    record Settings(float drag) {
    }

    static final class Counter {
        long ticks;
    }

    static final ResourceKey<Settings> SETTINGS = ResourceKey.of("Settings", Settings.class);
    static final ResourceKey<Counter> COUNTER = ResourceKey.of("Counter", Counter.class);

    private static Simulation build(boolean exclusive) {
        return Simulation.builder(new World(1024)).seed(1)
                .resource(SETTINGS, new Settings(0.5f)).resource(COUNTER, new Counter())
                .systems(s -> {
                    s.system("count").readsResource(SETTINGS).writesResource(COUNTER)
                            .forEachRange(() -> 1, (job, from, to) -> job.resourceForWrite(COUNTER).ticks++);
                    if (exclusive) {
                        s.system("inputs").after("count").exclusive((w, job) -> job.resourceForWrite(SETTINGS));
                    }
                })
                .build();
    }

    @Test
    void shouldNameOnlyWrittenResourcesWithoutAnExclusiveSystem() {
        try (Simulation sim = build(false)) {
            assertEquals(List.of("Counter"), ResourcesLeftOut.of(sim));
            assertEquals(List.of("Counter (written by 'count')"), ResourcesLeftOut.described(sim));
        }
    }

    @Test
    void shouldNameConfigurationTooWhenAnExclusiveSystemMayWriteIt() {
        try (Simulation sim = build(true)) {
            sim.tick(); // the exclusive system's undeclared write is allowed
            assertEquals(List.of("Settings", "Counter"), ResourcesLeftOut.of(sim), "in the order put");
            assertEquals(List.of("Settings (exclusive system 'inputs' may write any resource)",
                    "Counter (written by 'count'; exclusive system 'inputs' may write any resource)"),
                    ResourcesLeftOut.described(sim));
        }
    }
}
