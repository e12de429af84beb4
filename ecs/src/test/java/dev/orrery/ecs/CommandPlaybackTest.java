package dev.orrery.ecs;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.orrery.ecs.component.Component;
import dev.orrery.ecs.component.Entity;
import dev.orrery.ecs.component.EntityRef;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;

class CommandPlaybackTest {
    record Position(float x, float y) {
    }

    record Health(int hp) {
    }

    record Target(@EntityRef long entity) {
    }

    record Marker() {
    }

    private final World world = new World();
    private final Component<Position> pos = world.component(Position.class);
    private final Component<Health> health = world.component(Health.class);
    private final Component<Target> target = world.component(Target.class);
    private final Component<Marker> marker = world.component(Marker.class);
    private final CommandPlayback playback = new CommandPlayback();

    @Test
    void shouldSpawnWithValuesThroughProvisionalHandle() {
        CommandBuffer buf = new CommandBuffer(0);
        long h = buf.spawn();
        assertTrue(CommandBuffer.isProvisional(h));
        buf.add(h, pos, new Position(1, 2));
        buf.add(h, health, new Health(7));
        PlaybackReport r = playback.apply(world, buf);
        assertTrue(r.isClean(), r.toString());
        assertEquals(1, world.entityCount());
        assertEquals(1, r.moves(), "spawn + two adds must be one archetype move");
        long e = world.storage().entityTable().idAt(0);
        assertEquals(new Position(1, 2), world.get(e, pos));
        assertEquals(new Health(7), world.get(e, health));
        assertTrue(buf.isEmpty(), "playback clears the buffer");
    }

    @Test
    void shouldBatchAddsAndRemovesIntoOneMove() {
        long e = world.spawn(new Position(3, 4), new Health(1));
        CommandBuffer buf = new CommandBuffer(0);
        buf.add(e, marker);
        buf.add(e, target, new Target(Entity.NULL));
        buf.remove(e, health);
        PlaybackReport r = playback.apply(world, buf);
        assertEquals(1, r.moves());
        assertTrue(world.has(e, marker));
        assertTrue(world.has(e, target));
        assertFalse(world.has(e, health));
        assertEquals(new Position(3, 4), world.get(e, pos));
    }

    @Test
    void shouldSkipAddAfterDespawnOfSameEntity() {
        long e = world.spawn(new Position(0, 0));
        CommandBuffer buf = new CommandBuffer(0);
        buf.despawn(e);
        buf.add(e, health, new Health(5));
        buf.despawn(e);
        PlaybackReport r = playback.apply(world, buf);
        assertFalse(world.isAlive(e));
        assertEquals(0, world.entityCount());
        assertEquals(2, r.skippedDead(), r.toString());
    }

    @Test
    void shouldKeepLastValueWhenAddedTwice() {
        long e = world.spawn(new Position(0, 0));
        CommandBuffer buf = new CommandBuffer(0);
        buf.add(e, health, new Health(1));
        buf.add(e, health, new Health(2));
        PlaybackReport r = playback.apply(world, buf);
        assertTrue(r.isClean(), r.toString());
        assertEquals(new Health(2), world.get(e, health));
    }

    @Test
    void shouldTreatRemoveOfMissingComponentAsCountedNoOp() {
        long e = world.spawn(new Position(5, 5));
        long before = world.stateHash();
        CommandBuffer buf = new CommandBuffer(0);
        buf.remove(e, health);
        PlaybackReport r = playback.apply(world, buf);
        assertEquals(1, r.removedMissing());
        assertEquals(before, world.stateHash());
    }

    @Test
    void shouldSkipCommandsOnEntityDespawnedEarlierInPlaybackByAnotherBuffer() {
        long e = world.spawn(new Position(0, 0));
        CommandBuffer first = new CommandBuffer(0);
        CommandBuffer second = new CommandBuffer(1);
        first.beginChunk(0, 0);
        first.despawn(e);
        second.beginChunk(1, 0);
        second.set(e, pos, new Position(9, 9));
        PlaybackReport r = playback.apply(world, List.of(second, first));
        assertFalse(world.isAlive(e));
        assertEquals(1, r.skippedDead());
    }

