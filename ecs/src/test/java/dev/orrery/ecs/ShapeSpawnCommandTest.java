package dev.orrery.ecs;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.orrery.ecs.access.StructuralEffects;
import dev.orrery.ecs.component.Component;
import dev.orrery.ecs.component.Entity;
import dev.orrery.ecs.component.EntityRef;
import dev.orrery.ecs.component.Field;
import dev.orrery.ecs.component.Storage;
import org.junit.jupiter.api.Test;

/**
 * Spawning through a prepared shape from a command buffer: the typed writes that follow the
 * spawn travel inside its command, playback creates the entity straight in the shape's
 * archetype with them, and the world is bit for bit the one the direct calls make.
 */
class ShapeSpawnCommandTest {
    record Pos(float x, float y) {
    }

    record Vel(double dx, long tick) {
    }

    record Link(@EntityRef long to, int strength) {
    }

    record Slow(float factor) {
    }

    record Tagged() {
    }

    record Every(boolean b, byte by, short sh, char ch, int i, float f, long l, double d) {
    }

    /** One world with its handles, built the same way for the command side and the direct side. */
    static final class Fixture {
        final World w = new World(512);
        final Component<Pos> pos = w.component(Pos.class);
        final Component<Vel> vel = w.component(Vel.class, "Motion");
        final Component<Link> link = w.component(Link.class);
        final Component<Slow> slow = w.component(Slow.class, Storage.SPARSE);
        final Component<Tagged> tagged = w.component(Tagged.class);
        final Shape shape = w.shape(pos, vel, tagged, slow);
        final Field px = pos.field("x");
        final Field py = pos.field("y");
        final Field dx = vel.field("dx");
        final Field tick = vel.field("tick");
        final Field factor = slow.field("factor");

        Fixture() {
            for (int i = 0; i < 30; i++) {
                w.spawn(new Pos(i, i));
            }
        }
    }

    private final CommandPlayback playback = new CommandPlayback();

    @Test
    void shouldSpawnStraightIntoTheShapeWithTheWrittenValuesAsOneCommand() {
        Fixture c = new Fixture();
        Fixture d = new Fixture();
        CommandBuffer buf = new CommandBuffer(0);
        for (int i = 0; i < 50; i++) {
            long h = buf.spawn(c.shape);
            buf.setFloat(h, c.px, i);
            buf.setFloat(h, c.py, -i);
            buf.setDouble(h, c.dx, i * 0.5);
            buf.setLong(h, c.tick, 1L << 40 | i);
            buf.setFloat(h, c.factor, 0.25f * i);
            d.shape.spawnRow().setFloat(d.px, i).setFloat(d.py, -i).setDouble(d.dx, i * 0.5)
                    .setLong(d.tick, 1L << 40 | i).setFloat(d.factor, 0.25f * i);
        }
        assertEquals(50, buf.commandCount(), "the writes travel inside their spawn's command");
        PlaybackReport r = playback.apply(c.w, buf);
        assertTrue(r.isClean(), r.toString());
        assertEquals(50, r.count(CommandKind.SPAWN, CommandOutcome.APPLIED));
        assertEquals(0, r.moves(), "spawned straight into the shape's archetype");
        assertEquals(d.w.stateHash(), c.w.stateHash());
        long last = c.w.storage().entityTable().idAt(c.w.entityCount() - 1);
        assertSame(c.shape.archetype(), c.w.archetypeOf(last));
        assertEquals(new Pos(49, -49), c.w.get(last, c.pos));
        assertEquals(new Slow(0.25f * 49), c.w.get(last, c.slow));
        assertEquals(d.w.storage().namedInstances().namesOf(Entity.index(last)),
                c.w.storage().namedInstances().namesOf(Entity.index(last)), "instance names as the shape's own spawn");
    }

