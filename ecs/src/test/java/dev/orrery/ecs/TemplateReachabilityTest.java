package dev.orrery.ecs;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;

import dev.orrery.ecs.component.Component;
import java.lang.ref.Reference;
import java.lang.ref.WeakReference;
import org.junit.jupiter.api.Test;

/**
 * A template remembers what its world resolved it to, so that later spawns look nothing up;
 * that memory must not keep the world (and its archetypes and rows) reachable once the user
 * has dropped the world, yet must last as long as the world does.
 */
class TemplateReachabilityTest {
    record Position(float x, float y) {
    }

    record Velocity(float dx, float dy) {
    }

    /** A world, a template built from its components and spawned into it; only the template is kept strongly. */
    private static final class Dropped {
        final Template template;
        final WeakReference<World> world;

        Dropped() {
            World w = new World();
            Component<Position> pos = w.component(Position.class);
            Component<Velocity> vel = w.component(Velocity.class);
            template = Template.named("mover").with(pos, new Position(1, 2)).with(vel, new Velocity(0, 1)).build();
            w.spawnMany(template, 1_000);
            assertEquals(1_000, w.entityCount());
            world = new WeakReference<>(w);
        }
    }

    @Test
    void shouldLetAWorldGoOnceDroppedThoughATemplateSpawnedIntoIt() throws InterruptedException {
        Dropped d = new Dropped();
        // generous: a loaded machine may need several collections; a pinned world never goes
        for (int i = 0; i < 200 && d.world.get() != null; i++) {
            System.gc();
            Thread.sleep(10);
        }
        assertNull(d.world.get(), "the template '" + d.template.name() + "' keeps the world it spawned into reachable");
        Reference.reachabilityFence(d.template);
    }

    @Test
    void shouldKeepTheResolutionWhileTheWorldLives() {
        World world = new World();
        Component<Position> pos = world.component(Position.class);
        Template template = Template.named("still").with(pos, new Position(3, 4)).build();
        world.spawn(template);
        Template.Prepared first = template.preparedFor(world);
        assertNotNull(first, "resolved by the first spawn");
        for (int i = 0; i < 3; i++) {
            System.gc();
        }
        assertSame(first, template.preparedFor(world), "a collection must not make the next spawn resolve again");
        world.spawn(template);
        assertSame(first, template.preparedFor(world));
        assertEquals(2, world.entityCount());
        Template twin = Template.named("twin").with(pos, new Position(5, 6)).build();
        world.spawn(twin);
        assertSame(first, twin.preparedFor(world), "templates with the same columns in order share one resolution");
        assertEquals(new Position(5, 6), world.get(world.spawn(twin), pos), "each spawns its own values");
    }

    @Test
    void shouldLetATemplateGoOnceDroppedThoughItsWorldLives() throws InterruptedException {
        World world = new World();
        Component<Position> pos = world.component(Position.class);
        WeakReference<Template> dropped = spawnedOnce(world, pos);
        for (int i = 0; i < 200 && dropped.get() != null; i++) {
            System.gc();
            Thread.sleep(10);
        }
        assertNull(dropped.get(), "the world keeps a template it spawned from reachable");
        assertEquals(1, world.entityCount());
    }

    @Test
    void shouldResolveATemplateWithNoComponentsInEachWorldItSpawnsInto() {
        // no component ties it to one world, so two worlds may spawn from it in turn
        Template bare = Template.named("bare").build();
        World a = new World();
        World b = new World();
        a.spawn(bare);
        Template.Prepared inA = bare.preparedFor(a);
        assertNotNull(inA);
        b.spawn(bare);
        assertNull(bare.preparedFor(a), "the template remembers the last world only");
        assertSame(b, bare.preparedFor(b).world);
        a.spawn(bare);
        assertSame(inA, bare.preparedFor(a), "world a kept its resolution and handed it back");
        assertEquals(2, a.entityCount());
        assertEquals(1, b.entityCount());
    }

    private static WeakReference<Template> spawnedOnce(World world, Component<Position> pos) {
        Template t = Template.named("once").with(pos, new Position(7, 8)).build();
        world.spawn(t);
        return new WeakReference<>(t);
    }
}
