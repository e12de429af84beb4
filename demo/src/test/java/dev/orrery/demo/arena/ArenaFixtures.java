package dev.orrery.demo.arena;

import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.orrery.ecs.Query;
import dev.orrery.engine.InputPipeline;

/**
 * Test support shared by the arena's tests: the first entity of one of its queries (and, for
 * the tests of other packages, its first agent), and an input pipeline that takes the arena's
 * client inputs. Called on the test's own thread, between ticks.
 */
public final class ArenaFixtures {
    private ArenaFixtures() {
    }

    /**
     * The first entity {@code query} matches, in chunk order ({@code arena.agents} or
     * {@code arena.projectiles}); 0 when it matches none.
     */
    static long firstEntity(Query query) {
        long[] found = {0};
        query.forEachChunk(c -> {
            if (found[0] == 0 && c.size() > 0) {
                found[0] = c.entity(0);
            }
        });
        return found[0];
    }

    /**
     * The first agent of {@code arena} ({@link #firstEntity} of its agents), for a test that
     * needs a live entity with the agent's components (Health, Agent, ...) to GET or SET.
     *
     * @throws org.opentest4j.AssertionFailedError when the arena has no agent (not populated)
     */
    public static long firstAgent(Arena arena) {
        long agent = firstEntity(arena.agents);
        assertTrue(agent != 0 && arena.world().isAlive(agent), "no agent: populate the arena first");
        return agent;
    }

    /**
     * A pipeline for the arena's journaled client inputs: any payload {@link InputCodec}
     * encodes, up to 1024 inputs a tick. The caller closes it.
     */
    static InputPipeline clientInputs() {
        return InputPipeline.builder().ringSize(1024).maxPayloadBytes(InputCodec.MAX_PAYLOAD).maxInputsPerTick(1024)
                .build();
    }
}
