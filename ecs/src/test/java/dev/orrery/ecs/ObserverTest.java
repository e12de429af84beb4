package dev.orrery.ecs;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.orrery.ecs.component.Component;
import dev.orrery.ecs.component.Entity;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Observer hooks: when they fire, in which order, what they see, cascades and their limit. */
class ObserverTest {
    record Hp(int hp) {
    }

    record Burning() {
    }

    record Ash() {
    }

    final World world = new World();
    final Component<Hp> hp = world.component(Hp.class);
    final Component<Burning> burning = world.component(Burning.class);
    final Component<Ash> ash = world.component(Ash.class);
    final List<String> log = new ArrayList<>();

    void record(String what, long e) {
        log.add(what + " " + Entity.index(e));
    }

    @Test
    void directCallsFireTheirHooksWhenTheyReturn() {
        world.observe(hp).onAdd((w, e, c) -> record("add hp=" + w.get(e, hp).hp(), e))
                .onSet((w, e, c) -> record("set hp=" + w.get(e, hp).hp(), e))
                .onRemove((w, e, c) -> record("remove alive=" + w.isAlive(e), e))
                .onDespawn((w, e, c) -> record("despawn alive=" + w.isAlive(e), e));
        long e = world.spawn(new Hp(5));
        world.set(e, hp, new Hp(6));
        world.setInt(e, hp.field("hp"), 7);
        long f = world.spawn(new Burning());
        world.add(f, hp, new Hp(1));
        world.remove(f, hp);
        world.despawn(e);
        assertEquals(List.of("add hp=5 0", "set hp=6 0", "set hp=7 0", "add hp=1 1", "remove alive=true 1",
                "remove alive=false 0", "despawn alive=false 0"), log);
    }

    @Test
    void playbackFiresAfterTheWholeSyncPointInPlaybackOrderWithValuesWritten() {
        world.observe(hp).onAdd((w, e, c) -> record("add hp=" + w.get(e, hp).hp(), e));
        world.observe(burning).onAdd((w, e, c) -> record("burn", e));
        Shape unit = world.shape(hp);
        CommandBuffer buf = new CommandBuffer(0);
        for (int i = 0; i < 600; i++) { // enough to take the side-by-side spawn value path
            buf.setInt(buf.spawn(unit), hp.field("hp"), i);
        }
        long first = world.spawn(new Hp(100));
        log.clear();
        buf.add(first, burning);
        new CommandPlayback().apply(world, buf);
        assertEquals(601, log.size());
        assertEquals("add hp=0 1", log.get(0));
        assertEquals("add hp=599 600", log.get(599));
        assertEquals("burn 0", log.get(600), "the add recorded last fires last");
    }

    /**
     * A shape's bulk spawn with a writer fires the onAdd hooks of its rows once the writer has
     * filled them, as a playback fires them after the spawn values it writes: a hook sees the
     * written values, not the zeros the rows were placed with. A writer that throws still
     * leaves its spawned rows, and their hooks fire.
     */
    @Test
    void aShapesBulkSpawnWithAWriterFiresItsHooksAfterTheWriterFilledTheRows() {
        world.observe(hp).onAdd((w, e, c) -> record("add hp=" + w.get(e, hp).hp(), e));
        Shape unit = world.shape(hp);
        unit.spawnMany(3, (rows, from, to, first) -> {
            int[] h = rows.writeInts(hp.field("hp"));
            for (int r = from; r < to; r++) {
                h[r] = 10 + first + r - from;
            }
        });
        assertEquals(List.of("add hp=10 0", "add hp=11 1", "add hp=12 2"), log);
        log.clear();
        IllegalStateException thrown = assertThrows(IllegalStateException.class, () -> unit.spawnMany(2,
                (rows, from, to, first) -> {
                    rows.writeInts(hp.field("hp"))[from] = 7;
                    throw new IllegalStateException("writer failed");
                }));
        assertEquals("writer failed", thrown.getMessage());
        assertEquals(List.of("add hp=7 3", "add hp=0 4"), log, "the spawned rows stay, and their hooks fire");
        assertEquals(5, world.entityCount());
    }

