package dev.orrery.demo.arena;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.orrery.ecs.World;
import dev.orrery.engine.Simulation;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;

class ArenaTest {
    private static List<Long> agentIds(Arena arena) {
        List<Long> ids = new ArrayList<>();
        arena.agents.forEachChunk(c -> {
            for (int r = 0; r < c.size(); r++) {
                ids.add(c.entity(r));
            }
        });
        return ids;
    }

    @Test
    void shouldRespawnDeadAgentsFromTheirTemplateWithTheirNamedWeapons() {
        Arena arena = new Arena(new ArenaConfig(300, 3, 5));
        arena.populate();
        World world = arena.world();
        List<Long> before = agentIds(arena);
        for (long e : before) {
            world.setProperty(e, "Health", "hp", 0f);
        }
        try (Simulation sim = arena.build(2, 0)) {
            sim.tick();
        }
        List<Long> after = agentIds(arena);
        assertEquals(300, after.size());
        Set<Long> old = new HashSet<>(before);
        for (long e : after) {
            assertFalse(old.contains(e), "agent " + e + " should have been replaced");
            assertNotNull(world.findComponent(e, "Primary"), "respawned agent has no Primary");
            assertEquals(Weapon.class, world.findComponent(e, "Secondary").type().javaClass());
            assertEquals(25f, world.getProperty(e, "Secondary", "damage"));
            assertTrue((Float) world.getProperty(e, "Health", "hp") > 0);
        }
        assertEquals(0, arena.stats().kills(), "kills count hits, not the test's direct writes");
        assertEquals(300, arena.stats().deaths(), "the despawn observer saw every replaced agent (direct writes "
                + "stamp health changed, so reap's changed(health) query still finds them)");
    }

    @Test
    void shouldFindEveryDeathThroughTheChangedHealthFilterAndCountItInTheObserver() {
        Arena arena = new Arena(new ArenaConfig(3_000, 2, 11));
        arena.populate();
        try (Simulation sim = arena.build(2, 0)) {
            for (int t = 0; t < 300; t++) {
                sim.tick();
                // damage counts a kill when health crosses zero; reap (changed(health) chunks only)
                // despawns it at the sync point, where the observer counts it: the two must agree
                assertEquals(arena.stats().kills(), arena.stats().deaths(), "after tick " + t);
                float[] lowest = {Float.MAX_VALUE};
                arena.agents.forEachChunk(c -> {
                    for (int r = 0; r < c.size(); r++) {
                        lowest[0] = Math.min(lowest[0], c.readFloats(arena.health.field("hp"))[r]);
                    }
                });
                assertTrue(lowest[0] > 0, "a dead agent outlived the tick: the filter missed its chunk");
            }
        }
        assertTrue(arena.stats().deaths() > 10, "too few deaths to test anything: " + arena.stats().deaths());
    }

    @Test
    void shouldFireLandAndRemoveProjectilesAsTicksGoBy() {
        Arena arena = new Arena(new ArenaConfig(2_000, 2, 9));
        arena.populate();
        int maxProjectiles = 0;
        try (Simulation sim = arena.build(1, 0)) {
            for (int t = 0; t < 240; t++) {
                sim.tick();
                maxProjectiles = Math.max(maxProjectiles, arena.projectileCount());
            }
        }
        assertTrue(maxProjectiles > 0, "no projectile was ever in flight");
        assertTrue(arena.stats().hits() > 0, "no hit in 240 ticks");
        assertTrue(arena.stats().misses() > 0, "no miss in 240 ticks");
        assertEquals(2_000, arena.agentCount(), "dead agents must be replaced one for one");
        assertEquals(arena.agentCount() + arena.projectileCount() + SquadTargets.SQUADS, arena.world().entityCount(),
                "agents, projectiles and the squad entities");
    }
}
