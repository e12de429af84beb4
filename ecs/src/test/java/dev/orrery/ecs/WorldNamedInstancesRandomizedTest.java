package dev.orrery.ecs;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;

import dev.orrery.ecs.component.Component;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * Random spawns (single, bulk, template), adds, removes, multi-column moves and despawns on
 * a world; after each step every live entity's look-up by every name must agree with its
 * archetype, the source of truth. Ends by despawning everyone: only prototype 0 is left.
 */
class WorldNamedInstancesRandomizedTest {
    record A(int v) {
    }

    record B(float v) {
    }

    record T() {
    }

    private static final String[] NAMES = {"Fog", "Vignette", "Bloom", "A", "B", "T"};

    @Test
    void shouldAgreeWithTheArchetypesUnderRandomStructuralChanges() {
        long seed = System.nanoTime();
        try {
            run(seed);
        } catch (AssertionError | RuntimeException e) {
            throw new AssertionError("randomized world test failed with seed " + seed + "L: " + e.getMessage(), e);
        }
    }

    private static void run(long seed) {
        Random rnd = new Random(seed);
        World world = new World();
        List<Component<?>> columns = new ArrayList<>();
        columns.add(world.component(A.class));
        columns.add(world.component(B.class));
        columns.add(world.component(T.class));
        for (String n : new String[] {"Fog", "Vignette", "Bloom"}) {
            columns.add(world.component(A.class, n));
            columns.add(world.component(B.class, n));
        }
        List<Long> live = new ArrayList<>();
        for (int step = 0; step < 1500; step++) {
            int op = rnd.nextInt(100);
            if (op < 15 || live.isEmpty()) {
                live.add(world.spawn(randomTemplate(rnd, columns)));
            } else if (op < 20) {
                for (long e : world.spawnMany(randomTemplate(rnd, columns), 1 + rnd.nextInt(5))) {
                    live.add(e);
                }
            } else if (op < 55) {
                long e = live.get(rnd.nextInt(live.size()));
                Component<?> c = columns.get(rnd.nextInt(columns.size()));
                try {
                    world.add(e, c);
                } catch (IllegalArgumentException | IllegalStateException refused) {
                    // name taken or already held: the world refuses, and must stay consistent
                }
            } else if (op < 75) {
                long e = live.get(rnd.nextInt(live.size()));
                world.remove(e, columns.get(rnd.nextInt(columns.size())));
            } else if (op < 85) {
                long e = live.get(rnd.nextInt(live.size()));
                Template t = randomTemplate(rnd, columns);
                world.moveTo(e, world.storage().archetypes().of(t.columnArray()));
            } else {
                world.despawn(live.remove(rnd.nextInt(live.size())));
            }
            for (long e : live) {
                check(world, e);
            }
        }
        for (long e : live) {
            world.despawn(e);
        }
        world.storage().namedInstances().index().reclaimUnused();
        assertEquals(1, world.storage().namedInstances().index().prototypeCount());
    }

    private static Template randomTemplate(Random rnd, List<Component<?>> columns) {
        Template.Builder b = Template.named("random");
        List<String> used = new ArrayList<>();
        int n = rnd.nextInt(5);
        for (int i = 0; i < n; i++) {
            Component<?> c = columns.get(rnd.nextInt(columns.size()));
            if (!used.contains(c.name())) {
                used.add(c.name());
                b.with(c);
            }
        }
        return b.build();
    }

    private static void check(World world, long e) {
        for (String name : NAMES) {
            Component<?> expected = null;
            for (Component<?> c : world.archetypeOf(e).components()) {
                if (c.name().equals(name)) {
                    expected = c;
                }
            }
            assertSame(expected, world.findComponent(e, name), "entity " + e + " name " + name);
        }
    }
}
