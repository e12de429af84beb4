package dev.orrery.ecs;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.orrery.ecs.component.Component;
import org.junit.jupiter.api.Test;

/**
 * A world that prepares its spawn shapes at set-up (the game loop's idiom) can be restored
 * into: the snapshot's first archetypes are the shapes' own, so a target made by the same
 * set-up code takes the snapshot, keeps its shapes working, and hashes the same. A target
 * whose shapes differ, or that holds entities, is refused naming the archetype and the fix.
 */
class PreparedShapeRestoreTest {
    record Pos(float x, float y) {
    }

    record Vel(float x, float y) {
    }

    record Tag() {
    }

    /** The set-up code both the original and the restore target run. */
    static final class Game {
        final World world = new World(1024);
        final Component<Pos> pos = world.component(Pos.class);
        final Component<Vel> vel = world.component(Vel.class);
        final Component<Tag> tag = world.component(Tag.class);
        final Shape bullet;
        final Shape marker;

        Game(boolean shapesInOtherOrder) {
            if (shapesInOtherOrder) {
                marker = world.shape(pos, tag);
                bullet = world.shape(pos, vel);
            } else {
                bullet = world.shape(pos, vel);
                marker = world.shape(pos, tag);
            }
        }
    }

    @Test
    void shouldRestoreIntoAWorldThatPreparedTheSameShapes() {
        Game original = new Game(false);
        for (int i = 0; i < 100; i++) {
            original.bullet.spawn(new Pos(i, 0), new Vel(1, i));
        }
        original.marker.spawn(new Pos(7, 7), new Tag());
        original.world.spawn(new Pos(1, 1));
        byte[] snapshot = new WorldSnapshot().write(original.world);

        Game restored = new Game(false);
        new WorldSnapshot().read(snapshot, restored.world);
        assertEquals(original.world.stateHash(), restored.world.stateHash(), "restored state");

        long a = original.bullet.spawn(new Pos(-1, -1), new Vel(2, 2));
        long b = restored.bullet.spawn(new Pos(-1, -1), new Vel(2, 2));
        assertEquals(a, b, "the shape goes on spawning the same ids");
        assertEquals(original.world.stateHash(), restored.world.stateHash(), "after a spawn through the prepared shape");
    }

    @Test
    void shouldRefuseATargetWhoseShapesDifferNamingTheArchetype() {
        Game original = new Game(false);
        original.bullet.spawn(new Pos(1, 2), new Vel(3, 4));
        byte[] snapshot = new WorldSnapshot().write(original.world);
        Game other = new Game(true);
        long before = other.world.stateHash();
        SnapshotException e = assertThrows(SnapshotException.class, () -> new WorldSnapshot().read(snapshot, other.world));
        assertTrue(e.getMessage().contains("archetype 1 [Pos, Tag]") && e.getMessage().contains("[Pos, Vel]")
                && e.getMessage().contains("prepare the same shapes"), e.getMessage());
        assertEquals(before, other.world.stateHash(), "a refused restore leaves the target as it was");
        Game same = new Game(false);
        new WorldSnapshot().read(snapshot, same.world);
        assertEquals(original.world.stateHash(), same.world.stateHash(), "the snapshot itself is good");
    }

    @Test
    void shouldRefuseATargetThatHoldsEntitiesSayingHowMany() {
        Game original = new Game(false);
        byte[] snapshot = new WorldSnapshot().write(original.world);
        Game busy = new Game(false);
        busy.world.spawn(new Pos(0, 0));
        busy.world.spawn(new Pos(0, 1));
        SnapshotException e = assertThrows(SnapshotException.class, () -> new WorldSnapshot().read(snapshot, busy.world));
        assertTrue(e.getMessage().contains("holds 2 entities") && e.getMessage().contains("new World"), e.getMessage());
    }
}
