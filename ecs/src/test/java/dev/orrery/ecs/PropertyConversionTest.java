package dev.orrery.ecs;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.orrery.ecs.component.Component;
import dev.orrery.ecs.component.FieldType;
import dev.orrery.ecs.component.Range;
import java.math.BigDecimal;
import java.math.BigInteger;
import org.junit.jupiter.api.Test;

/**
 * Boxed property writes ({@code World.setProperty}, {@code PropertyHandle.set}) convert numbers
 * exactly: a value that does not fit the field's type is refused, never cut to one that
 * passes the field's range.
 */
class PropertyConversionTest {
    record Agent(@Range(min = 0, max = 63) int squad) {
    }

    record Wide(byte b, short s, int i, long l, float f, double d) {
    }

    private final World world = new World();
    private final Component<Agent> agent = world.component(Agent.class);

    {
        world.component(Wide.class);
    }

    private void refused(long e, String component, String field, Object value, String... parts) {
        Object before = world.getProperty(e, component, field);
        IllegalArgumentException x = assertThrows(IllegalArgumentException.class,
                () -> world.setProperty(e, component, field, value), component + "." + field + " = " + value);
        String m = x.getMessage();
        assertTrue(m.startsWith("property " + component + "." + field + " is "), m);
        assertTrue(m.contains("does not fit it"), m);
        for (String p : parts) {
            assertTrue(m.contains(p), m);
        }
        assertEquals(before, world.getProperty(e, component, field), "a refused write changes nothing");
        IllegalArgumentException viaHandle = assertThrows(IllegalArgumentException.class,
                () -> world.property(component, field).set(e, value));
        assertEquals(m, viaHandle.getMessage());
    }

    @Test
    void shouldRefuseAnIntegerThatOnlyFitsTheRangeAfterNarrowing() {
        long e = world.spawn(new Agent(1));
        refused(e, "Agent", "squad", (1L << 32) + 5, "INT", "4294967301 (Long)",
                "a whole number from -2147483648 to 2147483647");
        refused(e, "Agent", "squad", 5_000_000_000L, "5000000000 (Long)");
        refused(e, "Agent", "squad", 1e12, "1.0E12 (Double)");
        refused(e, "Agent", "squad", BigInteger.ONE.shiftLeft(70), "(BigInteger)");
        assertEquals(new Agent(1), world.get(e, agent));
    }

    @Test
    void shouldRefuseAFractionalValueForAnIntegerField() {
        long e = world.spawn(new Agent(1));
        refused(e, "Agent", "squad", 5.9f, "5.9 (Float)", "whole number");
        refused(e, "Agent", "squad", 5.5d, "5.5 (Double)");
        refused(e, "Agent", "squad", new BigDecimal("5.25"), "5.25 (BigDecimal)");
        refused(e, "Agent", "squad", Double.NaN, "NaN");
        refused(e, "Agent", "squad", Double.POSITIVE_INFINITY, "Infinity");
    }

    @Test
    void shouldStillAcceptWholeValuesOfAnyNumberTypeThatFit() {
        long e = world.spawn(new Agent(1));
        world.setProperty(e, "Agent", "squad", 5L);
        assertEquals(5, world.getProperty(e, "Agent", "squad"));
        world.setProperty(e, "Agent", "squad", 6.0);
        assertEquals(6, world.getProperty(e, "Agent", "squad"));
        world.setProperty(e, "Agent", "squad", (byte) 7);
        assertEquals(7, world.getProperty(e, "Agent", "squad"));
        world.setProperty(e, "Agent", "squad", new BigDecimal("8.000"));
        assertEquals(8, world.getProperty(e, "Agent", "squad"));
        // in the type but outside @Range: the range refuses it, as before
        assertThrows(dev.orrery.ecs.component.InvalidFieldValueException.class,
                () -> world.setProperty(e, "Agent", "squad", 64L));
    }