    @Test
    void shouldApplyLaterCommandsOnASpawnThroughAShapeInKeyOrder() {
        Fixture c = new Fixture();
        Fixture d = new Fixture();
        CommandBuffer buf = new CommandBuffer(0);
        long a = buf.spawn(c.shape);
        long b = buf.spawn(c.shape); // a is no longer the last command: its write is a command of its own
        buf.setFloat(a, c.px, 5);
        buf.setFloat(b, c.px, 6);
        buf.add(b, c.link, new Link(a, 3)); // a provisional handle inside a field
        buf.remove(a, c.tagged);
        buf.set(b, c.pos, new Pos(7, 8)); // replaces the value written inside the spawn
        long gone = buf.spawn(c.shape);
        buf.setFloat(gone, c.py, 1);
        buf.despawn(gone);
        PlaybackReport r = playback.apply(c.w, buf);
        assertTrue(r.isClean(), r.toString());

        long da = d.shape.spawnRow().id();
        long db = d.shape.spawnRow().id();
        d.w.setFloat(da, d.px, 5);
        d.w.add(db, d.link, new Link(da, 3));
        d.w.remove(da, d.tagged);
        d.w.set(db, d.pos, new Pos(7, 8));
        d.w.despawn(d.shape.spawnRow().setFloat(d.py, 1).id());
        assertEquals(d.w.stateHash(), c.w.stateHash());
        assertEquals(d.w.storage().entityTable().nextId(), c.w.storage().entityTable().nextId());
        assertEquals(new Link(da, 3), c.w.get(db, c.link), "the handle in the field resolved to a's id");
        assertEquals(2, r.moves(), "b gains a link, a loses its tag; nothing else moves");
    }

    @Test
    void shouldWriteAProvisionalHandleInAShapeFieldAsTheRealId() {
        Fixture c = new Fixture();
        Shape linked = c.w.shape(c.link);
        CommandBuffer buf = new CommandBuffer(0);
        long first = buf.spawn(c.shape);
        long second = buf.spawn(linked);
        buf.setLong(second, c.link.field("to"), first);
        buf.setInt(second, c.link.field("strength"), 9);
        playback.apply(c.w, buf);
        long real = c.w.storage().entityTable().idAt(c.w.entityCount() - 1);
        Link l = c.w.get(real, c.link);
        assertEquals(9, l.strength());
        assertTrue(c.w.isAlive(l.to()));
        assertSame(c.shape.archetype(), c.w.archetypeOf(l.to()));
    }

    @Test
    void shouldRefuseAShapeOfAnotherWorldBeforeApplyingAnything() {
        Fixture c = new Fixture();
        Fixture other = new Fixture(); // the same registrations: its columns have this world's ids
        CommandBuffer buf = new CommandBuffer(0);
        long kept = buf.spawn(c.shape);
        buf.setFloat(kept, c.px, 4);
        IllegalArgumentException mixed = assertThrows(IllegalArgumentException.class, () -> buf.spawn(other.shape));
        assertTrue(mixed.getMessage().contains("same column id in another world"), mixed.getMessage());
        int before = c.w.entityCount();
        playback.apply(c.w, buf); // the refused recording left the buffer as it was
        assertEquals(before + 1, c.w.entityCount());
        long e = c.w.storage().entityTable().idAt(c.w.entityCount() - 1);
        assertEquals(4f, c.w.getFloat(e, c.px));
        CommandBuffer foreign = new CommandBuffer(0);
        foreign.spawn(other.shape);
        long hash = c.w.stateHash();
        IllegalArgumentException ex = assertThrows(IllegalArgumentException.class, () -> playback.apply(c.w, foreign));
        assertTrue(ex.getMessage().contains("another world") && ex.getMessage().contains("nothing was applied"),
                ex.getMessage());
        assertEquals(hash, c.w.stateHash(), "nothing applied");
    }

