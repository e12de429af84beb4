package dev.orrery.ecs.archetype;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.orrery.ecs.component.Component;
import dev.orrery.ecs.component.ComponentRegistry;
import dev.orrery.ecs.component.ComponentType;
import it.unimi.dsi.fastutil.ints.IntList;
import java.util.List;
import org.junit.jupiter.api.Test;

class ArchetypesTest {
    record Position(float x, float y, float z) {
    }

    record Velocity(float x, float y, float z) {
    }

    record RenderData(float density, int color) {
    }

    record Frozen() {
    }

    private final ComponentRegistry registry = new ComponentRegistry();
    private final Archetypes archetypes = new Archetypes(Archetypes.DEFAULT_CHUNK_BYTES);

    private <T extends Record> Component<T> value(Class<T> type) {
        ComponentType<T> t = registry.valueType(type);
        return registry.column(t, t.name());
    }

    @Test
    void shouldStartWithOnlyTheEmptyArchetype() {
        assertEquals(1, archetypes.count());
        assertEquals(0, archetypes.empty().id());
        assertEquals(0, archetypes.empty().columnCount());
        assertSame(archetypes.empty(), archetypes.of());
    }

    @Test
    void shouldRefuseTinyChunkBudget() {
        assertThrows(IllegalArgumentException.class, () -> new Archetypes(128));
    }

    @Test
    void shouldReturnTheSameArchetypeForTheSameColumnSetInAnyOrder() {
        Component<Position> pos = value(Position.class);
        Component<Velocity> vel = value(Velocity.class);
        Archetype a = archetypes.of(pos, vel);
        assertSame(a, archetypes.of(vel, pos));
        assertSame(a, archetypes.withAdded(archetypes.of(vel), pos));
        assertEquals(3, archetypes.count(), "empty, {pos, vel} and {vel}");
    }

    @Test
    void shouldCacheAddAndRemoveEdges() {
        Component<Position> pos = value(Position.class);
        Component<Velocity> vel = value(Velocity.class);
        Archetype p = archetypes.withAdded(archetypes.empty(), pos);
        Archetype pv = archetypes.withAdded(p, vel);
        int count = archetypes.count();
        assertSame(pv, archetypes.withAdded(p, vel));
        assertSame(p, archetypes.withRemoved(pv, vel));
        assertEquals(pv.id(), p.addEdgeTarget(vel.id()));
        assertEquals(p.id(), pv.removeEdgeTarget(vel.id()));
        Archetype v = archetypes.withRemoved(pv, pos);
        assertSame(v, archetypes.withRemoved(pv, pos));
        assertEquals(v.id(), pv.removeEdgeTarget(pos.id()));
        assertEquals(pv.id(), v.addEdgeTarget(pos.id()), "the reverse edge is cached too");
        assertSame(pv, archetypes.withAdded(v, pos));
        assertEquals(count + 1, archetypes.count());
    }

    @Test
    void shouldReturnTheSameArchetypeWhenNothingChanges() {
        Component<Position> pos = value(Position.class);
        Component<Velocity> vel = value(Velocity.class);
        Archetype p = archetypes.of(pos);
        assertSame(p, archetypes.withAdded(p, pos));
        assertSame(p, archetypes.withRemoved(p, vel));
    }

    @Test
    void shouldListArchetypesOfAColumnInCreationOrder() {
        Component<Position> pos = value(Position.class);
        Component<Velocity> vel = value(Velocity.class);
        Component<Frozen> frozen = value(Frozen.class);
        Archetype pv = archetypes.of(pos, vel);
        Archetype v = archetypes.of(vel);
        Archetype pf = archetypes.of(frozen, pos);
        Archetype p = archetypes.of(pos);
        assertEquals(IntList.of(pv.id(), pf.id(), p.id()), archetypes.withColumn(pos.id()));
        assertEquals(IntList.of(pv.id(), v.id()), archetypes.withColumn(vel.id()));
        assertEquals(IntList.of(pf.id()), archetypes.withColumn(frozen.id()));
        assertEquals(IntList.of(), archetypes.withColumn(1000), "an unknown column has no archetypes");
        for (int i = 0; i < archetypes.count(); i++) {
            assertEquals(i, archetypes.get(i).id(), "ids are dense in creation order");
        }
    }

    @Test
    void shouldRefuseTwoInstancesWithOneNameAndCreateNothing() {
        ComponentType<RenderData> rd = registry.valueType(RenderData.class);
        Component<RenderData> fog = registry.column(rd, "Fog");
        Component<RenderData> vignette = registry.column(rd, "Vignette");
        Component<Position> fogPosition = registry.column(registry.valueType(Position.class), "Fog");
        Archetype both = archetypes.of(fog, vignette);
        assertEquals(List.of(fog, vignette), both.components());
        int count = archetypes.count();
        Archetype f = archetypes.of(fog);
        IllegalArgumentException ex = assertThrows(IllegalArgumentException.class,
                () -> archetypes.withAdded(f, fogPosition));
        assertTrue(ex.getMessage().contains("'Fog'"), ex.getMessage());
        assertThrows(IllegalArgumentException.class, () -> archetypes.of(fog, fogPosition));
        assertThrows(IllegalArgumentException.class, () -> archetypes.of(fog, fog));
        assertEquals(count + 1, archetypes.count(), "only the single-column archetype was created");
    }
}
