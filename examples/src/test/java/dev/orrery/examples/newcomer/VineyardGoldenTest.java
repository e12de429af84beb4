package dev.orrery.examples.newcomer;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.orrery.examples.newcomer.VineyardGame.Version;
import dev.orrery.testkit.DeterminismCheck;
import dev.orrery.testkit.DeterminismFailure;
import dev.orrery.testkit.GoldenRecording;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A newcomer guards their own game's behaviour in CI with a golden recording, from the README
 * and the determinism chapter only: the recording of {@link VineyardGame} is committed under
 * {@code src/test/resources/golden/vineyard} and replayed here; then the walkthrough changes the
 * game on purpose and reads what the kit says: a tweaked constant (the replay fails, naming the
 * system, the tick and the component, and how to record again), a reordering of two systems the
 * graph leaves unordered (the replay passes), a renamed system (the replay fails, saying so),
 * and two recordings compared with {@code CompareRecordings} from the command line.
 *
 * <p>To record the golden run again after a change on purpose, as the chapter says: delete the
 * folder, run this class with {@code -Dgolden.record=true}, and commit the folder.
 */
class VineyardGoldenTest {
    static final long TICKS = 60;

    // snippet:keep-golden
    /** Committed with the game's sources; Maven runs a module's tests in the module's folder. */
    static final Path GOLDEN = Path.of("src/test/resources/golden/vineyard");

    @Test
    void theCommittedRecordingReplays() {
        if (Boolean.getBoolean("golden.record")) {   // -Dgolden.record=true on the test run, the folder deleted
            GoldenRecording.record(new VineyardGame(), VineyardGame.GARDENER_SCRIPT, TICKS, GOLDEN);
        }
        GoldenRecording.assertReplays(GOLDEN, new VineyardGame());
    }
    // end:keep-golden

    @Test
    void theGameIsDeterministic() {
        List<String> runs = DeterminismCheck.of(new VineyardGame()).ticks(TICKS).workers(1, 2)
                .inputs(VineyardGame.GARDENER_SCRIPT).run();
        assertTrue(runs.size() > 4, runs.toString());
    }

    @Test
    void aTweakedConstantFailsTheReplayNamingTheSystemTheTickAndTheComponent() {
        Version faster = new Version(0.06f, false, "ripen");
        DeterminismFailure f = assertThrows(DeterminismFailure.class,
                () -> GoldenRecording.assertReplays(GOLDEN, (w, p) -> VineyardGame.build(w, p, faster)));
        String m = f.getMessage();
        assertEquals("ripen", f.system(), m);
        assertTrue(m.contains("first difference after system 'ripen'"), m);
        assertTrue(m.contains("at tick 0") && m.contains("components that differ: [Grapes]"), m);
        assertTrue(m.contains("delete the folder " + GOLDEN + ", record it again"), m);   // the fix, and where
    }

    @Test
    void declaringTwoUnorderedSystemsTheOtherWayRoundReplaysTheSame() {
        Version swapped = new Version(Version.FIRST.ripenRate(), true, "ripen");
        GoldenRecording.assertReplays(GOLDEN, (w, p) -> VineyardGame.build(w, p, swapped));
    }

    @Test
    void aRenamedSystemFailsTheReplayNamingTheRename() {
        Version renamed = new Version(Version.FIRST.ripenRate(), false, "ripening");
        DeterminismFailure f = assertThrows(DeterminismFailure.class,
                () -> GoldenRecording.assertReplays(GOLDEN, (w, p) -> VineyardGame.build(w, p, renamed)));
        String m = f.getMessage();
        assertTrue(m.contains("no system 'ripen' of the snapshot's") && m.contains("no system 'ripening'"), m);
        assertTrue(m.contains("delete the folder " + GOLDEN + ", record it again"), m);
    }

    @Test
    void compareRecordingsFromTheCommandLineNamesTheSystemAndExitsWithOne(@TempDir Path tmp) throws Exception {
        Version faster = new Version(0.06f, false, "ripen");
        Path changed = tmp.resolve("faster");
        GoldenRecording.record((w, p) -> VineyardGame.build(w, p, faster), VineyardGame.GARDENER_SCRIPT, TICKS, changed);

        List<String> out = new ArrayList<>();
        int status = compare(out, "--game", VineyardGame.class.getName(), GOLDEN.toString(), changed.toString());
        String text = String.join("\n", out);
        assertEquals(1, status, text);
        assertTrue(text.contains("state: first differs at tick 0"), text);
        assertTrue(text.contains("system: first difference after system 'ripen' at tick 0"), text);
        assertTrue(text.contains("components: [Grapes] differ"), text);
        assertTrue(text.contains("Grapes.picked"), text);

        Path again = tmp.resolve("again");
        GoldenRecording.record(new VineyardGame(), VineyardGame.GARDENER_SCRIPT, TICKS, again);
        out.clear();
        assertEquals(0, compare(out, GOLDEN.toString(), again.toString()), String.join("\n", out));

        Path renamed = tmp.resolve("renamed");                      // the same behaviour, a system named otherwise
        GoldenRecording.record((w, p) -> VineyardGame.build(w, p, new Version(0.05f, false, "ripening")),
                VineyardGame.GARDENER_SCRIPT, TICKS, renamed);
        out.clear();
        assertEquals(0, compare(out, GOLDEN.toString(), renamed.toString()), String.join("\n", out));
        assertTrue(out.contains("systems: a has [ripen] that b has not, b has [ripening] that a has not (renamed, added "
                + "or removed); a recording replays only into a game with its own systems, so a golden recording of "
                + "one version fails in the other at tick 0 even where the states agree"), String.join("\n", out));
    }

    /** Runs {@code CompareRecordings} in a JVM of its own, as the chapter's shell block does; its exit status. */
    private static int compare(List<String> out, String... args) throws IOException, InterruptedException {
        List<String> command = new ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-cp", System.getProperty("java.class.path"), "dev.orrery.testkit.CompareRecordings"));
        command.addAll(List.of(args));
        Process p = new ProcessBuilder(command).redirectErrorStream(true).start();
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        p.getInputStream().transferTo(bytes);
        assertTrue(p.waitFor(5, TimeUnit.MINUTES), "CompareRecordings did not end");
        out.addAll(bytes.toString(StandardCharsets.UTF_8).lines().toList());
        return p.exitValue();
    }
}
