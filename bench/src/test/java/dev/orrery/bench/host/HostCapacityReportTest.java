package dev.orrery.bench.host;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.orrery.engine.Simulation;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** The capacity report: a brief run of every way, its table from known trials, its options. */
@Timeout(value = 120, unit = TimeUnit.SECONDS)
class HostCapacityReportTest {
    private static final long PERIOD = 33_333_333;

    @Test
    void aBriefRunTicksEveryWayAndReportsEachTrial() throws Exception {
        String md = HostCapacityReport.run(new String[] {"--sizes", "100", "--worlds", "8", "--warmup-ms", "200",
                "--measure-ms", "400"});
        for (HostCapacityReport.Mode mode : HostCapacityReport.Mode.values()) {
            assertTrue(md.contains("| 100 | " + mode.label + " | 8 | "), mode + " has a trial row:\n" + md);
        }
        HostCapacityReport.Options o = HostCapacityReport.parse(new String[] {"--worlds", "4", "--warmup-ms", "100",
                "--measure-ms", "300"});
        HostCapacityReport.Trial t = HostCapacityReport.trial(HostCapacityReport.Mode.HOST, 100, 4, o);
        assertTrue(t.ticks() > 0 && t.expected() == 36, "the host ticked the worlds while measuring: " + t);
        assertTrue(t.heapPerWorld() > 0, "a world takes heap: " + t);
    }

    @Test
    void theWorldIsTheSameWhateverTicksIt() {
        long[] hashes = new long[2];
        for (int workers = 1; workers <= 2; workers++) {
            try (Simulation sim = CapacityWorld.build(3, 1000, workers, 30)) {
                for (int i = 0; i < 61; i++) {
                    sim.tick();
                }
                hashes[workers - 1] = sim.lastHash();
            }
        }
        assertEquals(hashes[0], hashes[1], "1 and 2 workers give the same world");
        assertTrue(hashes[0] != 0, "hashed at tick 60");
    }

    @Test
    void tableGivesTheLargestNThatHeldAndTheRatioToOneExecutorPerWorld() {
        var host = new HostCapacityReport.Trial(HostCapacityReport.Mode.HOST, 100, 2000, 120_000, 120_000, 1_000_000,
                9_000_000, 20_000, 15_000, 40_960, 9);
        var exec = new HostCapacityReport.Trial(HostCapacityReport.Mode.EXECUTOR, 100, 250, 15_000, 15_000, 2_000_000,
                30_000_000, 60_000, 20_000, 51_200, 509);
        var failed = new HostCapacityReport.Trial(HostCapacityReport.Mode.HOST, 100, 4000, 100_000, 240_000, 1, 50_000_000,
                1, 1, 1, 9);
        assertTrue(host.holds(PERIOD));
        assertFalse(failed.holds(PERIOD), "lag over a period and too few ticks");
        String md = HostCapacityReport.markdown(List.of(host, exec), List.of(host, failed, exec), PERIOD, "header");
        long capacity = HostCapacityReport.cpuBound(20_000, Runtime.getRuntime().availableProcessors(), 30);
        assertEquals((long) (Runtime.getRuntime().availableProcessors() * 1e9 / (20_000 * 30.0)), capacity, "cores / (20 µs x 30 Hz)");
        assertTrue(md.contains("| 100 | world host | 2000 | 1.00 / 9.00 | 20.0 | 15.0 | " + capacity + " | 40.0 | 9 |"), md);
        assertTrue(md.contains("the host holds 8.0x the worlds of one executor per world"), md);
        assertTrue(md.contains("| largest N at 30 Hz (p99"), "the rate of the run: " + md);
        assertTrue(HostCapacityReport.markdown(List.of(host), List.of(host), 16_666_667, "h").contains(
                "| largest N at 60 Hz (p99"), "--hz 60 is not called 30 Hz");
        assertTrue(md.contains("| 100 | world host | 4000 | 100000 / 240000 | 0.00 / 50.00 | no |"), md);
    }

    @Test
    void optionsAreCheckedAndRoundingKeepsTwoDigits() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> HostCapacityReport.parse(new String[] {"--fast"}));
        assertTrue(e.getMessage().contains("'--fast'") && e.getMessage().contains("--worlds"), e.getMessage());
        IllegalArgumentException hz = assertThrows(IllegalArgumentException.class,
                () -> HostCapacityReport.parse(new String[] {"--hz", "1e9"}));
        assertTrue(hz.getMessage().startsWith("--hz takes a number from 1 to 10000 (") && hz.getMessage().endsWith(
                "not '1e9'"), "a 1 ns period is refused: " + hz.getMessage());
        assertEquals(60, HostCapacityReport.parse(new String[] {"--hz", "60"}).hz());
        // 99999999999 ms at 30 Hz once sized the paced loops' sample arrays past an int: NegativeArraySizeException
        for (String ms : new String[] {"--measure-ms", "--warmup-ms"}) {
            IllegalArgumentException d = assertThrows(IllegalArgumentException.class,
                    () -> HostCapacityReport.parse(new String[] {ms, "99999999999"}));
            assertTrue(d.getMessage().startsWith(ms + " takes a whole number of milliseconds from "), d.getMessage());
        }
        assertEquals(1400, HostCapacityReport.roundTo2Digits(1448));
        assertEquals(97, HostCapacityReport.roundTo2Digits(97));
    }
}
