package dev.orrery.explorer;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.orrery.ecs.World;
import dev.orrery.ecs.component.Component;
import dev.orrery.ecs.component.Entity;
import dev.orrery.engine.Simulation;
import org.junit.jupiter.api.Test;

/**
 * An entity id that no longer names a live entity, looked up on {@code /api/entity}: one whose
 * slot a later entity holds now is answered naming that entity (the one to open instead), one
 * whose slot is free says so; neither is left at "it died, or was never handed out".
 */
class StaleIdTest {
    record Bee(int number) {
    }

    @Test
    void shouldNameTheEntityThatHoldsAStaleIdsSlotNow() throws Exception {
        World world = new World();
        Component<Bee> bee = world.component(Bee.class);
        long first = world.spawn(new Bee(1));
        long gone = world.spawn(new Bee(2));
        world.despawn(first);
        long second = world.spawn(new Bee(3)); // takes first's slot, at the next generation
        assertEquals(Entity.index(first), Entity.index(second));
        assertNotEquals(first, second);
        world.despawn(gone); // its slot stays free
        Simulation sim = Simulation.builder(world).seed(1).systems(s -> s.system("look")
                .query(world.query().with(bee).build()).reads(bee).forEachChunk(job -> { })).build();
        Explorer explorer = Explorer.attach(sim, ExplorerOptions.loopback(0));
        Thread ticks = new Thread(() -> sim.run(0, 100), "stale-id-ticks");
        ticks.start();
        try {
            Client c = new Client(explorer);
            String stale = c.getTicking("/api/entity?id=" + first).body();
            assertTrue(stale.contains("\"alive\":false"), stale);
            assertTrue(stale.contains("index " + Entity.index(first) + " holds " + Entity.toString(second) + " (id "
                    + second + ") now"), "names the entity in the slot now: " + stale);
            String free = c.getTicking("/api/entity?id=" + gone).body();
            assertTrue(free.contains("index " + Entity.index(gone) + " holds no live entity now"), free);
            long ahead = Entity.of(Entity.index(second), Entity.generation(second) + 5); // never handed out yet
            String never = c.getTicking("/api/entity?id=" + ahead).body();
            assertTrue(never.contains("index " + Entity.index(second) + " holds " + Entity.toString(second)), never);
            assertTrue(!never.contains("a later entity") && never.contains("never handed out"),
                    "the slot holds an earlier generation than the id's: " + never);
            String live = c.getTicking("/api/entity?id=" + second).body();
            assertTrue(live.contains("\"alive\":true"), live);
        } finally {
            sim.stop();
            ticks.join(60_000);
            explorer.close();
            sim.close();
        }
    }
}
