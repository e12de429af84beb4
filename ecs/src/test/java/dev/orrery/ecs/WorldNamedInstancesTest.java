package dev.orrery.ecs;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.orrery.ecs.component.Component;
import dev.orrery.ecs.component.StaleEntityException;
import dev.orrery.ecs.prototype.PrototypeIndex;
import java.util.List;
import org.junit.jupiter.api.Test;

class WorldNamedInstancesTest {
    record Transform(float x, float y, float z) {
    }

    record RenderData(float density, int layer) {
    }

    record Health(int hp) {
    }

    record Hidden() {
    }

    static final class Script {
        final String source;

        Script(String source) {
            this.source = source;
        }
    }

    private final World world = new World();
    private final Component<Transform> transform = world.component(Transform.class);
    private final Component<RenderData> fog = world.component(RenderData.class, "Fog");
    private final Component<RenderData> vignette = world.component(RenderData.class, "Vignette");
    private final Component<Health> health = world.component(Health.class);

    private Template lamp() {
        return Template.named("Lamp")
                .with(transform, new Transform(1, 2, 3))
                .with(fog, new RenderData(0.25f, 1))
                .with(vignette, new RenderData(0.75f, 2))
                .build();
    }

    @Test
    void shouldFindEveryInstanceByNameAfterSpawnAddAndRemove() {
        long e = world.spawn(new Transform(0, 0, 0));
        assertSame(transform, world.findComponent(e, "Transform"));
        world.add(e, fog, new RenderData(0.5f, 0));
        world.add(e, vignette);
        assertSame(fog, world.findComponent(e, "Fog"));
        assertSame(vignette, world.findComponent(e, "Vignette"));
        assertTrue(world.remove(e, fog));
        assertNull(world.findComponent(e, "Fog"));
        assertSame(vignette, world.findComponent(e, "Vignette"));
        assertNull(world.findComponent(e, "Nothing"));
        assertEquals(List.of("Transform", "Vignette"), world.storage().namedInstances().namesOf((int) e));
    }

    @Test
    void shouldFollowMoveToAcrossSeveralChangesAtOnce() {
        long e = world.spawn(new Transform(0, 0, 0));
        world.add(e, fog);
        world.moveTo(e, world.storage().archetypes().of(fog, vignette, health));
        assertNull(world.findComponent(e, "Transform"));
        assertSame(fog, world.findComponent(e, "Fog"));
        assertSame(vignette, world.findComponent(e, "Vignette"));
        assertSame(health, world.findComponent(e, "Health"));
    }

    @Test
    void shouldLetOneNameMeanDifferentTypesOnDifferentEntities() {
        Component<Health> fogHealth = world.component(Health.class, "Fog");
        long a = world.spawn();
        long b = world.spawn();
        world.add(a, fog, new RenderData(0.5f, 3));
        world.add(b, fogHealth, new Health(9));
        PropertyHandle layer = world.property("Fog", "layer");
        assertEquals(3, layer.getInt(a));
        IllegalArgumentException ex = assertThrows(IllegalArgumentException.class, () -> layer.getInt(b));
        assertTrue(ex.getMessage().contains("Health:Fog") && ex.getMessage().contains("[hp]"), ex.getMessage());
        assertEquals(9, world.property("Fog", "hp").getInt(b));
    }

    @Test
    void shouldSpawnFromATemplateWithValuesAndNamesInOrder() {
        Template t = lamp();
        long one = world.spawn(t);
        long[] many = world.spawnMany(t, 1000);
        assertEquals(new RenderData(0.75f, 2), world.get(many[999], vignette));
        assertEquals(List.of("Transform", "Fog", "Vignette"), world.storage().namedInstances().namesOf((int) many[500]));
        PrototypeIndex index = world.storage().namedInstances().index();
        assertEquals(index.prototypeOf((int) one), index.prototypeOf((int) many[0]));
        assertEquals(1001, index.references(index.prototypeOf((int) one)));
        assertSame(fog, world.findComponent(many[0], "Fog"));
    }

    @Test
    void shouldRejectADuplicateNameInATemplateNamingTemplateAndName() {
        Component<Health> vignetteHealth = world.component(Health.class, "Vignette");
        Template.Builder b = Template.named("Lamp").with(vignette);
        IllegalArgumentException ex = assertThrows(IllegalArgumentException.class, () -> b.with(vignetteHealth));
        assertTrue(ex.getMessage().contains("'Lamp'") && ex.getMessage().contains("'Vignette'"), ex.getMessage());
    }

    @Test
    void shouldRefuseATemplateFromAnotherWorldAndSpawnNothing() {
        World other = new World();
        Template foreign = Template.named("Foreign").with(other.component(Hidden.class))
                .with(other.component(Health.class)).build();
        IllegalArgumentException ex = assertThrows(IllegalArgumentException.class, () -> world.spawn(foreign));
        assertTrue(ex.getMessage().contains("Foreign"), ex.getMessage());
        assertEquals(0, world.entityCount());
        assertEquals(1, world.storage().namedInstances().index().prototypeCount());
    }

