package dev.orrery.ecs.component;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.orrery.ecs.hash.NameHash;
import java.util.List;
import org.junit.jupiter.api.Test;

class ComponentRegistryTest {
    record Position(float x, float y, float z) {
    }

    record RenderData(float density, int color) {
    }

    record Frozen() {
    }

    record Named(int id, String label) {
    }

    record Boxed(int a, Integer b) {
    }

    static final class Mesh {
    }

    /** Two names whose FNV-1a hashes (and so their NameHash values) are equal. */
    static final String COLLIDING_A = "name139599";
    static final String COLLIDING_B = "name322382";

    @Test
    void shouldRegisterRecordOfPrimitivesAsValueComponent() {
        ComponentRegistry r = new ComponentRegistry();
        ComponentType<Position> t = r.valueType(Position.class);
        assertEquals(ComponentKind.VALUE, t.kind());
        assertEquals(List.of("x", "y", "z"), t.fieldNames());
        assertEquals(FieldType.FLOAT, t.fieldType(1));
        assertEquals(12, t.rowBytes());
        assertEquals(1, t.fieldIndex("y"));
        Component<Position> c = r.column(t, t.name());
        assertEquals("Position", c.name());
        assertEquals("Position", c.toString());
        assertEquals(3, c.fields().size());
        assertSame(c, c.field("z").component());
        assertEquals(2, c.field("z").index());
        assertEquals("Position.z", c.field("z").toString());
    }

    @Test
    void shouldRegisterRecordWithoutFieldsAsTag() {
        ComponentRegistry r = new ComponentRegistry();
        ComponentType<Frozen> t = r.valueType(Frozen.class);
        assertEquals(ComponentKind.TAG, t.kind());
        assertEquals(0, t.fieldCount());
        assertEquals(0, t.rowBytes());
        assertNull(t.read(t.newArrays(4), 0));
    }

    @Test
    void shouldRegisterAnyClassAsReferenceComponentWithOneObjectSlot() {
        ComponentRegistry r = new ComponentRegistry();
        ComponentType<Mesh> t = r.referenceType(Mesh.class);
        assertEquals(ComponentKind.REFERENCE, t.kind());
        assertEquals(1, t.fieldCount());
        assertEquals(FieldType.OBJECT, t.fieldType(0));
        assertEquals("value", t.fieldName(0));
        Object[] arrays = t.newArrays(2);
        Mesh m = new Mesh();
        t.write(m, arrays, 1);
        assertSame(m, t.read(arrays, 1));
        assertNull(t.read(arrays, 0));
    }

    @Test
    void shouldAcceptRecordWithObjectFieldsAsReferenceComponent() {
        ComponentRegistry r = new ComponentRegistry();
        assertEquals(ComponentKind.REFERENCE, r.referenceType(Named.class).kind());
    }

    @Test
    void shouldRejectRecordWithNonPrimitiveFieldNamingTheField() {
        ComponentRegistry r = new ComponentRegistry();
        IllegalArgumentException ex = assertThrows(IllegalArgumentException.class, () -> r.valueType(Named.class));
        assertTrue(ex.getMessage().contains("'label'"), ex.getMessage());
        assertTrue(ex.getMessage().contains("String"), ex.getMessage());
        assertTrue(ex.getMessage().contains("referenceComponent"), ex.getMessage());
        IllegalArgumentException boxed = assertThrows(IllegalArgumentException.class, () -> r.valueType(Boxed.class));
        assertTrue(boxed.getMessage().contains("'b'"), "a boxed Integer is not a primitive: " + boxed.getMessage());
        assertEquals(0, r.typeCount(), "a refused type must not be registered");
    }

    @Test
    void shouldRejectNonRecordAsValueComponent() {
        ComponentRegistry r = new ComponentRegistry();
        IllegalArgumentException ex = assertThrows(IllegalArgumentException.class, () -> r.valueType(Mesh.class));
        assertTrue(ex.getMessage().contains("not a record"), ex.getMessage());
    }

    @Test
    void shouldRefuseOneClassAsBothValueAndReference() {
        ComponentRegistry r = new ComponentRegistry();
        r.valueType(Position.class);
        assertThrows(IllegalArgumentException.class, () -> r.referenceType(Position.class));
        r.referenceType(Mesh.class);
        ComponentRegistry r2 = new ComponentRegistry();
        r2.referenceType(RenderData.class);
        IllegalArgumentException ex = assertThrows(IllegalArgumentException.class, () -> r2.valueType(RenderData.class));
        assertTrue(ex.getMessage().contains("reference"), ex.getMessage());
    }

