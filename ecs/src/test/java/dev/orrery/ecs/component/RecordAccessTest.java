package dev.orrery.ecs.component;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

/**
 * A value record's fields go to and from its arrays through one hidden class per record type,
 * shared by every world: writes, raw bits and reads agree with {@link FieldType} for every
 * primitive type, extreme values included.
 */
class RecordAccessTest {
    record Every(boolean z, byte b, short s, char c, int i, float f, long j, double d) {
    }

    private static final Every ODD = new Every(true, (byte) -7, Short.MIN_VALUE, '\uffff', -1, Float.intBitsToFloat(0x7fc00001),
            Long.MIN_VALUE, -0.0);

    @Test
    void shouldWriteReadAndGiveTheBitsOfEveryPrimitiveField() {
        ComponentType<Every> t = ComponentType.ofRecord(0, Every.class);
        Object[] arrays = t.newArrays(4);
        t.write(ODD, arrays, 2);
        long[] bits = new long[t.fieldCount() + 1];
        t.writeBits(ODD, bits, 1);
        for (int k = 0; k < t.fieldCount(); k++) {
            assertEquals(t.fieldType(k).bits(arrays[k], 2), bits[k + 1], "field " + t.fieldName(k));
        }
        assertEquals(0, bits[0], "nothing written before the offset");
        Every back = t.read(arrays, 2);
        assertEquals(ODD, back);
        assertEquals(Float.floatToRawIntBits(ODD.f()), Float.floatToRawIntBits(back.f()), "the NaN's payload survives");
        assertEquals(0xffffL, bits[1 + 3], "a char widens without its sign");
        assertEquals(-7L, bits[1 + 1], "a byte widens with its sign");
        assertArrayEquals(new long[] {0, 0}, new long[] {((long[]) arrays[6])[0], ((long[]) arrays[6])[1]},
                "other rows untouched");
    }

    /**
     * 110 doubles: 220 argument slots, past what the writer that reads every field first takes
     * in one handle, so it writes field by field; the values still go to and from the arrays.
     */
    record Wide(double d0, double d1, double d2, double d3, double d4, double d5, double d6, double d7, double d8,
            double d9, double d10, double d11, double d12, double d13, double d14, double d15, double d16,
            double d17, double d18, double d19, double d20, double d21, double d22, double d23, double d24,
            double d25, double d26, double d27, double d28, double d29, double d30, double d31, double d32,
            double d33, double d34, double d35, double d36, double d37, double d38, double d39, double d40,
            double d41, double d42, double d43, double d44, double d45, double d46, double d47, double d48,
            double d49, double d50, double d51, double d52, double d53, double d54, double d55, double d56,
            double d57, double d58, double d59, double d60, double d61, double d62, double d63, double d64,
            double d65, double d66, double d67, double d68, double d69, double d70, double d71, double d72,
            double d73, double d74, double d75, double d76, double d77, double d78, double d79, double d80,
            double d81, double d82, double d83, double d84, double d85, double d86, double d87, double d88,
            double d89, double d90, double d91, double d92, double d93, double d94, double d95, double d96,
            double d97, double d98, double d99, double d100, double d101, double d102, double d103, double d104,
            double d105, double d106, double d107, double d108, double d109) {
    }

    @Test
    void shouldWriteAndReadARecordTooWideForTheAllFieldsFirstWriter() {
        ComponentType<Wide> t = ComponentType.ofRecord(0, Wide.class);
        double[] v = new double[t.fieldCount()];
        for (int k = 0; k < v.length; k++) {
            v[k] = k * 1.5 - 7;
        }
        Wide w;
        try {
            w = (Wide) Wide.class.getDeclaredConstructors()[0].newInstance(java.util.Arrays.stream(v).boxed().toArray());
        } catch (ReflectiveOperationException e) {
            throw new AssertionError(e);
        }
        Object[] arrays = t.newArrays(3);
        t.write(w, arrays, 1);
        for (int k = 0; k < v.length; k++) {
            assertEquals(v[k], ((double[]) arrays[k])[1], "field " + k);
            assertEquals(0.0, ((double[]) arrays[k])[0], "row 0 untouched, field " + k);
        }
        assertEquals(w, t.read(arrays, 1));
    }

    @Test
    void shouldShareOneHiddenAccessPerRecordClassAcrossWorlds() {
        ComponentType<Every> a = ComponentType.ofRecord(0, Every.class);
        ComponentType<Every> b = ComponentType.ofRecord(5, Every.class);
        RecordAccess x = access(a);
        assertSame(x, access(b), "one access per record class: call sites stay monomorphic across worlds");
        assertTrue(x.getClass().isHidden(), "the handles are constants of a hidden class, not fields: " + x.getClass());
    }

    private static RecordAccess access(ComponentType<?> t) {
        try {
            var f = ComponentType.class.getDeclaredField("access");
            f.setAccessible(true);
            return (RecordAccess) f.get(t);
        } catch (ReflectiveOperationException e) {
            throw new AssertionError(e);
        }
    }
}
