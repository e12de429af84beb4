package dev.orrery.ecs;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.orrery.ecs.component.Component;
import dev.orrery.ecs.component.EntityRef;
import dev.orrery.ecs.component.Storage;
import org.junit.jupiter.api.Test;

/**
 * Playback makes a {@code spawn()} whose adds all carry plain values at once, straight in
 * the archetype the adds lead to, and writes the adds' values afterwards with the other
 * waiting spawns (side by side once enough wait). The world must be bit for bit the one
 * the direct calls make, on lent threads as on one, with spawns that cannot wait (a
 * reference, a sparse column, an entity reference, a set after the add, an add without a
 * value) mixed in, and more kinds of spawn than playback remembers.
 */
class AddedSpawnValuesTest {
    record Pos(float x, float y) {
    }

    record Vel(double dx, long tick) {
    }

    record Tagged() {
    }

    record Slow(float factor) {
    }

    record Link(@EntityRef long to, int strength) {
    }

    /** One world with its handles, built the same way for the command side and the direct side. */
    static final class Fixture {
        final World w = new World(256);
        final Component<Pos> pos = w.component(Pos.class);
        final Component<Vel> vel = w.component(Vel.class);
        final Component<Tagged> tagged = w.component(Tagged.class);
        final Component<Slow> slow = w.component(Slow.class, Storage.SPARSE);
        final Component<Link> link = w.component(Link.class);
        final Component<String> note = w.referenceComponent(String.class);
        final long[] old = new long[120];

        Fixture() {
            // Rows holding values, then vacated: the spawns below reuse them, so a field left
            // unwritten would show an old value instead of zero.
            for (int i = 0; i < old.length; i++) {
                old[i] = w.spawn(new Pos(-i, -i), new Vel(-i, -i), new Tagged());
            }
            for (int i = 0; i < 60; i++) {
                w.despawn(old[i]);
            }
        }

        Pos p(int i) {
            return new Pos(i, i * 0.5f);
        }

        Vel v(int i) {
            return new Vel(-i, 1L << 33 | i);
        }
    }

    private static final int RUN = CommandPlayback.DEFAULT_PARALLEL_SPAWNS + 40;

    /** The README's spawn: {@code spawn()}, then one add per column. */
    private static long spawn(Fixture f, CommandBuffer buf, int i) {
        long h = buf.spawn();
        buf.add(h, f.pos, f.p(i));
        buf.add(h, f.vel, f.v(i));
        buf.add(h, f.tagged, new Tagged());
        return h;
    }

    /** Records the mixed batch into {@code buf}; the direct calls in {@link #direct} make the same world. */
    private static void record(Fixture f, CommandBuffer buf) {
        long written = 0;
        for (int i = 0; i < RUN; i++) { // one kind, long enough to be written side by side
            long h = spawn(f, buf, i);
            written = i == 5 ? h : written;
        }
        buf.despawn(f.old[70]); // moves a row of that archetype: the waiting values land first
        for (int i = 0; i < RUN; i++) {
            long h;
            switch (i % 9) {
                case 0: // another kind: the same columns, added in another order
                    h = buf.spawn();
                    buf.add(h, f.vel, f.v(i));
                    buf.add(h, f.pos, f.p(i));
                    buf.add(h, f.tagged, new Tagged());
                    break;
                case 1: // a reference: written at once
                    h = buf.spawn();
                    buf.add(h, f.pos, f.p(i));
                    buf.add(h, f.note, "n" + i);
                    break;
                case 2: // a sparse column: written at once
                    h = buf.spawn();
                    buf.add(h, f.pos, f.p(i));
                    buf.add(h, f.slow, new Slow(i));
                    break;
                case 3: // an entity reference to the spawn before: written at once, resolved
                    h = buf.spawn();
                    buf.add(h, f.link, new Link(written, i));
                    break;
                case 4: // a set after the add: written at once, the set wins
                    h = buf.spawn();
                    buf.add(h, f.pos, f.p(i));
                    buf.add(h, f.vel, f.v(i));
                    buf.set(h, f.pos, new Pos(7, 7));
                    break;
                case 5: // an add with no value: waits, in a zeroed row
                    h = buf.spawn();
                    buf.add(h, f.pos, f.p(i));
                    buf.add(h, f.vel);
                    break;
                case 6: // spawned and despawned in one batch: never waits
                    h = spawn(f, buf, i);
                    buf.despawn(h);
                    break;
                default:
                    spawn(f, buf, i);
            }
        }
        buf.set(written, f.pos, new Pos(1000, 1000)); // a later write on an early spawn wins
    }

    /**
     * The same changes through the world's direct calls, column by column as recorded (so the
     * archetypes are made in the same order as playback's).
     */
    private static void direct(Fixture f) {
        World w = f.w;
        long written = 0;
        for (int i = 0; i < RUN; i++) {
            long e = directSpawn(f, i);
            written = i == 5 ? e : written;
        }
        w.despawn(f.old[70]);
        for (int i = 0; i < RUN; i++) {
            long e = i % 9 == 6 || i % 9 > 6 ? directSpawn(f, i) : w.spawn();
            switch (i % 9) {
                case 0:
                    w.add(e, f.vel, f.v(i));
                    w.add(e, f.pos, f.p(i));
                    w.add(e, f.tagged, new Tagged());
                    break;
                case 1:
                    w.add(e, f.pos, f.p(i));
                    w.add(e, f.note, "n" + i);
                    break;
                case 2:
                    w.add(e, f.pos, f.p(i));
                    w.add(e, f.slow, new Slow(i));
                    break;
                case 3:
                    w.add(e, f.link, new Link(written, i));
                    break;
                case 4:
                    w.add(e, f.pos, f.p(i));
                    w.add(e, f.vel, f.v(i));
                    w.set(e, f.pos, new Pos(7, 7));
                    break;
                case 5:
                    w.add(e, f.pos, f.p(i));
                    w.add(e, f.vel);
                    break;
                case 6:
                    w.despawn(e);
                    break;
                default:
            }
        }
        w.set(written, f.pos, new Pos(1000, 1000));
    }