    @Test
    void hooksRecordCommandsThatCascadeToAFixedPoint() {
        world.observe(burning).onAdd((w, e, c) -> c.add(e, ash));
        world.observe(ash).onAdd((w, e, c) -> {
            record("ash", e);
            c.remove(e, burning);
        });
        world.observe(burning).onRemove((w, e, c) -> record("extinguished", e));
        long e = world.spawn(new Hp(3));
        world.add(e, burning);
        assertEquals(List.of("ash 0", "extinguished 0"), log);
        assertTrue(world.has(e, ash));
        assertFalse(world.has(e, burning));
    }

    @Test
    void aRunawayCascadeNamesTheChain() {
        world.observe(burning).onAdd((w, e, c) -> c.remove(e, burning));
        world.observe(burning).onRemove((w, e, c) -> c.add(e, burning));
        long e = world.spawn(new Hp(3));
        ObserverCascadeException x = assertThrows(ObserverCascadeException.class, () -> world.add(e, burning));
        assertTrue(x.getMessage().contains("more than 10000 rounds") && x.getMessage().contains("onAdd(Burning")
                && x.getMessage().contains("onRemove(Burning"),
                x.getMessage());
        assertTrue(world.isAlive(e));
        world.spawn(new Hp(1)); // the world is usable afterwards
    }

    @Test
    void aCascadeIsBoundedByItsWorkNotItsRounds() {
        // A hook that records 1 000 spawns per add: three rounds would be a billion commands.
        Shape burningOne = world.shape(burning);
        world.observe(burning).onAdd((w, e, c) -> {
            for (int k = 0; k < 1000; k++) {
                c.spawn(burningOne);
            }
        });
        assertEquals(1_000_000, world.observerCascadeLimit(), "the documented default");
        long e = world.spawn(new Hp(3));
        ObserverCascadeException x = assertThrows(ObserverCascadeException.class, () -> world.add(e, burning));
        String m = x.getMessage();
        assertTrue(m.contains("more than 1000000 commands in one cascade") && m.contains("1000000 commands recorded in 2 rounds")
                && m.contains("onAdd(Burning) of 0v1 -> onAdd(Burning) of 1v1") && m.contains("observerCascadeLimit"), m);
        assertEquals(1 + 1000, world.entityCount(), "the first round's spawns stay; the refused round's are dropped");
        world.spawn(new Hp(1)); // consistent and usable afterwards
        assertEquals(1002, world.entityCount());
    }

    @Test
    void aHookThatCatchesTheRefusalIsStillRefused() {
        world.observerCascadeLimit(10);
        world.observe(burning).onAdd((w, e, c) -> {
            try {
                for (int k = 0; k < 50; k++) {
                    c.spawn();
                }
            } catch (IllegalStateException swallowed) {
                // a careless hook: the cascade is refused all the same
            }
        });
        long e = world.spawn(new Hp(3));
        ObserverCascadeException x = assertThrows(ObserverCascadeException.class, () -> world.add(e, burning));
        assertTrue(x.getMessage().contains("more than 10 commands"), x.getMessage());
        assertEquals(1, world.entityCount());
        assertThrows(IllegalArgumentException.class, () -> world.observerCascadeLimit(0));
    }

    @Test
    void aLongCascadeWithinTheLimitRunsToItsFixedPoint() {
        // 40 rounds of one command each: past the old 16-round limit, far under the work limit
        Component<Hp> depth = hp;
        world.observe(depth).onSet((w, e, c) -> {
            int left = w.get(e, depth).hp();
            if (left > 0) {
                c.set(e, depth, new Hp(left - 1));
            }
        });
        long e = world.spawn(new Hp(0));
        world.set(e, depth, new Hp(40));
        assertEquals(0, world.get(e, depth).hp());
    }

    @Test
    void hooksMayNotChangeTheStructureDirectly() {
        world.observe(burning).onAdd((w, e, c) -> w.add(e, ash));
        long e = world.spawn(new Hp(3));
        IllegalStateException x = assertThrows(IllegalStateException.class, () -> world.add(e, burning));
        assertTrue(x.getMessage().contains("observer hook"), x.getMessage());
    }

