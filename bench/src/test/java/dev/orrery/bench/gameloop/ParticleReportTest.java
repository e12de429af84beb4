package dev.orrery.bench.gameloop;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.orrery.bench.fixture.CommandLineTest;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The particle report's table and ratios from known rows. */
class ParticleReportTest {
    @Test
    void tableGivesRatiosOverTheFlatLoopAndOrreryAndTheWorkerSpeedUp() {
        List<ParticleReport.Row> rows = List.of(
                new ParticleReport.Row(ParticleLoop.ORRERY_2, 100_000, 300, 10, 0),
                new ParticleReport.Row(ParticleLoop.FLAT, 100_000, 100, Double.NaN, Double.NaN),
                new ParticleReport.Row(ParticleLoop.ORRERY_1, 100_000, 450, 20, 8_000),
                new ParticleReport.Row(ParticleLoop.ARTEMIS, 10_000, 50, 1, 16));
        String md = ParticleReport.markdown(rows, "header");
        assertTrue(md.contains("| 100000 | Orrery, README idiom, 1 worker | 450 ± 20.0 | 8000 | 4.50x | 1.00x |"), md);
        assertTrue(md.contains("| 100000 | Orrery, README idiom, 2 workers | 300 ± 10.0 | 0 | 3.00x | 0.67x |"), md);
        assertTrue(md.contains("| 10000 | Artemis-odb 2.3.0 | 50.0 ± 1.00 | 16 | n/a | n/a |"), md);
        assertTrue(md.contains("- 100000 particles, Orrery README idiom: 2 workers 1.50x faster than 1"), md);
        assertTrue(md.indexOf("| 10000 |") < md.indexOf("| 100000 |"), md);
        assertTrue(md.indexOf("| 100000 | flat float[] loop") < md.indexOf("| 100000 | Orrery, README idiom, 1"), md);
    }

    @Test
    void batchingSectionShowsEachOrrerySystemsSplit() {
        String text = ParticleReport.batching(new String[] {"2000"});
        for (String system : new String[] {"move", "respawn", "count"}) {
            assertTrue(text.contains(system + ": adaptive, "), text);
        }
        for (String system : new String[] {"damage", "reap"}) { // run in move's jobs: a chunk pipeline
            assertTrue(text.contains(system + ": fused, runs in the jobs of the pipeline before it"), text);
        }
        assertTrue(text.contains("2000 particles:") && text.contains("rows inline"), text);
    }

    @Test
    void unknownOptionsAreRefusedWithTheList() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> ParticleReport.run(new String[] {"--fast"}));
        assertTrue(e.getMessage().contains("'--fast'") && e.getMessage().contains("--particles"), e.getMessage());
    }

    @Test
    void badOptionsAreOneLineAndExit2BeforeJmhStarts() throws Exception {
        assertEquals("ParticleReport: --particles takes positive whole numbers separated by commas, not '-5'",
                refused("--quick", "--particles", "-5"));
        assertEquals("ParticleReport: --particles takes positive whole numbers separated by commas, not '1000,abc'",
                refused("--particles", "1000,abc"));
        assertEquals("ParticleReport: --forks takes a whole number of 0 or more, not '-1'", refused("--forks", "-1"));
        assertEquals("ParticleReport: unknown option '--bogus'; usage: ParticleReport [--quick] [--particles 10000,100000] "
                + "[--forks 1] [--no-gc] [--out FILE]", refused("--bogus"));
        assertTrue(refused("--out", "/no/such/folder/report.md").startsWith("ParticleReport: --out /no/such/folder/report.md: "
                + "no folder"));
        String usage = CommandLineTest.run(ParticleReport.class, a -> ParticleReport.run(a), "--quick", "--help")
                .assertHelp(ParticleReport.class).out();
        assertTrue(usage.contains("--forks 0 runs in this JVM"), usage);
    }

    private static String refused(String... args) throws Exception {
        return CommandLineTest.run(ParticleReport.class, a -> ParticleReport.run(a), args)
                .assertRefused("ParticleReport").err().strip();
    }
}
