package dev.orrery.ecs.component;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import org.junit.jupiter.api.Test;

class ComponentTypeTest {
    record AllKinds(boolean flag, byte b, short s, char c, int i, float f, long l, double d) {
    }

    private static final AllKinds SAMPLE = new AllKinds(true, (byte) -7, (short) -300, 'q', -123456, -0.0f,
            Long.MIN_VALUE + 5, Double.MIN_VALUE);

    @Test
    void shouldMapEveryPrimitiveFieldToItsStorageType() {
        ComponentType<AllKinds> t = new ComponentRegistry().valueType(AllKinds.class);
        FieldType[] expected = {FieldType.BOOLEAN, FieldType.BYTE, FieldType.SHORT, FieldType.CHAR, FieldType.INT,
            FieldType.FLOAT, FieldType.LONG, FieldType.DOUBLE};
        for (int i = 0; i < expected.length; i++) {
            assertEquals(expected[i], t.fieldType(i), t.fieldName(i));
        }
        assertEquals(1 + 1 + 2 + 2 + 4 + 4 + 8 + 8, t.rowBytes());
    }

    @Test
    void shouldWriteAndReadBackEveryFieldTypeExactly() {
        ComponentType<AllKinds> t = new ComponentRegistry().valueType(AllKinds.class);
        Object[] arrays = t.newArrays(4);
        t.write(SAMPLE, arrays, 2);
        assertEquals(SAMPLE, t.read(arrays, 2));
        assertEquals(Float.floatToRawIntBits(-0.0f), Float.floatToRawIntBits(((float[]) arrays[5])[2]),
                "negative zero keeps its sign bit");
        assertEquals(new AllKinds(false, (byte) 0, (short) 0, '\0', 0, 0f, 0L, 0d), t.read(arrays, 1),
                "untouched rows read as zero");
    }

    @Test
    void shouldGiveRawBitsOfEachField() {
        ComponentType<AllKinds> t = new ComponentRegistry().valueType(AllKinds.class);
        long[] bits = t.bitsOf(SAMPLE);
        assertArrayEquals(new long[] {1L, -7L, -300L, 'q', -123456L, Float.floatToRawIntBits(-0.0f), Long.MIN_VALUE + 5,
            Double.doubleToRawLongBits(Double.MIN_VALUE)}, bits);
        assertNotEquals(t.bitsOf(new AllKinds(true, (byte) -7, (short) -300, 'q', -123456, 0.0f, Long.MIN_VALUE + 5,
                Double.MIN_VALUE))[5], bits[5], "0.0 and -0.0 differ in bits");
    }

    @Test
    void shouldRoundTripRawBitsThroughEveryFieldType() {
        ComponentType<AllKinds> t = new ComponentRegistry().valueType(AllKinds.class);
        long[] bits = t.bitsOf(SAMPLE);
        Object[] arrays = t.newArrays(8);
        for (int f = 0; f < bits.length; f++) {
            FieldType ft = t.fieldType(f);
            ft.fillBits(arrays[f], 3, 6, bits[f]);
            assertEquals(bits[f], ft.bits(arrays[f], 5), ft.name());
            assertEquals(ft.boxBits(bits[f]), ft.box(arrays[f], 4), ft.name());
            assertEquals(bits[f], ft.bitsOf(ft.box(arrays[f], 3)), ft.name());
            assertEquals(0L, ft.bits(arrays[f], 6), ft.name() + " outside the filled range");
            ft.clear(arrays[f], 4);
            assertEquals(0L, ft.bits(arrays[f], 4), ft.name() + " cleared");
            ft.setBits(arrays[f], 7, bits[f]);
            assertEquals(bits[f], ft.bits(arrays[f], 7), ft.name());
        }
        assertEquals(SAMPLE, t.read(arrays, 5));
    }

    @Test
    void shouldResolvePrimitiveTypesOnly() {
        assertEquals(FieldType.DOUBLE, FieldType.ofPrimitive(double.class));
        assertEquals(null, FieldType.ofPrimitive(Double.class));
        assertEquals(null, FieldType.ofPrimitive(Object.class));
        assertThrows(IllegalStateException.class, () -> FieldType.OBJECT.bits(new Object[1], 0));
    }
}
