package dev.orrery.ecs;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.orrery.ecs.component.Component;
import dev.orrery.ecs.component.Field;
import org.junit.jupiter.api.Test;

/**
 * Once warm (storage grown, shapes, edges and prototypes known), the per-entity structural
 * calls allocate nothing: spawn through values, a shape or a shape row, add with and without
 * a value, set, remove, despawn, and command-buffer recording and playback of the same.
 * Measured in bytes with HotSpot's per-thread allocation counter, never in time. The values
 * passed in are built before the measured cycle (they are the caller's allocation); the
 * {@code Object[]} of a varargs call is too, so the measure is of the world alone.
 */
class StructuralAllocationTest {
    record Position(float x, float y, float z) {
    }

    record Velocity(float x, float y, float z) {
    }

    record Extra(int v) {
    }

    record Marked() {
    }

    private static final int N = 20_000;

    private final World world = new World();
    private final Component<Position> pos = world.component(Position.class);
    private final Component<Velocity> vel = world.component(Velocity.class);
    private final Component<Extra> extra = world.component(Extra.class);
    private final Component<Marked> marked = world.component(Marked.class);
    private final Shape shape = world.shape(pos, vel);
    private final Field px = pos.field("x");
    private final Field vz = vel.field("z");
    private final Field ev = extra.field("v");
    private final Object[] values = {new Position(1, 2, 3), new Velocity(4, 5, 6)};
    private final Extra extraValue = new Extra(7);
    private final Position moved = new Position(9, 9, 9);
    private final long[] ids = new long[3 * N];
    private final CommandBuffer buffer = new CommandBuffer(0);
    private final CommandPlayback playback = new CommandPlayback();

    @Test
    void shouldAllocateNothingPerEntityOnceWarm() {
        ThreadAllocation meter = ThreadAllocation.ofCurrentThread();
        for (int warm = 0; warm < 5; warm++) {
            cycle();
        }
        long before = meter.bytes();
        long checksum = cycle();
        long allocated = meter.bytes() - before;
        assertEquals(0, world.entityCount(), "the cycle leaves the world empty (checksum " + checksum + ")");
        // A few hundred bytes of slack for the counter's own bookkeeping; one byte per
        // operation would already be 1.4 MB.
        assertTrue(allocated < 1_024, allocated + " bytes allocated for " + (14 * N) + " structural operations");
    }

    /** Spawns 3N entities three ways, changes, moves and despawns them all; returns a checksum. */
    private long cycle() {
        for (int i = 0; i < N; i++) {
            ids[i] = i % 2 == 0 ? world.spawn(values) : world.spawn(values[0], values[1]);
            ids[N + i] = i % 2 == 0 ? shape.spawn(values) : shape.spawn(values[0], values[1]);
            ids[2 * N + i] = shape.spawnRow().setFloat(px, i).setFloat(vz, -i).id();
        }
        long sum = 0;
        for (int i = 0; i < 3 * N; i += 3) {
            world.add(ids[i], extra, extraValue);
            world.add(ids[i + 1], marked);
            world.set(ids[i + 2], pos, moved);
            world.setFloat(ids[i + 2], px, 1f);
            sum += world.getInt(ids[i], ev);
        }
        for (int i = 0; i < 3 * N; i += 3) {
            world.remove(ids[i], extra);
            buffer.remove(ids[i + 1], marked);
            buffer.add(ids[i + 2], extra, extraValue);
            buffer.add(ids[i + 2], marked);
        }
        playback.apply(world, buffer);
        for (int i = 0; i < 3 * N; i++) {
            if (i % 2 == 0) {
                world.despawn(ids[i]);
            } else {
                buffer.despawn(ids[i]);
            }
        }
        playback.apply(world, buffer);
        return sum;
    }
}