    @Test
    void shouldZeroComponentRemovedAndAddedAgainInOneBatch() {
        long e = world.spawn(new Position(0, 0), new Health(40));
        CommandBuffer buf = new CommandBuffer(0);
        buf.remove(e, health);
        buf.add(e, health);
        playback.apply(world, buf);
        assertEquals(new Health(0), world.get(e, health));
    }

    @Test
    void shouldRefuseDuplicateInstanceNameAndApplyTheRest() {
        Component<Health> fogHealth = world.component(Health.class, "Fog");
        Component<Position> fogPos = world.component(Position.class, "Fog");
        long e = world.spawn();
        world.add(e, fogHealth, new Health(3));
        CommandBuffer buf = new CommandBuffer(0);
        buf.add(e, fogPos, new Position(1, 1));
        buf.add(e, marker);
        PlaybackReport r = playback.strict(false).apply(world, buf); // lenient: count the refusal
        assertEquals(1, r.rejected());
        assertTrue(r.messages().get(0).contains("Fog"), r.messages().toString());
        assertTrue(world.has(e, marker));
        assertFalse(world.has(e, fogPos));
    }

    @Test
    void shouldRefuseSetOfMissingComponent() {
        long e = world.spawn(new Position(0, 0));
        CommandBuffer buf = new CommandBuffer(0);
        buf.set(e, health, new Health(1));
        PlaybackReport r = playback.strict(false).apply(world, buf); // lenient: count the refusal
        assertEquals(1, r.rejected());
        assertFalse(world.has(e, health));
    }

    @Test
    void shouldResolveProvisionalHandleInsideEntityRefField() {
        long shooter = world.spawn(new Position(0, 0));
        CommandBuffer buf = new CommandBuffer(3);
        long projectile = buf.spawn();
        buf.add(projectile, pos, new Position(1, 1));
        buf.add(shooter, target, new Target(projectile));
        playback.apply(world, buf);
        long real = world.get(shooter, target).entity();
        assertTrue(world.isAlive(real), "the EntityRef field must hold the real id, got " + Entity.toString(real));
        assertEquals(new Position(1, 1), world.get(real, pos));
    }

    @Test
    void shouldRejectTwoBuffersWithOneId() {
        CommandBuffer a = new CommandBuffer(1);
        CommandBuffer b = new CommandBuffer(1);
        a.spawn();
        b.spawn();
        assertThrows(IllegalArgumentException.class, () -> playback.apply(world, List.of(a, b)));
        assertEquals(0, world.entityCount());
    }

    @Test
    void shouldGiveSameWorldWhicheverBufferRecordedWhichChunk() {
        long[] hashes = new long[6];
        for (int trial = 0; trial < hashes.length; trial++) {
            World w = new World();
            Component<Position> p = w.component(Position.class);
            Component<Health> hp = w.component(Health.class);
            long[] existing = w.entity().with(p, new Position(1, 1)).spawnMany(50);
            int workers = 1 + trial % 4;
            List<CommandBuffer> buffers = new ArrayList<>();
            for (int i = 0; i < workers; i++) {
                buffers.add(new CommandBuffer(i));
            }
            List<Integer> chunks = new ArrayList<>();
            for (int c = 0; c < 20; c++) {
                chunks.add(c);
            }
            Collections.shuffle(chunks, new Random(trial));
            for (int c : chunks) {
                CommandBuffer buf = buffers.get(c % workers);
                buf.beginChunk(c % 3, c);
                long h = buf.spawn();
                buf.add(h, p, new Position(c, -c));
                buf.add(h, hp, new Health(c));
                buf.despawn(existing[c]);
                buf.add(existing[c + 20], hp, new Health(100 + c));
            }
            new CommandPlayback().apply(w, buffers);
            hashes[trial] = w.stateHash();
        }
        for (long h : hashes) {
            assertEquals(hashes[0], h);
        }
        assertNotEquals(0L, hashes[0]);
    }

