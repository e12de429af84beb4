package dev.orrery.bench.gameloop;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.orrery.bench.fixture.CommandLineTest;
import org.junit.jupiter.api.Test;

/** The particle scaling report's command line: checked before any loop is built. */
class ParticleScalingReportTest {
    @Test
    void shouldRefuseADurationWhoseNanosecondsOverflowInsteadOfReportingANegativeRepetition() throws Exception {
        // Before, --rep-ms 9223372036855 ran and printed "1 reps of -9223372036854 ms" with figures from no measuring.
        for (String ms : new String[] {"--rep-ms", "--warmup-ms"}) {
            String err = CommandLineTest.run(ParticleScalingReport.class, ParticleScalingReport::run, "--particles", "10",
                    "--workers", "1", "--reps", "1", ms, "9223372036855").assertRefused("ParticleScalingReport").err();
            assertEquals("ParticleScalingReport: " + ms + " takes a whole number of milliseconds from "
                    + (ms.equals("--rep-ms") ? 1 : 0) + " to 3600000 (an hour), not '9223372036855'", err.strip());
        }
    }
}