    @Test
    void componentsNobodyObservesQueueNothing() {
        world.observe(ash).onAdd((w, e, c) -> record("ash", e));
        world.spawn(new Hp(1), new Burning());
        assertTrue(log.isEmpty());
        assertFalse(world.changes().isObserved(hp));
        assertTrue(world.changes().isObserved(ash));
    }

    @Test
    void aValueHookReadsWhatIsRemovedByEveryPath() {
        world.observe(hp).onRemove((w, e, c) -> record("removed", e))
                .onRemove((w, e, last, c) -> record("last hp=" + last.hp() + " alive=" + w.isAlive(e), e));
        long a = world.spawn(new Hp(10));
        long b = world.spawn(new Hp(20), new Burning());
        long d = world.spawn(new Hp(30));
        long f = world.spawn(new Hp(40));
        world.remove(a, hp); // direct remove
        world.despawn(b); // despawn
        CommandBuffer buf = new CommandBuffer(0);
        buf.remove(d, hp); // at playback
        world.apply(buf);
        world.removeFromAll(world.query().with(hp).build(), hp); // the bulk move, entity by entity
        assertEquals(List.of("removed 0", "last hp=10 alive=true 0", "removed 1", "last hp=20 alive=false 1",
                "removed 2", "last hp=30 alive=true 2", "removed 3", "last hp=40 alive=true 3"), log);
        assertEquals(List.of(), world.query().with(hp).build().archetypes().stream()
                .filter(x -> x.size() > 0).toList(), "every Hp removed");
    }

    @Test
    void aValueHookMayRecordCommandsThatUseTheValue() {
        world.observe(hp).onRemove((w, e, last, c) -> c.add(c.spawn(), hp, new Hp(last.hp() + 1)));
        long a = world.spawn(new Hp(41));
        world.despawn(a);
        List<Integer> left = new ArrayList<>();
        world.query().with(hp).build().forEach((view, row) -> left.add(view.get(hp, row).hp()));
        assertEquals(List.of(42), left, "the hook spawned an heir from the value it was given");
    }

    @Test
    void shouldNameTheHookRunningNowForAWatchdogAndNothingOnceItReturns() {
        world.observe(hp).onAdd((w, e, c) -> log.add(w.changes().firingHook()))
                .onRemove((w, e, c) -> log.add(w.changes().firingHook()))
                .onRemove((w, e, last, c) -> log.add(w.changes().firingHook()));
        assertEquals(null, world.changes().firingHook(), "no hook runs before any");
        long e = world.spawn(new Hp(5));
        world.remove(e, hp);
        assertEquals(List.of("the onAdd observer hook on Hp", "the onRemove observer hook on Hp",
                "the onRemove observer hook (with the value) on Hp"), log);
        assertEquals(null, world.changes().firingHook(), "no hook is named once the hooks returned");
    }

    @Test
    void aRestoreFiresNoHooksButLeavesThemLive() {
        long e = world.spawn(new Hp(5), new Burning());
        world.relations().add(world.spawn(new Hp(6)), world.relations().childOf(), e);
        byte[] bytes = new WorldSnapshot().write(world);
        World copy = new World();
        Component<Hp> hp2 = copy.component(Hp.class);
        Component<Burning> burning2 = copy.component(Burning.class);
        Component<Ash> ash2 = copy.component(Ash.class);
        copy.relations().childOf();
        copy.observe(hp2).onAdd((w, x, c) -> c.add(c.spawn(), ash2, new Ash())).onSet((w, x, c) -> record("set", x));
        copy.observe(burning2).onAdd((w, x, c) -> record("burn", x));
        new WorldSnapshot().read(bytes, copy);
        assertEquals(List.of(), log, "the restored rows arrived without a hook: the original's already ran");
        assertEquals(2, copy.entityCount(), "no hook spawned");
        assertEquals(world.stateHash(), copy.stateHash());
        copy.add(copy.spawn(new Hp(1)), burning2);
        assertEquals(List.of("burn 2"), log, "after the restore the hooks fire as before");
        assertEquals(4, copy.entityCount(), "and the onAdd(Hp) hook spawned its Ash");
    }
}