    @Test
    void shouldSpawnFromTemplateAndBatchLaterCommandsIntoIt() {
        Component<Health> shield = world.component(Health.class, "Shield");
        dev.orrery.ecs.Template soldier = dev.orrery.ecs.Template.named("soldier")
                .with(pos, new Position(4, 4)).with(shield, new Health(30)).build();
        CommandBuffer buf = new CommandBuffer(2);
        long h = buf.spawn(soldier);
        assertTrue(CommandBuffer.isProvisional(h));
        buf.add(h, health, new Health(100));
        buf.add(h, target, new Target(h));
        PlaybackReport r = playback.apply(world, buf);
        assertTrue(r.isClean(), r.toString());
        long e = world.storage().entityTable().idAt(0);
        assertEquals(new Position(4, 4), world.get(e, pos));
        assertEquals(new Health(30), world.get(e, shield));
        assertEquals(new Health(100), world.get(e, health));
        assertEquals(e, world.get(e, target).entity(), "a handle naming its own entity resolves too");
        assertEquals(shield, world.findComponent(e, "Shield"), "template names registered in the prototype index");
        assertEquals(java.util.List.of("Position", "Shield", "Health", "Target"),
                world.storage().namedInstances().namesOf(dev.orrery.ecs.component.Entity.index(e)));
    }

    @Test
    void shouldLeaveTheWorldDirectCallsLeaveForSpawnsWithAddsDespawnsAndNothing() {
        // Playback creates a spawned entity only when its batch ends, straight in its final
        // archetype; the world must be the one that spawning at once and then applying each
        // command directly gives: ids, rows, values, instance names and free list alike. (The
        // direct calls visit the archetypes the batches pass through, so both worlds create
        // the same archetypes in the same order.)
        World direct = new World();
        Component<Position> dPos = direct.component(Position.class);
        Component<Health> dHealth = direct.component(Health.class);
        Component<Target> dTarget = direct.component(Target.class);
        Component<Marker> dMarker = direct.component(Marker.class);
        Component<Health> fog = world.component(Health.class, "Fog");
        Component<Health> dFog = direct.component(Health.class, "Fog");
        long[] old = new long[4];
        for (int i = 0; i < old.length; i++) {
            old[i] = world.spawn(new Position(i, i));
            direct.spawn(new Position(i, i));
        }
        world.despawn(old[1]);
        direct.despawn(old[1]);

        CommandBuffer buf = new CommandBuffer(0);
        long a = buf.spawn(); // three adds, one naming itself
        buf.add(a, pos, new Position(1, 2));
        buf.add(a, target, new Target(a));
        buf.add(a, fog, new Health(9));
        long b = buf.spawn(); // spawned and despawned in one batch: its id is taken and freed
        buf.add(b, health, new Health(3));
        buf.despawn(b);
        long c = buf.spawn(); // nothing added: stays in the empty archetype
        long d = buf.spawn(); // add then remove: back to empty, no move
        buf.add(d, marker);
        buf.remove(d, marker);
        long f = buf.spawn(); // a later command on another entity refers to it
        buf.add(f, health, new Health(5));
        buf.add(old[2], target, new Target(f));
        PlaybackReport r = playback.apply(world, buf);

        long da = direct.spawn();
        direct.add(da, dPos, new Position(1, 2));
        direct.add(da, dTarget, new Target(da));
        direct.add(da, dFog, new Health(9));
        long db = direct.spawn();
        direct.add(db, dHealth, new Health(3)); // creates the archetypes playback's batches visit
        direct.despawn(db);
        long dc = direct.spawn();
        long dd = direct.spawn();
        direct.add(dd, dMarker);
        direct.remove(dd, dMarker);
        long df = direct.spawn();
        direct.add(df, dHealth, new Health(5));
        direct.add(old[2], dTarget, new Target(df));

        assertTrue(r.isClean(), r.toString());
        assertEquals(3, r.moves(), "a, f and old[2] move; b is despawned first, c and d stay empty");
        assertEquals(direct.stateHash(), world.stateHash());
        for (long e : new long[] {da, dc, dd, df, old[2]}) {
            assertEquals(direct.storage().namedInstances().namesOf(Entity.index(e)),
                    world.storage().namedInstances().namesOf(Entity.index(e)), Entity.toString(e));
        }
        assertEquals(direct.storage().entityTable().nextId(), world.storage().entityTable().nextId());
    }

