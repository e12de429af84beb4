package dev.orrery.demo.run;

import static org.junit.jupiter.api.Assertions.assertTrue;

import com.code_intelligence.jazzer.junit.FuzzTest;
import dev.orrery.demo.arena.ArenaConfig;
import java.io.IOException;

/**
 * Coverage-guided fuzzing of the recording parameters reader ({@link RecordingParameters#parse}):
 * whatever the bytes, the only outcome is an arena configuration in range or one
 * {@link IOException} in one line naming the file; never another exception. {@code mvn verify}
 * runs the committed corpus ({@code RecordingParametersFuzzTestInputs/parseParameters}); a
 * longer run is described in docs/design/engine-and-cluster.md.
 */
class RecordingParametersFuzzTest {
    private static final String NAME = "rec/" + RecordingParameters.FILE;

    @FuzzTest(maxDuration = "10m")
    void parseParameters(byte[] data) {
        try {
            ArenaConfig c = RecordingParameters.parse(NAME, data);
            assertTrue(c.agents() >= 1 && c.agents() <= 10_000_000 && c.teams() >= 2 && c.teams() <= 8, c.toString());
        } catch (IOException e) {
            String m = e.getMessage();
            assertTrue(m != null && m.contains(NAME) && !m.contains("\n") && !m.contains("\r") && m.length() < 600,
                    String.valueOf(m));
        }
    }
}
