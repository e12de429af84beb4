package dev.orrery.ecs;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.orrery.ecs.archetype.Archetype;
import dev.orrery.ecs.component.Component;
import java.nio.ByteBuffer;
import java.util.Arrays;
import java.util.function.UnaryOperator;
import org.junit.jupiter.api.Test;

/**
 * The change section ({@code orrery.changes}) is checked in full before any row of the
 * snapshot is placed: a section that does not fit the snapshot's rows, that is cut short or
 * that carries more than it should, or one that keeps per-row versions the target does not
 * track, is refused with a message naming the fix, and the target world is left as new. The
 * proof is that the same target then takes the good snapshot and hashes like the original.
 */
class ChangeSectionTest {
    record Pos(float x, float y) {
    }

    record Tag() {
    }

    static final String SECTION = "orrery.changes";

    /** A world of 700 entities over several small chunks: Pos tracked per row, Tag removals logged. */
    private static World original() {
        World w = new World(1024);
        Component<Pos> pos = w.component(Pos.class);
        Component<Tag> tag = w.component(Tag.class);
        w.trackRowChanges(pos);
        w.changes().trackRemoved(tag);
        for (int i = 0; i < 700; i++) {
            w.spawn(new Pos(i, -i));
        }
        w.despawn(w.spawn(new Pos(1, 1), new Tag()));
        w.changes().clock().advance();
        Archetype a = w.query().with(pos).build().archetypes().get(0);
        w.setFloat(a.chunk(2).entity(5), pos.field("x"), 42);
        w.changes().lastRun(w.changes().systemSlot("mover"), 3);
        return w;
    }

    /** A new world registered like {@link #original()}; {@code tracking} decides whether Pos keeps row versions. */
    private static World target(boolean tracking) {
        World w = new World(1024);
        Component<Pos> pos = w.component(Pos.class);
        w.component(Tag.class);
        if (tracking) {
            w.trackRowChanges(pos);
        }
        return w;
    }

    @Test
    void theSectionUntouchedRestoresTheWorldAndItsChangeState() {
        World w = original();
        byte[] good = SnapshotFrames.reframe(new WorldSnapshot().write(w), SECTION, UnaryOperator.identity());
        World r = target(true);
        new WorldSnapshot().read(good, r);
        assertEquals(w.stateHash(), r.stateHash());
        assertEquals(w.changes().clock().now(), r.changes().clock().now());
        assertEquals(3, r.changes().lastRun(r.changes().systemSlot("mover")));
        assertEquals(1, r.changes().removed(r.component(Tag.class)).since(0).count());
    }

    @Test
    void aChunkCountThatDoesNotFitTheRowsIsRefusedBeforeAnyRowIsPlaced() {
        // The section opens with the clock (8 bytes) and the archetype count (4), then archetype
        // 0's chunk count. Archetype 0 (no components) holds no rows, so no chunks; claim one.
        assertRefused(s -> patchInt(s, 12, 1), true, "gives 1 chunks to snapshot archetype 0");
    }

    @Test
    void aCutShortSectionIsRefused() {
        // The section ends with the newest retired tick of its one removal log (a long): half of it is left.
        assertRefused(s -> Arrays.copyOf(s, s.length - 4), true, "a long needed but 4 bytes remain of retired ticks");
    }

    @Test
    void aSectionWrittenBeforeRetiredTicksStillRestores() {
        // The trailer of retired ticks (tag, then one long per removal log) came last; a section without it
        // (written before RemovedEntities.missed) restores, with no log having retired anything.
        World w = original();
        byte[] old = SnapshotFrames.reframe(new WorldSnapshot().write(w), SECTION, s -> Arrays.copyOf(s, s.length - 12));
        World r = target(true);
        new WorldSnapshot().read(old, r);
        assertEquals(w.stateHash(), r.stateHash());
        assertEquals(1, r.changes().removed(r.component(Tag.class)).since(0).count());
        assertEquals(0, r.changes().retiredThrough(r.component(Tag.class).id()));
    }

    @Test
    void bytesAfterTheLastVersionAreRefused() {
        assertRefused(s -> Arrays.copyOf(s, s.length + 3), true, "3 bytes follow the end");
    }

    @Test
    void rowVersionsOfAColumnTheTargetDoesNotTrackAreRefusedAndTheTargetStaysNew() {
        // The snapshot is intact: the target only lacks world.trackRowChanges(Pos). Before the
        // section was checked up front, this restore placed every row and then threw.
        assertRefused(UnaryOperator.identity(), false, "trackRowChanges");
    }

    private static void assertRefused(UnaryOperator<byte[]> edit, boolean tracking, String expected) {
        World w = original();
        byte[] snapshot = new WorldSnapshot().write(w);
        byte[] bad = SnapshotFrames.reframe(snapshot, SECTION, edit);
        World target = target(tracking);
        long clock = target.changes().clock().now();
        SnapshotException e = assertThrows(SnapshotException.class, () -> new WorldSnapshot().read(bad, target));
        assertTrue(e.getMessage().contains(expected), e.getMessage());
        assertUntouched(target, clock);
        if (!tracking) {
            target.trackRowChanges(target.component(Pos.class)); // the fix the message names
        }
        new WorldSnapshot().read(snapshot, target);
        assertEquals(w.stateHash(), target.stateHash(), "the refused target still takes the good snapshot");
        assertEquals(w.changes().clock().now(), target.changes().clock().now());
    }

    private static void assertUntouched(World target, long clock) {
        assertEquals(0, target.entityCount(), "a refused snapshot places no row");
        assertEquals(1, target.storage().archetypes().count(), "a refused snapshot makes no archetype");
        assertEquals(clock, target.changes().clock().now(), "a refused snapshot leaves the clock");
        assertEquals(0, target.changes().systemNames().size(), "a refused snapshot names no system");
    }

    /** {@code s} with the big-endian int at {@code offset} set to {@code value}. */
    private static byte[] patchInt(byte[] s, int offset, int value) {
        byte[] out = s.clone();
        ByteBuffer.wrap(out).putInt(offset, value);
        return out;
    }
}