    @Test
    void shouldRefuseToSpawnIntoAnotherWorldsArchetype() {
        World other = new World();
        other.component(Position.class);
        other.component(Health.class);
        other.component(Target.class);
        assertThrows(IllegalArgumentException.class, () -> world.spawnZeroed(
                other.storage().archetypes().of(other.component(Target.class))));
        assertEquals(0, world.entityCount());
    }

    @Test
    void aSpawnIntoAReusedRowHoldsOnlyItsRecordedValues() {
        long[] old = new long[24];
        for (int i = 0; i < old.length; i++) {
            old[i] = world.spawn(new Position(i + 1, -i - 1), new Health(i + 1), new Marker());
        }
        for (long e : old) {
            world.despawn(e); // every row of the archetype is vacated with its values in place
        }
        CommandBuffer buf = new CommandBuffer(0);
        long[] h = new long[24];
        for (int i = 0; i < h.length; i++) {
            h[i] = buf.spawn();
            switch (i % 4) {
                case 0 -> { // every column with fields gets a whole value: the row is not zeroed first
                    buf.add(h[i], pos, new Position(5, 6));
                    buf.add(h[i], health, new Health(9));
                    buf.add(h[i], marker);
                }
                case 1 -> { // Health added without a value: it must read zero
                    buf.add(h[i], pos, new Position(5, 6));
                    buf.add(h[i], health);
                    buf.add(h[i], marker);
                }
                case 2 -> { // one field set: the other must read zero
                    buf.add(h[i], pos);
                    buf.add(h[i], health, new Health(9));
                    buf.add(h[i], marker);
                    buf.setFloat(h[i], pos.field("y"), 6);
                }
                default -> { // a value added, then its column removed and added again empty
                    buf.add(h[i], pos, new Position(5, 6));
                    buf.add(h[i], health, new Health(9));
                    buf.remove(h[i], health);
                    buf.add(h[i], health);
                    buf.add(h[i], marker);
                }
            }
        }
        PlaybackReport r = playback.apply(world, buf);
        assertTrue(r.isClean(), r.toString());
        Position[] pos4 = {new Position(5, 6), new Position(5, 6), new Position(0, 6), new Position(5, 6)};
        Health[] health4 = {new Health(9), new Health(0), new Health(9), new Health(0)};
        for (int i = 0; i < h.length; i++) {
            long e = buf.resolved[i];
            assertEquals(pos4[i % 4], world.get(e, pos), "spawn " + i + ": no value of a former row may show");
            assertEquals(health4[i % 4], world.get(e, health), "spawn " + i);
        }
    }

    @Test
    void spawnsIntoOneArchetypeRegisterTheirNamesAcrossReclaims() {
        java.util.List<String> both = java.util.List.of("Position", "Health");
        for (int round = 0; round < 3; round++) {
            CommandBuffer buf = new CommandBuffer(0);
            long[] h = new long[4];
            for (int i = 0; i < h.length; i++) {
                h[i] = buf.spawn();
                buf.add(h[i], health, new Health(i));
                buf.add(h[i], pos, new Position(i, round));
            }
            playback.apply(world, buf);
            for (long handle : h) {
                long e = buf.resolved[(Entity.index(handle) & 0xFF_FFFF) - 1];
                assertEquals(both, world.storage().namedInstances().namesOf(Entity.index(e)),
                        "round " + round + ": names in column-id order, as a move from the empty archetype gives");
                assertEquals(new Health((int) (Entity.index(handle) & 0xFF_FFFF) - 1), world.get(e, health));
            }
            for (long handle : h) {
                world.despawn(buf.resolved[(Entity.index(handle) & 0xFF_FFFF) - 1]); // their prototype is reclaimed
            }
            long other = world.spawn(new Health(9)); // a different prototype takes the freed slot
            assertEquals(java.util.List.of("Health"), world.storage().namedInstances().namesOf(Entity.index(other)));
        }
    }
}
