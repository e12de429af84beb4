package dev.orrery.demo.arena;

import dev.orrery.ecs.Query;
import dev.orrery.engine.InputPipeline;

/**
 * Test support shared by the arena's tests: the first entity of one of its queries, and an
 * input pipeline that takes the arena's client inputs. Called on the test's own thread,
 * between ticks.
 */
final class ArenaFixtures {
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
     * A pipeline for the arena's journaled client inputs: any payload {@link InputCodec}
     * encodes, up to 1024 inputs a tick. The caller closes it.
     */
    static InputPipeline clientInputs() {
        return InputPipeline.builder().ringSize(1024).maxPayloadBytes(InputCodec.MAX_PAYLOAD).maxInputsPerTick(1024)
                .build();
    }
}
