package dev.orrery.bench.peers;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.junit.jupiter.api.Test;

/** The peer report: its table from known rows, and one quick in-process run of every benchmark. */
class PeerReportTest {
    @Test
    void tableGivesEachPeersTimeOverOrrerysPerWorkload() {
        List<PeerReport.Row> rows = List.of(
                new PeerReport.Row("create", PeerWorld.DOMINION, 40, 2, 126),
                new PeerReport.Row("create", PeerWorld.ORRERY, 400, 20, 500),
                new PeerReport.Row("move", PeerWorld.ORRERY, 0.7, Double.NaN, Double.NaN),
                new PeerReport.Row("move", PeerWorld.ARTEMIS, 8.4, 0.5, 0));
        String md = PeerReport.markdown(rows, "header");
        assertTrue(md.contains("| create one by one (Position + Velocity) | Orrery | 400 ± 20 | 500 | reference |"), md);
        assertTrue(md.contains("| Dominion | 40.0 ± 2.0 | 126 | Dominion / Orrery = 0.10x |"), md);
        assertTrue(md.contains("| iterate p += v * dt | Artemis | 8.40 ± 0.50 | 0.0 | Artemis / Orrery = 12x |"), md);
        assertTrue(md.contains("| iterate p += v * dt | Orrery | 0.70 | n/a | reference |"), md);
        // workload order is fixed (create before iterate), whatever order JMH returned
        assertTrue(md.indexOf("| create") < md.indexOf("| iterate"), md);
    }

    @Test
    void unknownOptionsAreRefusedWithTheList() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> PeerReport.run(new String[] {"--fast"}));
        assertTrue(e.getMessage().contains("'--fast'") && e.getMessage().contains("--quick"), e.getMessage());
    }

    @Test
    void quickRunMeasuresEveryLibraryOnEveryWorkloadWithItsChecks() throws Exception {
        // in this JVM, small and without the profiler: seconds, not minutes
        String md = PeerReport.run(new String[] {"--quick", "--entities", "2000", "--forks", "0", "--no-gc"});
        long lines = md.lines().filter(l -> l.startsWith("| ") && !l.startsWith("| workload") && !l.startsWith("| ---")).count();
        assertEquals(7 + 4 + 4, lines, md); // create: 4 Orrery ways (one bulk) + 3; add+remove: table, sparse + 2; iterate
        assertTrue(md.contains("| add Extra to each, then remove it, one by one | Artemis |"), md);
        assertTrue(md.contains("Dominion / Orrery = "), md);
        assertTrue(md.contains("| iterate p += v * dt | flat float[] |"), md);
    }
}