    @Test
    void shouldReadAndWritePropertiesByName() {
        long e = world.spawn(lamp());
        assertEquals(0.25f, world.getProperty(e, "Fog", "density"));
        world.setProperty(e, "Fog", "density", 0.5f);
        world.setProperty(e, "Vignette", "layer", 7);
        assertEquals(new RenderData(0.5f, 1), world.get(e, fog));
        assertEquals(new RenderData(0.75f, 7), world.get(e, vignette));
        assertEquals(2f, world.getProperty(e, "Transform", "y"));
    }

    @Test
    void shouldListTheNamesThatExistWhenAComponentOrFieldIsUnknown() {
        long e = world.spawn(lamp());
        IllegalArgumentException noComponent = assertThrows(IllegalArgumentException.class,
                () -> world.getProperty(e, "Fgo", "density"));
        assertTrue(noComponent.getMessage().contains("[Transform, Fog, Vignette]"), noComponent.getMessage());
        IllegalArgumentException noField = assertThrows(IllegalArgumentException.class,
                () -> world.setProperty(e, "Fog", "dens", 1f));
        assertTrue(noField.getMessage().contains("[density, layer]"), noField.getMessage());
        IllegalArgumentException wrongType = assertThrows(IllegalArgumentException.class,
                () -> world.setProperty(e, "Fog", "layer", "seven"));
        assertTrue(wrongType.getMessage().contains("RenderData:Fog.layer"), wrongType.getMessage());
        assertEquals(new RenderData(0.25f, 1), world.get(e, fog), "failed writes change nothing");
    }

    @Test
    void shouldReadAndWriteThroughAPreResolvedHandle() {
        long[] lamps = world.spawnMany(lamp(), 100);
        PropertyHandle density = world.property("Fog", "density");
        for (int i = 0; i < lamps.length; i++) {
            density.setFloat(lamps[i], i);
        }
        assertEquals(42f, density.getFloat(lamps[42]));
        assertEquals(42f, world.get(lamps[42], fog).density());
        assertEquals(99f, density.get(lamps[99]));
        density.set(lamps[1], 3.5);
        assertEquals(3.5f, density.getFloat(lamps[1]));
        world.despawn(lamps[0]);
        assertThrows(StaleEntityException.class, () -> density.getFloat(lamps[0]));
    }

    @Test
    void shouldWriteAReferenceComponentByName() {
        Component<Script> script = world.referenceComponent(Script.class, "OnHit");
        long e = world.spawn();
        world.add(e, script, new Script("a"));
        world.setProperty(e, "OnHit", "value", new Script("b"));
        assertEquals("b", ((Script) world.getProperty(e, "OnHit", "value")).source);
        assertThrows(IllegalArgumentException.class, () -> world.setProperty(e, "OnHit", "value", "not a script"));
    }

    @Test
    void shouldLeaveOnlyPrototypeZeroAfterEveryoneIsDespawned() {
        long[] lamps = world.spawnMany(lamp(), 50);
        long a = world.spawn(new Transform(0, 0, 0), new Health(3));
        world.add(lamps[3], health);
        world.remove(lamps[4], fog);
        assertTrue(world.storage().namedInstances().index().prototypeCount() > 1);
        for (long e : lamps) {
            world.despawn(e);
        }
        world.despawn(a);
        world.storage().namedInstances().index().reclaimUnused();
        assertEquals(1, world.storage().namedInstances().index().prototypeCount());
        long fresh = world.spawn();
        assertNull(world.findComponent(fresh, "Fog"), "a reused entity slot starts empty");
    }

    @Test
    void shouldKeepTheIndexUnchangedWhenAnAddIsRefused() {
        Component<Health> fogHealth = world.component(Health.class, "Fog");
        long e = world.spawn(lamp());
        PrototypeIndex index = world.storage().namedInstances().index();
        int before = index.prototypeOf((int) e);
        assertThrows(IllegalArgumentException.class, () -> world.add(e, fogHealth));
        assertThrows(IllegalStateException.class, () -> world.add(e, fog));
        assertEquals(before, index.prototypeOf((int) e));
        assertSame(fog, world.findComponent(e, "Fog"));
        world.despawn(e);
        assertThrows(StaleEntityException.class, () -> world.findComponent(e, "Fog"));
    }

    @Test
    void shouldRefuseANullInstanceNameNamingTheCallNotFailInsideTheNameHash() {
        long e = world.spawn(lamp());
        java.util.Map<String, org.junit.jupiter.api.function.Executable> calls = new java.util.LinkedHashMap<>();
        calls.put("findComponent", () -> world.findComponent(e, null));
        calls.put("getProperty", () -> world.getProperty(e, null, "density"));
        calls.put("setProperty", () -> world.setProperty(e, null, "density", 0.5f));
        for (java.util.Map.Entry<String, org.junit.jupiter.api.function.Executable> call : calls.entrySet()) {
            NullPointerException ex = assertThrows(NullPointerException.class, call.getValue(), call.getKey());
            assertTrue(ex.getMessage().startsWith(call.getKey() + ": the instance name is null"), ex.getMessage());
        }
        assertEquals(0.25f, world.getFloat(e, fog.field("density")));
    }
}
