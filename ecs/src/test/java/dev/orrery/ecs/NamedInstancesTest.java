package dev.orrery.ecs;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.orrery.ecs.component.Component;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Several instances of one component type on one entity, told apart by instance name. */
class NamedInstancesTest {
    record RenderData(float density, int color) {
    }

    record Position(float x, float y, float z) {
    }

    private final World world = new World();
    private final Component<RenderData> fog = world.component(RenderData.class, "Fog");
    private final Component<RenderData> vignette = world.component(RenderData.class, "Vignette");

    @Test
    void shouldHoldTwoInstancesOfOneTypeWithSeparateValues() {
        long e = world.entity().with(fog, new RenderData(0.25f, 0x808080)).with(vignette, new RenderData(0.75f, 0)).spawn();
        assertEquals(new RenderData(0.25f, 0x808080), world.get(e, fog));
        assertEquals(new RenderData(0.75f, 0), world.get(e, vignette));
        world.setFloat(e, fog.field("density"), 0.5f);
        assertEquals(0.5f, world.getFloat(e, fog.field("density")));
        assertEquals(0.75f, world.getFloat(e, vignette.field("density")), "writing Fog left Vignette alone");
        assertEquals(2, world.archetypeOf(e).columnCount());
        assertTrue(world.remove(e, fog));
        assertEquals(new RenderData(0.75f, 0), world.get(e, vignette));
        assertFalse(world.has(e, fog));
    }

    @Test
    void shouldAddAndQueryInstancesByName() {
        long a = world.spawn();
        long b = world.spawn();
        world.add(a, fog, new RenderData(1, 1));
        world.add(a, vignette, new RenderData(2, 2));
        world.add(b, vignette, new RenderData(3, 3));
        Query withFog = world.query().with(fog).build();
        Query vignetteOnly = world.query().with(vignette).without(fog).build();
        List<Long> fogs = new ArrayList<>();
        withFog.forEach((c, row) -> fogs.add(c.entity(row)));
        assertEquals(List.of(a), fogs);
        List<Float> densities = new ArrayList<>();
        vignetteOnly.forEachChunk(c -> densities.add(c.readFloats(vignette.field("density"))[0]));
        assertEquals(List.of(3f), densities);
    }

    @Test
    void shouldTreatTheUnnamedFormAsAnInstanceNamedAfterTheType() {
        Component<RenderData> plain = world.component(RenderData.class);
        assertEquals("RenderData", plain.name());
        assertSame(plain, world.component(RenderData.class, "RenderData"));
        assertNotSame(plain, fog);
        long e = world.spawn(new RenderData(9, 9));
        world.add(e, fog, new RenderData(1, 1));
        assertEquals(new RenderData(9, 9), world.get(e, plain));
        assertEquals(new RenderData(1, 1), world.get(e, fog));
    }

    @Test
    void shouldRejectTwoInstancesWithOneNameAndLeaveTheWorldUnchanged() {
        Component<Position> fogPosition = world.component(Position.class, "Fog");
        world.component(Position.class); // the unnamed column too, on purpose: a bare Position spawns into it
        long e = world.entity().with(fog, new RenderData(1, 2)).spawn();
        long other = world.spawn(new Position(1, 1, 1));
        // make sure the target archetypes of the refused operations do not exist yet either
        long hash = world.stateHash();
        int archetypes = world.storage().archetypes().count();

        IllegalArgumentException add = assertThrows(IllegalArgumentException.class,
                () -> world.add(e, fogPosition, new Position(0, 0, 0)));
        assertTrue(add.getMessage().contains("'Fog'"), add.getMessage());
        IllegalArgumentException build = assertThrows(IllegalArgumentException.class,
                () -> world.entity().with(fog).with(fogPosition).spawn());
        assertTrue(build.getMessage().contains("'Fog'"), build.getMessage());
        assertThrows(IllegalArgumentException.class, () -> world.entity().with(fogPosition).with(fog).spawnMany(5));

        assertEquals(hash, world.stateHash(), "no entity, archetype or value changed");
        assertEquals(archetypes, world.storage().archetypes().count());
        assertEquals(2, world.entityCount());
        assertEquals(new RenderData(1, 2), world.get(e, fog));
        assertFalse(world.has(e, fogPosition));
        assertTrue(world.isAlive(other));
    }

    @Test
    void shouldRejectTheSameColumnTwiceInOneBuilder() {
        IllegalArgumentException ex = assertThrows(IllegalArgumentException.class,
                () -> world.entity().with(fog).with(fog, new RenderData(1, 1)));
        assertTrue(ex.getMessage().contains("RenderData:Fog"), ex.getMessage());
        assertEquals(0, world.entityCount());
    }

    @Test
    void shouldRefuseABareValueOfATypeWithNamedInstancesNamingThem() {
        int columns = world.columns().size();
        long before = world.stateHash();
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> world.spawn(new RenderData(1, 2)));
        assertTrue(e.getMessage().contains("named instances Fog, Vignette")
                && e.getMessage().contains("world.component(RenderData.class)"), e.getMessage());
        assertEquals(columns, world.columns().size(), "no third RenderData column was registered");
        assertEquals(before, world.stateHash(), "nothing was spawned");
        assertEquals(0, world.entityCount());
    }
}
