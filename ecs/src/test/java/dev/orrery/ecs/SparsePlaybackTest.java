package dev.orrery.ecs;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.orrery.ecs.archetype.Archetype;
import dev.orrery.ecs.component.Component;
import dev.orrery.ecs.component.Entity;
import dev.orrery.ecs.component.EntityRef;
import dev.orrery.ecs.component.Storage;
import org.junit.jupiter.api.Test;

/** Command playback of sparse columns: applied in order, never part of a row move, mixed freely with table changes. */
class SparsePlaybackTest {
    record Pos(float x) {
    }

    record Vel(float x) {
    }

    record Slowed(float factor) {
    }

    record Target(@EntityRef long entity) {
    }

    final World w = new World();
    final Component<Pos> pos = w.component(Pos.class);
    final Component<Vel> vel = w.component(Vel.class);
    final Component<Slowed> slowed = w.component(Slowed.class, Storage.SPARSE);
    final Component<Target> target = w.component(Target.class, Storage.SPARSE);
    final CommandPlayback playback = new CommandPlayback();
    final CommandBuffer buf = new CommandBuffer(0);

    @Test
    void sparseAddsAndRemovesApplyWithoutMovingTheRow() {
        long e = w.spawn(new Pos(1));
        Archetype a = w.archetypeOf(e);
        int row = w.storage().entityTable().row(Entity.index(e));
        buf.add(e, slowed, new Slowed(0.5f));
        buf.set(e, slowed, new Slowed(0.25f));
        buf.setFloat(e, slowed.field("factor"), 0.75f);
        PlaybackReport r = playback.apply(w, buf);
        assertTrue(r.isClean(), r.toString());
        assertEquals(3, r.applied());
        assertEquals(0, r.moves(), "no archetype move for a sparse column");
        assertSame(a, w.archetypeOf(e));
        assertEquals(row, w.storage().entityTable().row(Entity.index(e)));
        assertEquals(new Slowed(0.75f), w.get(e, slowed));
        buf.remove(e, slowed);
        buf.remove(e, slowed);
        buf.set(e, slowed, new Slowed(2));
        r = playback.strict(false).apply(w, buf); // lenient: the refused set is counted, not thrown
        assertFalse(w.has(e, slowed));
        assertEquals(1, r.applied());
        assertEquals(1, r.removedMissing(), "removing what is not there is counted, as for table columns");
        assertEquals(1, r.rejected(), "setting what is not there is refused, as for table columns");
        buf.add(e, slowed, new Slowed(3));
        buf.add(e, slowed);
        buf.add(e, slowed, new Slowed(4));
        playback.apply(w, buf);
        assertEquals(new Slowed(4), w.get(e, slowed), "add twice keeps the last value; a value-less add keeps it");
    }

    @Test
    void oneBufferMixesTableAndSparseChangesOfOneEntity() {
        long e = w.spawn(new Pos(1));
        buf.add(e, slowed, new Slowed(0.5f));
        buf.add(e, vel, new Vel(2));
        buf.remove(e, slowed);
        buf.add(e, slowed, new Slowed(0.9f));
        buf.set(e, pos, new Pos(7));
        PlaybackReport r = playback.apply(w, buf);
        assertTrue(r.isClean(), r.toString());
        assertEquals(1, r.moves(), "the table changes still make one move");
        assertEquals(new Vel(2), w.get(e, vel));
        assertEquals(new Pos(7), w.get(e, pos));
        assertEquals(new Slowed(0.9f), w.get(e, slowed));
        assertEquals(w.archetypeOf(w.spawn(new Pos(0), new Vel(0))), w.archetypeOf(e));
    }

    @Test
    void aSpawnInTheBufferGetsItsSparseColumnsAfterItIsMade() {
        long other = w.spawn(new Pos(0));
        long h = buf.spawn();
        buf.add(h, slowed, new Slowed(0.5f));
        buf.add(h, pos, new Pos(3));
        buf.add(h, target, new Target(h));
        buf.add(other, target, new Target(h));
        long gone = buf.spawn();
        buf.add(gone, slowed);
        buf.despawn(gone);
        int archetypes = w.storage().archetypes().count();
        PlaybackReport r = playback.apply(w, buf);
        assertTrue(r.isClean(), r.toString());
        assertEquals(archetypes, w.storage().archetypes().count(), "the spawn went straight into {Pos}");
        long made = w.storage().entityTable().idAt(Entity.index(other) + 1);
        assertEquals(new Pos(3), w.get(made, pos));
        assertEquals(new Slowed(0.5f), w.get(made, slowed));
        assertEquals(new Target(made), w.get(made, target), "provisional handles resolve in sparse values");
        assertEquals(new Target(made), w.get(other, target));
        assertEquals(1, w.storage().sparse().of(slowed).size(), "the spawned-and-despawned entity left no member");
        assertEquals(2, w.entityCount());
    }

    @Test
    void templatesAndDeadEntitiesFollowTheSameRules() {
        Template t = Template.named("slowed").with(pos, new Pos(5)).with(slowed, new Slowed(0.1f)).build();
        long e = w.spawn(new Pos(0));
        buf.spawn(t);
        buf.despawn(e);
        buf.add(e, slowed);
        PlaybackReport r = playback.apply(w, buf);
        assertEquals(1, r.skippedDead(), "a sparse add on a dead entity is skipped");
        assertEquals(1, w.entityCount());
        long made = w.storage().entityTable().idAt(1);
        assertTrue(w.isAlive(made));
        assertEquals(new Slowed(0.1f), w.get(made, slowed));
        assertEquals(1, w.storage().sparse().of(slowed).size());
    }
}