    @Test
    void shouldCheckEachIntegerTypesOwnRange() {
        long e = world.spawn(new Wide((byte) 0, (short) 0, 0, 0, 0, 0));
        refused(e, "Wide", "b", 128, "BYTE", "from -128 to 127");
        world.setProperty(e, "Wide", "b", -128);
        assertEquals((byte) -128, world.getProperty(e, "Wide", "b"));
        refused(e, "Wide", "s", 40_000, "SHORT", "from -32768 to 32767");
        world.setProperty(e, "Wide", "s", 32_767L);
        assertEquals((short) 32_767, world.getProperty(e, "Wide", "s"));
        refused(e, "Wide", "l", 1e19, "LONG");
        refused(e, "Wide", "l", 0x1p63, "LONG"); // one past Long.MAX_VALUE
        world.setProperty(e, "Wide", "l", -0x1p63); // Long.MIN_VALUE exactly
        assertEquals(Long.MIN_VALUE, world.getProperty(e, "Wide", "l"));
        world.setProperty(e, "Wide", "l", Long.MAX_VALUE);
        assertEquals(Long.MAX_VALUE, world.getProperty(e, "Wide", "l"));
    }

    @Test
    void shouldRoundToTheNearestFloatButRefuseAFiniteValueBeyondTheFloatRange() {
        long e = world.spawn(new Wide((byte) 0, (short) 0, 0, 0, 0, 0));
        world.setProperty(e, "Wide", "f", 0.1); // documented: rounded as a (float) cast rounds it
        assertEquals(0.1f, world.getProperty(e, "Wide", "f"));
        world.setProperty(e, "Wide", "f", 3);
        assertEquals(3f, world.getProperty(e, "Wide", "f"));
        world.setProperty(e, "Wide", "f", Double.NEGATIVE_INFINITY); // an infinity stays one
        assertEquals(Float.NEGATIVE_INFINITY, world.getProperty(e, "Wide", "f"));
        refused(e, "Wide", "f", 1e300, "FLOAT", "1.0E300 (Double)", "float range");
        refused(e, "Wide", "d", new BigDecimal("1e400"), "DOUBLE", "double range");
        world.setProperty(e, "Wide", "d", 5_000_000_000L);
        assertEquals(5e9, world.getProperty(e, "Wide", "d"));
    }

    /**
     * A whole number that a {@code double} field cannot hold exactly (a {@code long} beyond
     * 2<sup>53</sup>) is rounded to the nearest {@code double}, as a cast rounds it, not refused:
     * the rule a {@code float} field keeps for an integer beyond 2<sup>24</sup>, now written for
     * the double field too (the chapter and the Javadoc described rounding for float only).
     */
    @Test
    void shouldRoundALongADoubleCannotHoldExactlyAsAFloatFieldRoundsAnIntegerBeyondTwoToThe24() {
        long e = world.spawn(new Wide((byte) 0, (short) 0, 0, 0, 0, 0));
        world.setProperty(e, "Wide", "d", (1L << 53) + 1);
        assertEquals(0x1p53, world.getProperty(e, "Wide", "d")); // 9007199254740993 has no double: the nearest
        world.property("Wide", "d").set(e, Long.valueOf(Long.MAX_VALUE));
        assertEquals(0x1p63, world.getProperty(e, "Wide", "d"));
        world.setProperty(e, "Wide", "d", (1L << 53) + 2); // a double holds it: stored exactly
        assertEquals((double) ((1L << 53) + 2), world.getProperty(e, "Wide", "d"));
        world.setProperty(e, "Wide", "f", (1 << 24) + 1); // the float rule it is consistent with
        assertEquals(0x1p24f, world.getProperty(e, "Wide", "f"));
    }

    @Test
    void shouldKeepRefusingAValueOfAnotherKindNamingTheJavaType() {
        long e = world.spawn(new Agent(1));
        // "Pass a int value" before: an article for the type's name, and what the field takes
        refused(e, "Agent", "squad", "seven", "Pass an int value (a whole number from -2147483648 to 2147483647)");
        refused(e, "Agent", "squad", null, "Pass an int value (a whole number from -2147483648 to 2147483647)");
    }

    @Test
    void fieldTypeBitsOfShouldConvertExactlyOrRefuse() {
        assertEquals(5L, FieldType.INT.bitsOf(5L));
        IllegalArgumentException x = assertThrows(IllegalArgumentException.class, () -> FieldType.INT.bitsOf(5.9));
        assertTrue(x.getMessage().contains("5.9 (Double) does not fit INT"), x.getMessage());
        assertThrows(IllegalArgumentException.class, () -> FieldType.BYTE.bitsOf(200));
        assertEquals(Float.floatToRawIntBits(2.5f), FieldType.FLOAT.bitsOf(2.5));
    }
}
