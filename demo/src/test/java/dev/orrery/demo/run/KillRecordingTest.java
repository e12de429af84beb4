package dev.orrery.demo.run;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.orrery.demo.Main;
import dev.orrery.engine.RunRecorder;
import dev.orrery.engine.journal.JournalReader;
import dev.orrery.engine.journal.JournalTick;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Kills a real recording JVM ({@code kill -9}) at a random moment, three times, and replays
 * each recording: every complete tick replays, every recorded hash matches, and the replay
 * says in one line that the recording was not closed, with exit status 3.
 */
class KillRecordingTest {
    private static final Pattern CUT = Pattern.compile(
            "orrery-demo: recording ends at tick (\\d+) without a clean close; replayed (\\d+) ticks, (\\d+) recorded "
                    + "hashes matched");

    @Test
    void shouldReplayEveryKilledRecordingToItsLastCompleteTick(@TempDir Path tmp) throws Exception {
        long seed = System.nanoTime();
        Random rnd = new Random(seed);
        String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        String cp = System.getProperty("surefire.test.class.path", System.getProperty("java.class.path"));
        for (int run = 0; run < 3; run++) {
            Path dir = tmp.resolve("run" + run);
            String fsync = new String[] {"tick", "interval", "none"}[run];
            List<String> cmd = new ArrayList<>(List.of(java, "-cp", cp, Main.class.getName(), "--agents", "2000",
                    "--ticks", "0", "--rate", "400", "--threads", "2", "--quiet", "--record", dir.toString(),
                    "--fsync=" + fsync));
            Process p = new ProcessBuilder(cmd).redirectErrorStream(true).redirectOutput(tmp.resolve("out" + run)
                    .toFile()).start();
            Path journal = dir.resolve(RunRecorder.JOURNAL);
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(15);
            while ((!Files.exists(journal) || Files.size(journal) < 200) && System.nanoTime() < deadline
                    && p.isAlive()) {
                Thread.sleep(20);
            }
            assertTrue(p.isAlive(), "the recording JVM ended early: " + Files.readString(tmp.resolve("out" + run)));
            long delay = rnd.nextInt(700);
            Thread.sleep(delay);
            p.destroyForcibly(); // SIGKILL: no shutdown hook, no close
            assertTrue(p.waitFor(10, TimeUnit.SECONDS));
            String what = "run " + run + " (--fsync=" + fsync + ", killed " + delay + " ms in, seed " + seed + ")";

            long[] recorded = recordedTicksAndHashes(journal);
            ExpectedErrorsTest.Outcome o = ExpectedErrorsTest.main("--replay", dir.toString(), "--threads", "1",
                    "--quiet");
            assertEquals(Main.EXIT_RECORDING_CUT, o.status(), what + ": " + o.err() + o.out());
            o.assertOneLineError();
            Matcher m = CUT.matcher(o.err().strip());
            assertTrue(m.matches(), what + ": " + o.err());
            assertEquals(recorded[0], Long.parseLong(m.group(1)), what);
            assertEquals(recorded[0], Long.parseLong(m.group(2)), what);
            assertEquals(recorded[1], Long.parseLong(m.group(3)), what + ": every recorded hash matched");
            assertTrue(recorded[0] > 0 && recorded[1] > 0, what + " recorded nothing to check");
        }
    }

    /** The complete ticks and the hashes recorded in a journal cut short. */
    private static long[] recordedTicksAndHashes(Path journal) throws Exception {
        long ticks = 0;
        long hashes = 0;
        try (JournalReader r = JournalReader.openAllowingCut(journal)) {
            JournalTick t = new JournalTick();
            while (r.nextTick(t)) {
                ticks++;
                hashes += t.hasHash() ? 1 : 0;
            }
        }
        return new long[] {ticks, hashes};
    }

}