    @Test
    void shouldCheckASpawnThroughAShapeAgainstTheDeclaredEffects() {
        Fixture c = new Fixture();
        CommandBuffer buf = new CommandBuffer(0);
        buf.declareEffects(StructuralEffects.builder("emitter").spawns(c.pos, c.vel, c.tagged).build());
        UndeclaredCommandException ex = assertThrows(UndeclaredCommandException.class, () -> buf.spawn(c.shape));
        assertTrue(ex.getMessage().contains("emitter") && ex.getMessage().contains("Slow"), ex.getMessage());
        assertTrue(buf.isEmpty(), "a refused recording records nothing");
        buf.declareEffects(StructuralEffects.builder("emitter").spawns(c.pos, c.vel, c.tagged, c.slow).build());
        long h = buf.spawn(c.shape);
        buf.setFloat(h, c.px, 1);
        buf.declareEffects(StructuralEffects.builder("mover").adds(c.pos).build());
        assertThrows(UndeclaredCommandException.class, () -> buf.spawn(c.shape), "no spawn declared");
        assertEquals(1, buf.commandCount());
        playback.apply(c.w, buf);
        assertEquals(31, c.w.entityCount());
    }

    @Test
    void shouldPutAWriteAfterARefusedSpawnThroughAnotherShapeIntoTheOpenSpawn() {
        Fixture c = new Fixture();
        Shape linked = c.w.shape(c.vel, c.pos, c.link); // its payload holds pos at another offset
        CommandBuffer buf = new CommandBuffer(0);
        buf.declareEffects(StructuralEffects.builder("emitter").spawns(c.pos, c.vel, c.tagged, c.slow).build());
        long h = buf.spawn(c.shape);
        buf.setFloat(h, c.px, 2);
        // the refused spawn looks up its own layout before its check: the writes that follow
        // are still the open spawn's, laid out by its shape, not by the refused one's
        assertThrows(UndeclaredCommandException.class, () -> buf.spawn(linked));
        buf.setFloat(h, c.py, 5);
        buf.setDouble(h, c.dx, 0.25);
        playback.apply(c.w, buf);
        long e = buf.resolved[0];
        assertEquals(new Pos(2, 5), c.w.get(e, c.pos));
        assertEquals(0.25, c.w.get(e, c.vel).dx());
        assertFalse(c.w.has(e, c.link));
    }

    @Test
    void shouldStartEachTickWithZeroedValuesInAReusedBuffer() {
        Fixture c = new Fixture();
        CommandBuffer buf = new CommandBuffer(0);
        long h = buf.spawn(c.shape);
        buf.setFloat(h, c.py, 3);
        playback.apply(c.w, buf);
        buf.spawn(c.shape); // same words of the buffer, no writes this time
        playback.apply(c.w, buf);
        long e = c.w.storage().entityTable().idAt(c.w.entityCount() - 1);
        assertEquals(new Pos(0, 0), c.w.get(e, c.pos), "last tick's values must not leak into a new spawn");
        assertFalse(c.w.has(e, c.link));
    }

    @Test
    void shouldLeaveNoOldValueInARowASpawnReuses() {
        World w = new World(512);
        Component<Pos> pos = w.component(Pos.class);
        Component<Vel> vel = w.component(Vel.class);
        Component<StringBuilder> note = w.referenceComponent(StringBuilder.class);
        Shape plain = w.shape(pos, vel); // its spawn command holds every field: playback skips zeroing the row
        Shape withNote = w.shape(pos, note); // a reference column is not in the payload: the row is zeroed
        long[] old = new long[40];
        for (int i = 0; i < old.length; i++) {
            old[i] = i % 2 == 0 ? w.spawn(new Pos(i, -i), new Vel(i * 0.5, i)) : withNote.spawn(new Pos(i, i), new StringBuilder("x"));
        }
        for (long e : old) {
            w.despawn(e); // every row is vacated, not fresh: the next spawns reuse them
        }
        CommandBuffer buf = new CommandBuffer(0);
        long[] h = new long[40];
        for (int i = 0; i < h.length; i++) {
            h[i] = buf.spawn(i % 2 == 0 ? plain : withNote);
            if (i % 4 == 0) {
                buf.setFloat(h[i], pos.field("y"), 7);
            }
        }
        playback.apply(w, buf);
        assertEquals(40, w.entityCount());
        int[] seen = {0};
        w.query().with(pos, vel).build().forEach((chunk, row) -> {
            long e = chunk.entity(row);
            assertEquals(0f, w.get(e, pos).x(), "an unwritten field of a reused row must be zero");
            assertEquals(new Vel(0, 0), w.get(e, vel));
            seen[0]++;
        });
        w.query().with(pos, note).build().forEach((chunk, row) -> {
            long e = chunk.entity(row);
            assertEquals(null, w.get(e, note), "a reused row's reference must be null");
            assertEquals(new Pos(0, 0), w.get(e, pos));
            seen[0]++;
        });
        assertEquals(40, seen[0]);
    }

