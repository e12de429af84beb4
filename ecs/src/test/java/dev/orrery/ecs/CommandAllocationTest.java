package dev.orrery.ecs;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.orrery.ecs.component.Component;
import dev.orrery.ecs.component.Field;
import org.junit.jupiter.api.Test;

/**
 * Once warm, a tick of "reap the dead, respawn as many with computed values" through a
 * command buffer allocates nothing: recording spawns through a shape with typed field writes,
 * recording despawns (some of entities already dead, so playback skips and describes them),
 * playing both back, and adding the report to a running total. Playing back the README's
 * spawns ({@code spawn()} then one {@code add} per column) allocates nothing either. Measured in bytes with
 * HotSpot's per-thread allocation counter, never in time.
 */
class CommandAllocationTest {
    record Position(float x, float y) {
    }

    record Velocity(float dx, float dy) {
    }

    record Life(int ticks) {
    }

    private static final int N = 5_000;

    private final World world = new World();
    private final Component<Position> pos = world.component(Position.class);
    private final Component<Velocity> vel = world.component(Velocity.class);
    private final Component<Life> life = world.component(Life.class);
    private final Shape particle = world.shape(pos, vel, life);
    private final Field px = pos.field("x");
    private final Field py = pos.field("y");
    private final Field dy = vel.field("dy");
    private final Field ticks = life.field("ticks");
    private final CommandBuffer buffer = new CommandBuffer(0);
    private final CommandPlayback playback = new CommandPlayback();
    private final PlaybackReport totals = new PlaybackReport();
    private final long[] live = new long[N];

    @Test
    void shouldAllocateNothingToRecordAndPlayBackSpawnsThroughAShapeOnceWarm() {
        ThreadAllocation meter = ThreadAllocation.ofCurrentThread();
        for (int i = 0; i < N; i++) {
            live[i] = particle.spawn();
        }
        for (int warm = 0; warm < 5; warm++) {
            tick(warm);
        }
        // The least of three ticks: a tick now and then pays for the JIT recompiling a method
        // (a kilobyte or two, seen after other tests ran in the same JVM); allocation per command
        // would show in every tick.
        long allocated = Long.MAX_VALUE;
        long spawned = 0;
        for (int t = 5; t < 8; t++) {
            long before = meter.bytes();
            spawned = tick(t);
            allocated = Math.min(allocated, meter.bytes() - before);
        }
        assertEquals(N, world.entityCount());
        assertEquals(N, spawned);
        assertEquals(8L * N, totals.count(CommandKind.SPAWN, CommandOutcome.APPLIED));
        assertEquals(8L * N, totals.count(CommandKind.DESPAWN, CommandOutcome.SKIPPED_DEAD),
                "each tick despawns every entity twice: the second is skipped");
        assertTrue(allocated < 1_024, allocated + " bytes allocated for a tick of " + (3 * N) + " commands");
    }

    /** Despawns every live entity twice and spawns as many with values; returns the spawns applied. */
    private long tick(int t) {
        for (int i = 0; i < N; i++) {
            buffer.despawn(live[i]);
            buffer.despawn(live[i]);
        }
        for (int i = 0; i < N; i++) {
            long h = buffer.spawn(particle);
            buffer.setFloat(h, px, i);
            buffer.setFloat(h, py, t);
            buffer.setFloat(h, dy, -1f);
            buffer.setInt(h, ticks, 60 + i % 7);
        }
        PlaybackReport r = playback.strict(true).apply(world, buffer);
        totals.add(r);
        for (int i = 0; i < N; i++) {
            live[i] = world.storage().entityTable().idAt(i);
        }
        return r.count(CommandKind.SPAWN, CommandOutcome.APPLIED);
    }

    @Test
    void shouldAllocateNothingToPlayBackSpawnsWithAddsOnceWarm() {
        ThreadAllocation meter = ThreadAllocation.ofCurrentThread();
        for (int i = 0; i < N; i++) {
            live[i] = particle.spawn();
        }
        long allocated = Long.MAX_VALUE;
        for (int t = 0; t < 8; t++) {
            for (int i = 0; i < N; i++) {
                buffer.despawn(live[i]);
                long h = buffer.spawn(); // the README's spawn: its records allocate, while recording only
                buffer.add(h, pos, new Position(i, t));
                buffer.add(h, vel, new Velocity(0, -1));
                buffer.add(h, life, new Life(60 + i % 7));
            }
            long before = meter.bytes();
            PlaybackReport r = playback.strict(true).apply(world, buffer);
            if (t >= 5) { // warm; the least of three ticks, as above
                allocated = Math.min(allocated, meter.bytes() - before);
            }
            assertEquals(N, r.count(CommandKind.SPAWN, CommandOutcome.APPLIED));
            for (int i = 0; i < N; i++) {
                live[i] = world.storage().entityTable().idAt(i);
            }
        }
        assertEquals(N, world.entityCount());
        assertEquals(new Life(60 + (N - 1) % 7), world.get(live[N - 1], life));
        assertTrue(allocated < 1_024, allocated + " bytes allocated to play back " + (5 * N) + " commands");
    }
}