    private static long directSpawn(Fixture f, int i) {
        long e = f.w.spawn();
        f.w.add(e, f.pos, f.p(i));
        f.w.add(e, f.vel, f.v(i));
        f.w.add(e, f.tagged, new Tagged());
        return e;
    }

    @Test
    void shouldWriteTheAddsOfPlainSpawnsAfterMakingThemAndMatchTheDirectCallsOnAnyThreads() {
        Fixture lent = new Fixture();
        CommandBuffer a = new CommandBuffer(0);
        record(lent, a);
        BackwardsFor threads = new BackwardsFor(3);
        PlaybackReport r = new CommandPlayback().parallel(threads).apply(lent.w, a);
        assertTrue(r.isClean(), r.toString());

        Fixture serial = new Fixture();
        CommandBuffer b = new CommandBuffer(0);
        record(serial, b);
        PlaybackReport s = new CommandPlayback().apply(serial.w, b);

        Fixture calls = new Fixture();
        direct(calls);

        assertEquals(calls.w.stateHash(), serial.w.stateHash(), "serial playback against the direct calls");
        assertEquals(calls.w.stateHash(), lent.w.stateHash(), "lent threads against the direct calls");
        assertEquals(calls.w.storage().entityTable().nextId(), lent.w.storage().entityTable().nextId());
        assertEquals(calls.w.get(lent.w.storage().entityTable().idAt(90), calls.pos),
                lent.w.get(lent.w.storage().entityTable().idAt(90), lent.pos));
        assertTrue(threads.calls >= 1, "the first run, README spawns only, waits and is written side by side");
        int despawnedAtOnce = 0;
        for (int i = 0; i < RUN; i++) {
            despawnedAtOnce += i % 9 == 6 ? 1 : 0;
        }
        assertEquals(2 * RUN - despawnedAtOnce, s.moves(), "every spawn with adds that lives counts its move out "
                + "of the empty archetype, as when its values were written at once");
        assertEquals(s.moves(), r.moves());
    }

    @Test
    void shouldZeroAReusedRowOnlyWhenTheAddsLeaveAFieldUnwritten() {
        Fixture f = new Fixture();
        CommandBuffer buf = new CommandBuffer(0);
        long[] full = new long[30];
        long[] part = new long[30];
        for (int i = 0; i < 30; i++) {
            full[i] = spawn(f, buf, i);
            part[i] = buf.spawn();
            buf.add(part[i], f.tagged, new Tagged());
            buf.add(part[i], f.vel);
            buf.add(part[i], f.pos, f.p(i)); // Vel stays unwritten: its reused row must read zero
        }
        PlaybackReport r = new CommandPlayback().apply(f.w, buf);
        assertTrue(r.isClean(), r.toString());
        int[] seen = {0, 0};
        f.w.query().with(f.pos, f.vel, f.tagged).build().forEach((chunk, row) -> {
            long e = chunk.entity(row);
            Pos p = f.w.get(e, f.pos);
            Vel v = f.w.get(e, f.vel);
            int i = (int) p.x();
            if (p.x() < 0) {
                return; // one of the fixture's own entities
            }
            assertEquals(f.p(i), p);
            assertTrue(v.equals(f.v(i)) || v.equals(new Vel(0, 0)), "entity " + e + " holds " + v);
            seen[v.tick() == 0 ? 0 : 1]++;
        });
        assertEquals(30, seen[0], "spawns whose Vel had no value, in zeroed rows");
        assertEquals(30, seen[1], "spawns with every value");
    }

    @Test
    void shouldKeepEveryKindRightWhenMoreKindsComeThanPlaybackRemembers() {
        // Twelve kinds in turn, each a column subset and order (P position, V velocity, T tag; the
        // tag's place moves the later adds' words): more kinds than playback remembers, so each
        // comes back after it was forgotten.
        String[] kinds = {"PVT", "PTV", "VPT", "VTP", "TPV", "TVP", "PT", "TP", "P", "PV", "VP", "VT"};
        Fixture c = new Fixture();
        Fixture d = new Fixture();
        CommandBuffer buf = new CommandBuffer(0);
        for (int i = 0; i < 240; i++) {
            String kind = kinds[i % kinds.length];
            long h = buf.spawn();
            long e = d.w.spawn();
            for (int k = 0; k < kind.length(); k++) {
                switch (kind.charAt(k)) {
                    case 'P':
                        buf.add(h, c.pos, c.p(i));
                        d.w.add(e, d.pos, d.p(i));
                        break;
                    case 'V':
                        buf.add(h, c.vel, c.v(i));
                        d.w.add(e, d.vel, d.v(i));
                        break;
                    default:
                        buf.add(h, c.tagged, new Tagged());
                        d.w.add(e, d.tagged, new Tagged());
                }
            }
        }
        PlaybackReport r = new CommandPlayback().parallel(new BackwardsFor(3)).apply(c.w, buf);
        assertTrue(r.isClean(), r.toString());
        assertEquals(d.w.stateHash(), c.w.stateHash());
        assertEquals(d.w.entityCount(), c.w.entityCount());
    }
}
