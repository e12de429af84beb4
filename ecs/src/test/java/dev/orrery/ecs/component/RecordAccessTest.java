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