    @Test
    void shouldRegisterIdempotently() {
        ComponentRegistry r = new ComponentRegistry();
        ComponentType<Position> t1 = r.valueType(Position.class);
        Component<Position> c1 = r.column(t1, "Position");
        ComponentType<Position> t2 = r.valueType(Position.class);
        Component<Position> c2 = r.column(t2, "Position");
        assertSame(t1, t2);
        assertSame(c1, c2);
        assertSame(r.referenceType(Mesh.class), r.referenceType(Mesh.class));
        assertEquals(2, r.typeCount());
        assertEquals(1, r.columnCount());
    }

    @Test
    void shouldHandOutDenseIdsInRegistrationOrder() {
        ComponentRegistry r = new ComponentRegistry();
        ComponentType<Position> pos = r.valueType(Position.class);
        ComponentType<RenderData> rd = r.valueType(RenderData.class);
        assertEquals(0, pos.id());
        assertEquals(1, rd.id());
        Component<RenderData> fog = r.column(rd, "Fog");
        Component<Position> p = r.column(pos, "Position");
        Component<RenderData> vignette = r.column(rd, "Vignette");
        assertEquals(0, fog.id());
        assertEquals(1, p.id());
        assertEquals(2, vignette.id());
        assertSame(vignette, r.column(2));
        assertSame(rd, r.type(1));
        assertEquals(List.of(fog, p, vignette), r.columns());
        assertThrows(UnsupportedOperationException.class, () -> r.columns().clear());
    }

    @Test
    void shouldGiveEachNamedInstanceItsOwnColumnOfOneType() {
        ComponentRegistry r = new ComponentRegistry();
        ComponentType<RenderData> rd = r.valueType(RenderData.class);
        Component<RenderData> fog = r.column(rd, "Fog");
        Component<RenderData> vignette = r.column(rd, "Vignette");
        assertNotSame(fog, vignette);
        assertSame(fog.type(), vignette.type());
        assertEquals(NameHash.of("Fog"), fog.nameHash());
        assertNotEquals(fog.nameHash(), vignette.nameHash());
        assertEquals("RenderData:Fog", fog.toString());
        assertEquals("Fog", r.nameOf(fog.nameHash()));
        assertEquals("RenderData:Fog.density", fog.field("density").toString());
    }

    @Test
    void shouldAllowOneNameForDifferentTypes() {
        ComponentRegistry r = new ComponentRegistry();
        Component<RenderData> fog = r.column(r.valueType(RenderData.class), "Fog");
        Component<Position> fogPos = r.column(r.valueType(Position.class), "Fog");
        assertNotSame(fog, fogPos);
        assertEquals(fog.nameHash(), fogPos.nameHash());
    }

    @Test
    void shouldRefuseNamesWhoseHashesCollide() {
        assertEquals(NameHash.of(COLLIDING_A), NameHash.of(COLLIDING_B), "test precondition: the names collide");
        ComponentRegistry r = new ComponentRegistry();
        ComponentType<RenderData> rd = r.valueType(RenderData.class);
        Component<RenderData> a = r.column(rd, COLLIDING_A);
        IllegalArgumentException ex = assertThrows(IllegalArgumentException.class, () -> r.column(rd, COLLIDING_B));
        assertTrue(ex.getMessage().contains(COLLIDING_A) && ex.getMessage().contains(COLLIDING_B), ex.getMessage());
        ComponentType<Position> pos = r.valueType(Position.class);
        assertThrows(IllegalArgumentException.class, () -> r.column(pos, COLLIDING_B), "collision across types too");
        assertEquals(1, r.columnCount(), "a refused name must not be registered");
        assertSame(a, r.column(rd, COLLIDING_A));
        assertEquals(COLLIDING_A, r.nameOf(NameHash.of(COLLIDING_B)));
    }

    @Test
    void shouldRefuseEmptyInstanceName() {
        ComponentRegistry r = new ComponentRegistry();
        ComponentType<RenderData> rd = r.valueType(RenderData.class);
        assertThrows(IllegalArgumentException.class, () -> r.column(rd, ""));
        assertThrows(NullPointerException.class, () -> r.column(rd, null));
    }

    @Test
    void shouldNameExistingFieldsWhenAskedForAMissingOne() {
        ComponentRegistry r = new ComponentRegistry();
        Component<Position> c = r.column(r.valueType(Position.class), "Position");
        IllegalArgumentException ex = assertThrows(IllegalArgumentException.class, () -> c.field("w"));
        assertTrue(ex.getMessage().contains("'w'") && ex.getMessage().contains("[x, y, z]"), ex.getMessage());
    }
}
