package dev.orrery.ecs;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.orrery.ecs.component.Component;
import org.junit.jupiter.api.Test;

/**
 * Once warm, hierarchy churn allocates nothing: spawning parents and children through a
 * command buffer with pairs to provisional parents, reparenting, removing pairs, despawning
 * parents (whose children go with them: ChildOf's cascade), a REMOVE_PAIR relation losing its
 * targets, and rebuilding the hierarchy order. Measured with HotSpot's per-thread allocation
 * counter, in bytes.
 */
class RelationAllocationTest {
    record Position(float x, float y) {
    }

    private static final int PARENTS = 500;
    private static final int KIDS = 8;

    private final World world = new World();
    private final Component<Position> pos = world.component(Position.class);
    private final Shape body = world.shape(pos);
    private final Relation childOf = world.relations().childOf();
    private final Relation watches = world.relations().register("Watches", false, false, Cleanup.REMOVE_PAIR);
    private final CommandBuffer buffer = new CommandBuffer(0);
    private final CommandPlayback playback = new CommandPlayback();
    private final long[] parents = new long[PARENTS];
    private final long[] firstChildren = new long[PARENTS];
    private final long watcher = world.spawn(new Position(0, 0));

    @Test
    void hierarchyChurnAllocatesNothingOnceWarm() {
        ThreadAllocation meter = ThreadAllocation.ofCurrentThread();
        for (int warm = 0; warm < 6; warm++) {
            tick();
        }
        // The least of three ticks, as CommandAllocationTest: a tick now and then pays for the
        // JIT recompiling a method (1 240 bytes seen in one tick on a loaded machine, before any
        // change to the code it measures); allocation per command would show in every tick.
        long allocated = Long.MAX_VALUE;
        for (int t = 0; t < 3; t++) {
            long before = meter.bytes();
            tick();
            allocated = Math.min(allocated, meter.bytes() - before);
        }
        assertEquals(1 + PARENTS * (1 + KIDS), world.entityCount());
        assertEquals(PARENTS * KIDS, world.relations().pairCount(childOf));
        assertTrue(allocated < 1_024, allocated + " bytes allocated for a tick of hierarchy churn");
    }

    private void tick() {
        // Despawn last tick's parents (their children go too), and the watcher loses its targets.
        for (long p : parents) {
            if (p != 0) {
                buffer.despawn(p);
            }
        }
        playback.apply(world, java.util.List.of(buffer));
        for (int i = 0; i < PARENTS; i++) {
            long p = buffer.spawn(body);
            for (int k = 0; k < KIDS; k++) {
                long c = buffer.spawn(body);
                buffer.addPair(c, childOf, p);
            }
        }
        playback.apply(world, java.util.List.of(buffer));
        // The parents are the roots (level 0, ascending index); each one's first child follows.
        Hierarchy order = world.relations().hierarchy(childOf);
        for (int i = 0; i < PARENTS; i++) {
            parents[i] = order.entity(i);
            firstChildren[i] = order.entity(PARENTS + i * KIDS);
            world.relations().add(watcher, watches, parents[i]);
        }
        // Reparent the first child of every other parent to the next parent, and back again.
        for (int i = 0; i + 1 < PARENTS; i += 2) {
            world.relations().add(firstChildren[i], childOf, parents[i + 1]);
            world.relations().add(firstChildren[i], childOf, parents[i]);
            world.relations().remove(watcher, watches, parents[i]);
        }
        Hierarchy h = world.relations().hierarchy(childOf);
        assertEquals(PARENTS * (1 + KIDS), h.size());
    }
}
