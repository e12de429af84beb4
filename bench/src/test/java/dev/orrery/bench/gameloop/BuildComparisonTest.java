package dev.orrery.bench.gameloop;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.List;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The build comparison loads each build in its own class loader: given this test's own class
 * path twice, both copies run the same simulation (also on 1 and 2 workers), so it must
 * report equal results and a ratio, and it must refuse bad options with a message that names
 * the fix.
 */
class BuildComparisonTest {
    private static final String CLASS_PATH = System.getProperty("java.class.path");

    @Test
    void twoCopiesOfOneBuildAgreeAndGetARatio() throws Throwable {
        String line = BuildComparison.run(new String[] {"--old", CLASS_PATH, "--new", CLASS_PATH,
            "--particles", "2000", "--blocks", "8", "--ticks", "5"});
        assertTrue(line.endsWith("same living count and checksum"), line);
        Matcher m = Pattern.compile("median (\\d+\\.\\d+), interquartile (\\d+\\.\\d+)-(\\d+\\.\\d+)").matcher(line);
        assertTrue(m.find(), line);
        double median = Double.parseDouble(m.group(1));
        assertTrue(median > 0 && Double.parseDouble(m.group(2)) <= median && median <= Double.parseDouble(m.group(3)),
                line);
    }

    @Test
    void twoWorkerCountsOfOneBuildEndTheSame() throws Throwable {
        String line = BuildComparison.run(new String[] {"--old", CLASS_PATH, "--new", CLASS_PATH, "--loop",
            ParticleLoop.ORRERY_FAST_1, "--new-loop", ParticleLoop.ORRERY_FAST_2, "--particles", "2000", "--blocks", "4",
            "--ticks", "5"});
        assertTrue(line.startsWith("orrery-fast-1 (old) against orrery-fast-2 (new), 2000 particles"), line);
        assertTrue(line.endsWith("same living count and checksum"), line);
    }

    @Test
    void refusesMissingBuildsAndUnknownOptions() {
        IllegalArgumentException none = assertThrows(IllegalArgumentException.class,
                () -> BuildComparison.run(new String[] {"--new", CLASS_PATH}));
        assertTrue(none.getMessage().contains("--old JAR --new JAR"), none.getMessage());
        IllegalArgumentException missing = assertThrows(IllegalArgumentException.class,
                () -> BuildComparison.run(new String[] {"--old", "/no/such/benchmarks.jar", "--new", CLASS_PATH}));
        assertTrue(missing.getMessage().contains("/no/such/benchmarks.jar"), missing.getMessage());
        IllegalArgumentException unknown = assertThrows(IllegalArgumentException.class,
                () -> BuildComparison.run(new String[] {"--warmup", "3"}));
        assertEquals("unknown option '--warmup'; usage: BuildComparison --old JAR --new JAR [--loop orrery-fast-1] "
                + "[--new-loop NAME] [--particles 10000] [--blocks 200] [--ticks 50]", unknown.getMessage());
        IllegalArgumentException count = assertThrows(IllegalArgumentException.class,
                () -> BuildComparison.run(new String[] {"--blocks", "0"}));
        assertEquals("--blocks takes a positive whole number, not '0'", count.getMessage());
    }

    /**
     * The old build's loop (two workers: threads) is built before the new build is looked at;
     * when the new one is refused, the old one's worker threads must not be left running.
     */
    @Test
    void closesTheOldBuildWhenTheNewOneIsRefused(@TempDir Path empty) throws Exception {
        Set<Thread> before = Set.copyOf(Thread.getAllStackTraces().keySet());
        IllegalArgumentException refused = assertThrows(IllegalArgumentException.class,
                () -> BuildComparison.run(new String[] {"--old", CLASS_PATH, "--new", empty.toString(), "--loop",
                    ParticleLoop.ORRERY_FAST_2, "--particles", "100"}));
        assertTrue(refused.getMessage().contains("holds no " + ParticleLoop.class.getName()), refused.getMessage());
        List<String> left = Thread.getAllStackTraces().keySet().stream()
                .filter(t -> !before.contains(t) && t.isAlive() && t.getName().startsWith("orrery-worker-"))
                .map(Thread::getName).toList();
        assertEquals(List.of(), left, "worker threads of the old build left running");
    }
}
