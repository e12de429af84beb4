package dev.orrery.ecs;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.orrery.ecs.archetype.Archetype;
import dev.orrery.ecs.component.Component;
import dev.orrery.ecs.ownership.OtherThread;
import java.util.LinkedHashMap;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** World's structural calls assert (under {@code -ea}) that the caller is the bound owner. */
class WorldOwnerTest {
    record Position(float x, float y) {
    }

    record Frozen() {
    }

    private final World world = new World();
    private final Component<Position> pos = world.component(Position.class);
    private final Component<Frozen> frozen = world.component(Frozen.class);
    private final Query all = world.query().with(pos).build();
    private final long e = world.spawn(new Position(1, 2));
    private final Archetype posOnly = world.archetypeOf(e);

    private Map<String, Runnable> structuralCalls() {
        Map<String, Runnable> calls = new LinkedHashMap<>();
        calls.put("spawn", () -> world.spawn());
        calls.put("spawn(values)", () -> world.spawn(new Position(3, 4)));
        calls.put("spawn(template)", () -> world.spawn(Template.named("t").with(pos, new Position(0, 0)).build()));
        calls.put("entity().spawnMany", () -> world.entity().with(pos, new Position(0, 0)).spawnMany(3));
        calls.put("spawnZeroed", () -> world.spawnZeroed(posOnly));
        calls.put("despawn", () -> world.despawn(e));
        calls.put("add", () -> world.add(e, frozen));
        calls.put("remove", () -> world.remove(e, pos));
        calls.put("moveTo", () -> world.moveTo(e, world.storage().archetypes().empty()));
        calls.put("addToAll", () -> world.addToAll(all, frozen));
        calls.put("removeFromAll", () -> world.removeFromAll(all, pos));
        calls.put("sortRows", () -> world.sortRows(posOnly, (chunk, row) -> -row));
        return calls;
    }

    @Test
    void shouldRefuseEveryStructuralCallFromAThreadThatDoesNotOwnTheWorld() {
        assertTrue(OtherThread.assertionsEnabled(), "this test needs -ea, as surefire sets it");
        world.bindOwner(Thread.currentThread());
        long before = world.stateHash();
        for (Map.Entry<String, Runnable> call : structuralCalls().entrySet()) {
            Throwable t = OtherThread.run(call.getValue());
            AssertionError error = assertInstanceOf(AssertionError.class, t, call.getKey() + " from another thread");
            assertTrue(error.getMessage().contains("world is owned by thread '" + Thread.currentThread().getName()),
                    error.getMessage());
            assertEquals(before, world.stateHash(), call.getKey() + " changed nothing");
        }
    }

    @Test
    void shouldCheckNothingWhileUnbound() {
        assertNull(OtherThread.run(() -> world.add(e, frozen)), "an unbound world accepts any one thread");
        assertTrue(world.has(e, frozen));
    }

    @Test
    void shouldFollowTheOwnerAcrossAHandOff() throws InterruptedException {
        long[] spawned = new long[1];
        Thread tick = new Thread(() -> spawned[0] = world.spawn(new Position(5, 6)), "tick");
        world.bindOwner(tick); // Thread.start below orders the binding before the new owner's calls
        tick.start();
        tick.join();
        assertTrue(world.isAlive(spawned[0]), "the new owner's spawn ran");
        AssertionError refused = assertInstanceOf(AssertionError.class, OtherThread.run(() -> world.despawn(e)));
        assertTrue(refused.getMessage().contains("'tick'"), refused.getMessage());
        world.bindOwner(Thread.currentThread());
        world.despawn(spawned[0]);
        assertEquals(1, world.entityCount());
    }

    @Test
    void shouldNameTheStructureLockBeforeTheOwnerWhenAWorkerSpawnsDuringIteration() {
        world.bindOwner(Thread.currentThread());
        long before = world.stateHash();
        world.storage().structureLock().lock("a test iteration");
        try {
            // A job on a worker thread breaks both rules; the lock's message names the fix.
            Throwable t = OtherThread.run(() -> world.spawn());
            IllegalStateException locked = assertInstanceOf(IllegalStateException.class, t);
            assertTrue(locked.getMessage().startsWith("structural change (spawn) attempted during a test iteration"),
                    locked.getMessage());
        } finally {
            world.storage().structureLock().unlock();
        }
        assertEquals(before, world.stateHash());
    }
}
