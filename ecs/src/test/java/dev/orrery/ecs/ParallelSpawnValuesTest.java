package dev.orrery.ecs;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.orrery.ecs.component.Component;
import dev.orrery.ecs.component.Field;
import org.junit.jupiter.api.Test;

/**
 * Playback writes the values of plain shape spawns after making them, split over the threads
 * a {@link ParallelFor} lends once enough wait: the world must be bit for bit the one that
 * serial playback and the direct calls make, whatever order the tasks run in, with despawns,
 * later writes and spawns that cannot wait mixed in.
 */
class ParallelSpawnValuesTest {
    record Pos(float x, float y) {
    }

    record Vel(double dx, long tick) {
    }

    record Tagged() {
    }

    static final class Fixture {
        final World w = new World(256);
        final Component<Pos> pos = w.component(Pos.class);
        final Component<Vel> vel = w.component(Vel.class);
        final Component<Tagged> tagged = w.component(Tagged.class);
        final Shape shape = w.shape(pos, vel, tagged);
        final Field px = pos.field("x");
        final Field py = pos.field("y");
        final Field dx = vel.field("dx");
        final Field tick = vel.field("tick");
        final long[] old = new long[100];

        Fixture() {
            for (int i = 0; i < old.length; i++) {
                old[i] = shape.spawnRow().setFloat(px, -i).id();
            }
        }
    }

    private static final int FIRST = CommandPlayback.DEFAULT_PARALLEL_SPAWNS + 100;
    private static final int SECOND = 3 * CommandPlayback.DEFAULT_PARALLEL_SPAWNS + 7;

    /** Records the mixed batch into {@code buf}; returns the handle that gets a later write. */
    private static void record(Fixture f, CommandBuffer buf) {
        long written = 0;
        for (int i = 0; i < FIRST; i++) {
            long h = spawn(f, buf, i);
            if (i == 3) {
                written = h;
            }
        }
        buf.despawn(f.old[10]); // moves a row of the shape's archetype: the waiting values land first
        for (int i = FIRST; i < FIRST + SECOND; i++) {
            spawn(f, buf, i);
        }
        buf.set(written, f.pos, new Pos(1000, 1000)); // a later write on an early spawn wins
        long gone = spawn(f, buf, -1);
        buf.despawn(gone); // spawned and despawned in one batch: never waits
        for (int i = 0; i < 50; i++) {
            buf.despawn(f.old[20 + i]);
            spawn(f, buf, 10_000 + i);
        }
    }

    private static long spawn(Fixture f, CommandBuffer buf, int i) {
        long h = buf.spawn(f.shape);
        buf.setFloat(h, f.px, i);
        buf.setFloat(h, f.py, i * 0.5f);
        buf.setDouble(h, f.dx, -i);
        buf.setLong(h, f.tick, 1L << 33 | i);
        return h;
    }

    /** The same changes through the world's direct calls. */
    private static void direct(Fixture f) {
        long written = 0;
        for (int i = 0; i < FIRST; i++) {
            long e = directSpawn(f, i);
            if (i == 3) {
                written = e;
            }
        }
        f.w.despawn(f.old[10]);
        for (int i = FIRST; i < FIRST + SECOND; i++) {
            directSpawn(f, i);
        }
        f.w.set(written, f.pos, new Pos(1000, 1000));
        f.w.despawn(directSpawn(f, -1));
        for (int i = 0; i < 50; i++) {
            f.w.despawn(f.old[20 + i]);
            directSpawn(f, 10_000 + i);
        }
    }

    private static long directSpawn(Fixture f, int i) {
        return f.shape.spawnRow().setFloat(f.px, i).setFloat(f.py, i * 0.5f).setDouble(f.dx, -i)
                .setLong(f.tick, 1L << 33 | i).id();
    }

    @Test
    void shouldWriteSpawnValuesSideBySideAndMatchSerialPlaybackAndDirectCalls() {
        Fixture lent = new Fixture();
        CommandBuffer a = new CommandBuffer(0);
        record(lent, a);
        BackwardsFor threads = new BackwardsFor(4);
        PlaybackReport r = new CommandPlayback().parallel(threads).apply(lent.w, a);
        assertTrue(r.isClean(), r.toString());

        Fixture serial = new Fixture();
        CommandBuffer b = new CommandBuffer(0);
        record(serial, b);
        new CommandPlayback().apply(serial.w, b);

        Fixture calls = new Fixture();
        direct(calls);

        assertEquals(calls.w.stateHash(), serial.w.stateHash(), "serial playback against the direct calls");
        assertEquals(calls.w.stateHash(), lent.w.stateHash(), "lent threads against the direct calls");
        assertEquals(calls.w.storage().entityTable().nextId(), lent.w.storage().entityTable().nextId());
        assertEquals(2, threads.calls, "the runs before the first despawn and before the later write are long "
                + "enough to split; the last, short one is written on the applying thread");
        assertTrue(threads.tasks >= 4, "split into " + threads.tasks + " tasks");
    }

