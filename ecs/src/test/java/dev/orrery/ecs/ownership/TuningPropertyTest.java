package dev.orrery.ecs.ownership;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.function.Executable;

/**
 * Each kind of {@code -Dorrery.*} property (whole number, boolean, boolean defaulting to
 * {@code -ea}) is read strictly: unset gives the default, a good value is taken, and a
 * malformed or out-of-range one fails naming the property, the value, the range and the
 * default, where it used to be ignored or clamped without a word.
 */
class TuningPropertyTest {
    private static final String P = "orrery.test.tuningProperty";

    @AfterEach
    void clear() {
        System.clearProperty(P);
    }

    private static IllegalArgumentException refused(String value, Executable read) {
        System.setProperty(P, value);
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, read);
        assertTrue(e.getMessage().contains("-D" + P + "='" + value + "'"), e.getMessage());
        return e;
    }

    @Test
    void aWholeNumberPropertyTakesItsValueOrItsDefault() {
        assertEquals(10_000L, TuningProperty.longValue(P, 10_000, 0, 1_000_000_000));
        System.setProperty(P, " 2500 ");
        assertEquals(2500L, TuningProperty.longValue(P, 10_000, 0, 1_000_000_000));
        System.setProperty(P, "0");
        assertEquals(0L, TuningProperty.longValue(P, 10_000, 0, 1_000_000_000), "the bottom of the range is in it");
        System.setProperty(P, "1");
        assertEquals(1, TuningProperty.intValue(P, 512, 1, Integer.MAX_VALUE));
    }

    @Test
    void aMalformedOrOutOfRangeWholeNumberIsRefusedNamingRangeAndDefault() {
        for (String bad : new String[] {"abc", "", "10us", "1e4", "-1", "1000000001", "99999999999999999999"}) {
            IllegalArgumentException e = refused(bad, () -> TuningProperty.longValue(P, 10_000, 0, 1_000_000_000));
            assertTrue(e.getMessage().contains("a whole number from 0 to 1000000000"), e.getMessage());
            assertTrue(e.getMessage().contains("default (10000)"), e.getMessage());
        }
        for (String bad : new String[] {"maybe", "0", "-5", "2147483648"}) {
            IllegalArgumentException e = refused(bad, () -> TuningProperty.intValue(P, 512, 1, Integer.MAX_VALUE));
            assertTrue(e.getMessage().contains("from 1 to 2147483647"), e.getMessage());
            assertTrue(e.getMessage().contains("default (512)"), e.getMessage());
        }
    }

    @Test
    void aBooleanPropertyTakesTrueOrFalseAndRefusesAnythingElse() {
        assertTrue(TuningProperty.booleanValue(P, true));
        System.setProperty(P, "FALSE");
        assertFalse(TuningProperty.booleanValue(P, true));
        System.setProperty(P, "true");
        assertTrue(TuningProperty.booleanValue(P, false));
        for (String bad : new String[] {"maybe", "", "yes", "0", "off"}) {
            IllegalArgumentException e = refused(bad, () -> TuningProperty.booleanValue(P, true));
            assertTrue(e.getMessage().contains("give true or false"), e.getMessage());
            assertTrue(e.getMessage().contains("default (true)"), e.getMessage());
        }
    }

    @Test
    void anAssertionSwitchIsForcedOnlyByTrueOrFalse() {
        assertNull(TuningProperty.forcedBoolean(P, "on under -ea, off without"));
        boolean assertions = false;
        assert assertions = true;
        assertEquals(assertions, AssertionSwitch.enabled(P), "unset: on exactly under -ea");
        System.setProperty(P, "false");
        assertFalse(AssertionSwitch.enabled(P));
        System.setProperty(P, "True");
        assertTrue(AssertionSwitch.enabled(P));
        // Boolean.parseBoolean read "ture" as false: a forced check silently off.
        IllegalArgumentException e = refused("ture", () -> AssertionSwitch.enabled(P));
        assertTrue(e.getMessage().contains("on under -ea, off without"), e.getMessage());
    }
}