    @Test
    void shouldPutEachWriteInItsFieldWhateverOrderTheSpawnsWriteIn() {
        Fixture c = new Fixture();
        Shape small = c.w.shape(c.pos);
        CommandBuffer buf = new CommandBuffer(0);
        Field[][] orders = {{c.px, c.py, c.dx}, {c.py, c.px, c.dx}, {c.dx, c.py}, {c.px, c.px, c.py}};
        long[] h = new long[16];
        for (int i = 0; i < h.length; i++) {
            boolean viaSmall = i % 5 == 4; // another shape's layout in between
            h[i] = buf.spawn(viaSmall ? small : c.shape);
            for (Field f : orders[i % orders.length]) {
                if (viaSmall && f == c.dx) {
                    continue;
                }
                if (f == c.dx) {
                    buf.setDouble(h[i], f, i * 10 + 0.5);
                } else {
                    buf.setFloat(h[i], f, i * 10 + (f == c.px ? 1 : 2));
                }
            }
        }
        playback.apply(c.w, buf);
        for (int i = 0; i < h.length; i++) {
            long e = buf.resolved[i];
            boolean viaSmall = i % 5 == 4;
            java.util.List<Field> written = java.util.Arrays.asList(orders[i % orders.length]);
            assertEquals(written.contains(c.px) ? i * 10 + 1 : 0, c.w.getFloat(e, c.px), "spawn " + i + " x");
            assertEquals(written.contains(c.py) ? i * 10 + 2 : 0, c.w.getFloat(e, c.py), "spawn " + i + " y");
            if (!viaSmall) {
                assertEquals(written.contains(c.dx) ? i * 10 + 0.5 : 0, c.w.get(e, c.vel).dx(), "spawn " + i + " dx");
            }
        }
    }

    @Test
    void shouldWriteEveryPrimitiveTypeOfManySpawnsAcrossChunks() {
        World w = new World(512); // small chunks: the spawns span several, so each is one group of writes
        Component<Every> every = w.component(Every.class);
        Component<Pos> pos = w.component(Pos.class);
        Shape shape = w.shape(every, pos);
        CommandBuffer buf = new CommandBuffer(0);
        long[] h = new long[300];
        for (int k = 0; k < h.length; k++) {
            h[k] = buf.spawn(shape);
            buf.setBits(h[k], every.field("b"), k % 3 == 0 ? 1 : 0); // the types without a typed setter: raw bits
            buf.setBits(h[k], every.field("by"), (byte) -k);
            buf.setBits(h[k], every.field("sh"), (short) (k * 100));
            buf.setBits(h[k], every.field("ch"), (char) ('a' + k % 26));
            buf.setInt(h[k], every.field("i"), -k * 7);
            buf.setFloat(h[k], every.field("f"), k + 0.25f);
            buf.setLong(h[k], every.field("l"), (long) k << 40);
            buf.setDouble(h[k], every.field("d"), -k / 8.0);
            buf.setFloat(h[k], pos.field("y"), k);
        }
        playback.apply(w, buf);
        for (int k = 0; k < h.length; k++) {
            long e = buf.resolved[k];
            assertEquals(new Every(k % 3 == 0, (byte) -k, (short) (k * 100), (char) ('a' + k % 26), -k * 7, k + 0.25f,
                    (long) k << 40, -k / 8.0), w.get(e, every), "spawn " + k);
            assertEquals(new Pos(0, k), w.get(e, pos), "spawn " + k);
        }
    }
}
