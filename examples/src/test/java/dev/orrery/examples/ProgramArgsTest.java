package dev.orrery.examples;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import org.junit.jupiter.api.Test;

/**
 * The example programs' numeric arguments: the default when absent, one clear message when bad
 * or when there are more than the program takes.
 */
class ProgramArgsTest {
    @Test
    void shouldReadTheArgumentOrTheDefault() {
        assertEquals(240, ProgramArgs.parse(new String[0], 0, "ticks", 240, 1, 1000));
        assertEquals(17, ProgramArgs.parse(new String[] {"17"}, 0, "ticks", 240, 1, 1000));
        assertEquals(120, ProgramArgs.parse(new String[] {"8080"}, 1, "ticks", 120, 1, 1000));
    }

    @Test
    void shouldNameTheArgumentTheRangeAndTheValueWhenItIsBad() {
        for (String bad : new String[] {"abc", "-5", "0", "1001", "99999999999"}) {
            IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                    () -> ProgramArgs.parse(new String[] {bad}, 0, "ticks", 240, 1, 1000));
            assertEquals("ticks (argument 1) must be a whole number from 1 to 1000; got '" + bad + "'", e.getMessage());
        }
    }

    @Test
    void shouldTakeUpToTheNamedArgumentsAndRefuseExtraOnesNamingThem() {
        ProgramArgs.checkAtMost(new String[0], "ticks");
        ProgramArgs.checkAtMost(new String[] {"10"}, "ticks");
        ProgramArgs.checkAtMost(new String[] {"0", "30"}, "port", "ticks");
        IllegalArgumentException one = assertThrows(IllegalArgumentException.class,
                () -> ProgramArgs.checkAtMost(new String[] {"10", "20"}, "ticks"));
        assertEquals("takes at most 1 argument (ticks); got 2: '10' '20'", one.getMessage());
        IllegalArgumentException two = assertThrows(IllegalArgumentException.class,
                () -> ProgramArgs.checkAtMost(new String[] {"0", "30", "--verbose"}, "port", "ticks"));
        assertEquals("takes at most 2 arguments (port, ticks); got 3: '0' '30' '--verbose'", two.getMessage());
    }
}