    @Test
    void shouldWriteSpawnsOfManyKindsFromManyBuffersInterleavedLikeTheDirectCalls() {
        // The README's spawns (spawn() then add(h, column, value)), reached alternating between
        // six buffers and six kinds (more of each than the waiting spawns' tables hold at
        // first): a kind is shared by every buffer, so each spawn's values must still come from
        // its own buffer, and land by its own kind's layout.
        int spawns = 1_200;
        Fixture lent = new Fixture();
        CommandBuffer[] bufs = new CommandBuffer[6];
        for (int b = 0; b < bufs.length; b++) {
            bufs[b] = new CommandBuffer(b);
        }
        for (int k = 0; k < spawns; k++) {
            CommandBuffer buf = bufs[k % bufs.length];
            buf.beginChunk(0, k); // the key puts spawn k k-th, whichever buffer holds it
            long h = buf.spawn();
            for (Component<?> c : kind(lent, k)) {
                add(lent, buf, h, c, k);
            }
        }
        BackwardsFor threads = new BackwardsFor(4);
        PlaybackReport r = new CommandPlayback().parallel(threads).apply(lent.w, java.util.List.of(bufs));
        assertTrue(r.isClean(), r.toString());
        assertTrue(threads.tasks >= 2, "split into " + threads.tasks + " tasks");

        Fixture calls = new Fixture();
        for (int k = 0; k < spawns; k++) {
            long e = calls.w.spawn();
            for (Component<?> c : kind(calls, k)) {
                if (c == calls.pos) {
                    calls.w.add(e, calls.pos, new Pos(k, -k));
                } else if (c == calls.vel) {
                    calls.w.add(e, calls.vel, new Vel(k * 0.25, 1L << 40 | k));
                } else {
                    calls.w.add(e, calls.tagged, new Tagged());
                }
            }
        }
        assertEquals(calls.w.stateHash(), lent.w.stateHash(), "interleaved buffers and kinds against the direct calls");
        assertEquals(calls.w.entityCount(), lent.w.entityCount());
    }

    /** The columns spawn {@code k} adds, in order: six kinds, each for three spawns in a row. */
    private static Component<?>[] kind(Fixture f, int k) {
        switch ((k / 3) % 6) {
            case 0: return new Component<?>[] {f.pos};
            case 1: return new Component<?>[] {f.vel};
            case 2: return new Component<?>[] {f.pos, f.vel};
            case 3: return new Component<?>[] {f.vel, f.pos};
            case 4: return new Component<?>[] {f.pos, f.tagged};
            default: return new Component<?>[] {f.pos, f.vel, f.tagged};
        }
    }

    private static void add(Fixture f, CommandBuffer buf, long h, Component<?> c, int k) {
        if (c == f.pos) {
            buf.add(h, f.pos, new Pos(k, -k));
        } else if (c == f.vel) {
            buf.add(h, f.vel, new Vel(k * 0.25, 1L << 40 | k));
        } else {
            buf.add(h, f.tagged, new Tagged());
        }
    }

    /** A record whose accessor throws for a negative value, as a user's validating record might. */
    record Fragile(int v) {
        @Override
        public int v() {
            if (v < 0) {
                throw new IllegalStateException("fragile " + v);
            }
            return v;
        }
    }

    @Test
    void shouldGiveEverySpawnItsValuesWhenPlaybackStopsEarly() {
        Fixture f = new Fixture();
        Component<Fragile> fragileColumn = f.w.component(Fragile.class);
        Template fragile = Template.named("Fragile").with(fragileColumn, new Fragile(-1)).build();
        CommandBuffer buf = new CommandBuffer(0);
        long first = spawn(f, buf, 7);
        for (int i = 0; i < 40; i++) {
            spawn(f, buf, 8 + i);
        }
        buf.spawn(fragile); // throws when reached: what came before stays, with its values
        IllegalStateException stopped = assertThrows(IllegalStateException.class,
                () -> new CommandPlayback().parallel(new BackwardsFor(4)).apply(f.w, buf));
        assertTrue(stopped.getMessage().contains("fragile -1"), stopped.getMessage());
        long made = f.w.storage().entityTable().idAt(f.old.length);
        assertEquals(new Pos(7, 3.5f), f.w.get(made, f.pos), "the first spawn kept its recorded values");
        assertEquals(f.old.length + 41, f.w.entityCount() - f.w.query().with(fragileColumn).build().count(),
                "every spawn before the throwing one was made");
        assertTrue(CommandBuffer.isProvisional(first));
    }
}
