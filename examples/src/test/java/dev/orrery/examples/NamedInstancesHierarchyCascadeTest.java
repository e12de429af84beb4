package dev.orrery.examples;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.orrery.ecs.ChunkView;
import dev.orrery.ecs.CommandBuffer;
import dev.orrery.ecs.Query;
import dev.orrery.ecs.Relation;
import dev.orrery.ecs.Template;
import dev.orrery.ecs.World;
import dev.orrery.ecs.component.Component;
import dev.orrery.ecs.component.Entity;
import dev.orrery.ecs.component.Field;
import dev.orrery.ecs.component.Storage;
import dev.orrery.engine.Simulation;
import dev.orrery.testkit.DeterminismCheck;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Named instances (two table instances and one sparse instance of one type, spawned from
 * templates, in bulk and from command buffers) beside a {@code ChildOf} hierarchy whose parents
 * are despawned from a job, so the cascade removes children and grandchildren that hold named
 * instances: afterwards every live entity still finds exactly its own instances by name, the
 * sparse instance's set holds exactly the live lamps, no child outlives its parent, and the
 * run is the same on 1 and 2 workers, after a restore and in a replay.
 */
class NamedInstancesHierarchyCascadeTest {
    record Transform(float x, float y) {}
    record Light(float density, int layer) {}
    record Lamp() {}

    /** The world's handles, found again by name in a built simulation. */
    static Simulation build(int workers, boolean populate) {
        World world = new World();
        Component<Transform> transform = world.component(Transform.class);
        Component<Light> fog = world.component(Light.class, "Fog");
        Component<Light> glow = world.component(Light.class, "Glow");
        Component<Light> halo = world.component(Light.class, "Halo", Storage.SPARSE);
        Component<Lamp> lampTag = world.component(Lamp.class);
        Relation childOf = world.relations().childOf();
        Field density = fog.field("density");
        Template lamp = Template.named("Lamp").with(transform, new Transform(0, 0)).with(fog, new Light(0.2f, 1))
                .with(halo, new Light(0.5f, 2)).with(lampTag).build();
        Template bulb = Template.named("Bulb").with(transform, new Transform(1, 1)).with(glow, new Light(0.7f, 3))
                .with(fog, new Light(0.1f, 4)).build();
        if (populate) {
            long[] lamps = world.spawnMany(lamp, 12);
            for (long l : lamps) {
                long[] bulbs = world.spawnMany(bulb, 4);
                for (long b : bulbs) {
                    world.relations().add(b, childOf, l);
                }
                long grandchild = world.spawn(bulb);
                world.relations().add(grandchild, childOf, bulbs[0]);
            }
        }
        Query fogged = world.query().with(fog).build();
        Query lamps = world.query().with(lampTag, fog).build();
        return Simulation.builder(world).workers(workers).seed(7)
                .systems(s -> s
                        .system("thicken").query(fogged).writes(fog).forEachChunk(job -> {
                            ChunkView c = job.chunk();
                            float[] d = c.writeFloats(density);
                            for (int i = 0; i < c.size(); i++) d[i] += 0.01f;
                        })
                        .system("cull").after("thicken").query(lamps).reads(fog).readsResource(Simulation.CLOCK).despawns()
                        .forEachChunk(job -> {
                            ChunkView c = job.chunk();
                            long tick = job.resource(Simulation.CLOCK).tick();
                            for (int i = 0; i < c.size(); i++) {
                                if ((Entity.index(c.entity(i)) + tick) % 9 == 0) job.commands().despawn(c.entity(i));
                            }
                        })
                        .system("replant").readsResource(Simulation.CLOCK).spawns(transform, fog, glow, halo, lampTag)
                        .adds(childOf.column()).forEachRange(() -> 1, (job, from, to) -> {
                            if (job.resource(Simulation.CLOCK).tick() % 3 != 0) return;
                            CommandBuffer commands = job.commands();
                            long l = commands.spawn(lamp);
                            for (int k = 0; k < 2; k++) {
                                long b = commands.spawn(bulb);
                                commands.addPair(b, childOf, l);              // both provisional handles
                                if (k == 0) commands.addPair(commands.spawn(bulb), childOf, b);
                            }
                        }))
                .build();
    }

    @Test
    void shouldKeepEveryNamedInstanceFindableThroughCascadingDespawns() {
        try (Simulation sim = build(2, true)) {
            World world = sim.world();
            Component<Lamp> lampTag = world.component(Lamp.class);
            Component<Light> halo = world.component(Light.class, "Halo", Storage.SPARSE);
            Relation childOf = world.relations().childOf();
            int culledLamps = 0;
            int before = count(world, world.query().with(lampTag).build());
            for (int t = 0; t < 40; t++) {
                sim.tick();
                int lamps = count(world, world.query().with(lampTag).build());
                culledLamps += Math.max(0, before - lamps);
                before = lamps;
                long[] live = liveEntities(world, world.query().with(world.component(Transform.class)).build());
                int halos = 0;
                for (long e : live) {
                    boolean isLamp = world.has(e, lampTag);
                    assertNotNull(world.findComponent(e, "Fog"), Entity.toString(e) + " lost its Fog instance");
                    assertEquals(isLamp, world.findComponent(e, "Halo") != null, Entity.toString(e) + " Halo");
                    assertEquals(!isLamp, world.findComponent(e, "Glow") != null, Entity.toString(e) + " Glow");
                    assertNull(world.findComponent(e, "Bloom"));
                    if (isLamp) {
                        halos++;
                        assertEquals(0.5f, world.get(e, halo).density(), Entity.toString(e));
                        assertEquals(0.5f, ((Number) world.getProperty(e, "Halo", "density")).floatValue());
                    } else {
                        long parent = world.relations().parent(e);
                        assertTrue(world.isAlive(parent), Entity.toString(e) + " outlived its parent");
                        assertEquals(0.7f, ((Number) world.getProperty(e, "Glow", "density")).floatValue());
                    }
                }
                assertEquals(lamps, halos, "tick " + t + ": the sparse Halo set holds exactly the live lamps");
                assertEquals(lamps, count(world, world.query().with(halo).build()), "tick " + t);
                assertEquals(live.length - lamps, world.relations().pairCount(childOf), "tick " + t + ": one pair per child");
            }
            assertTrue(culledLamps > 10, "the cascade ran: " + culledLamps + " lamps culled");
        }
    }

    @Test
    void shouldRunTheSameOnEveryWorkerCountAfterARestoreAndInAReplay() {
        List<String> runs = DeterminismCheck.of(NamedInstancesHierarchyCascadeTest::build).ticks(40).workers(1, 2).run();
        assertTrue(runs.contains("the recording replayed on 2 workers"), runs.toString());
    }

    private static int count(World world, Query q) {
        int[] n = {0};
        q.forEach((c, i) -> n[0]++);
        return n[0];
    }

    private static long[] liveEntities(World world, Query q) {
        long[] out = new long[count(world, q)];
        int[] k = {0};
        q.forEach((c, i) -> out[k[0]++] = c.entity(i));
        return out;
    }
}
