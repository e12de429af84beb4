package dev.orrery.bench.hierarchy;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.orrery.bench.fixture.CommandLineTest;
import org.junit.jupiter.api.Test;

/**
 * The hierarchy benchmark's parts: the forest has the promised shape, every propagation
 * computes the flat walk's world transforms bit for bit, the fragmenting emulation gives each
 * parent's children an archetype of their own, reparenting there and back restores the
 * transforms, and the report runs.
 */
class HierarchyReportTest {
    @Test
    void forestHasItsShape() {
        Forest f = Forest.standard();
        assertEquals(100_000, f.size());
        assertTrue(f.levels() >= 4 && f.levels() <= 8, f.describe());
        assertTrue(f.parents() > 5_000 && f.parents() < 16_384, f.describe());
        for (int p = 0; p < f.size(); p++) {
            int kids = f.kidStart[p + 1] - f.kidStart[p];
            assertTrue(kids == 0 || kids <= 10, "at most 10 children");
        }
    }

    @Test
    void everyImplementationComputesTheFlatWalksTransforms() {
        Forest f = new Forest(30, 60, 7);
        long expected;
        try (Propagation flat = Propagation.of(Propagation.FLAT, f)) {
            flat.tick();
            expected = flat.checksum();
        }
        for (String name : new String[] {Propagation.LEVEL_1, Propagation.LEVEL_2, Propagation.LEVEL_1_SORTED,
                Propagation.SERIAL, Propagation.SLOT_1, Propagation.SLOT_2}) {
            try (Propagation p = Propagation.of(name, f)) {
                long before = p.checksum();
                for (int t = 0; t < 12; t++) {
                    p.tick(); // past the adaptive batching's inline runs, so 2 workers split
                }
                assertNotEquals(before, p.checksum(), name);
                assertEquals(expected, p.checksum(), name);
            }
        }
        assertThrows(IllegalArgumentException.class, () -> Propagation.of("nested", f));
        try (SlotPropagation fine = new SlotPropagation(f, 2, 16)) {
            fine.tick();
            assertEquals(expected, fine.checksum(), "slot space, levels split 16 slots a job on 2 workers");
            assertTrue(fine.batching().lines().anyMatch(l -> l.startsWith("propagate:") && l.matches(".* in \\d+ jobs")),
                    fine.batching());
        }
    }

    @Test
    void fragmentingLayoutGivesEachParentsChildrenAnArchetypeAndPairsDoNot() {
        Forest f = new Forest(20, 50, 3);
        FragmentingWorld frag = new FragmentingWorld(f);
        TransformWorld pairs = new TransformWorld(f);
        long[] a = HierarchyReport.layoutOf(pairs.world);
        long[] b = HierarchyReport.layoutOf(frag.world);
        assertEquals(2, a[1], "roots and children: two archetypes with rows");
        assertEquals(f.parents() + 1, b[1], "one archetype per parent's children, plus the roots'");
        assertEquals(pairs.childPass(), frag.childPass(), "the same rows either way");
        int[][] plan = f.reparentPlan(40);
        pairs.reparent(plan, 0);
        frag.reparent(plan, 0);
        int mover = plan[0][3];
        assertEquals(pairs.ids[plan[1][3]], pairs.world.relations().parent(pairs.ids[mover]));
        assertEquals(frag.ids[plan[1][3]], frag.world.getLong(frag.ids[mover], frag.parentField));
        pairs.reparent(plan, 1);
        frag.reparent(plan, 1);
        assertEquals(pairs.ids[f.parent[mover]], pairs.world.relations().parent(pairs.ids[mover]));
        assertEquals(f.parent[mover] >= 0 ? frag.ids[f.parent[mover]] : 0,
                frag.world.getLong(frag.ids[mover], frag.parentField));
    }

    @Test
    void reportRunsAndRefusesUnknownOptions() {
        String md = HierarchyReport.run(new String[] {"--trees", "20", "--per-tree", "50", "--quick"});
        assertTrue(md.contains("(c) flat arrays, recursive walk") && md.contains("2 workers over 1"), md);
        assertTrue(md.contains("(d) Orrery slot space") && md.contains("2 workers over 1 (slot space)"), md);
        assertTrue(md.contains("| archetypes (with rows) | 2 |"), md);
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> HierarchyReport.run(new String[] {"--fast"}));
        assertTrue(e.getMessage().contains("'--fast'") && e.getMessage().contains("--trees"), e.getMessage());
    }

    @Test
    void badOptionsAreOneLineAndExit2BeforeAnythingRuns() throws Exception {
        // each would run the full 100 000-entity report if it got past its options
        assertEquals("HierarchyReport: --rounds takes a positive whole number, not '0'\n", refused("--quick", "--rounds", "0"));
        assertEquals("HierarchyReport: --trees takes a positive whole number, not 'abc'\n", refused("--trees", "abc"));
        assertEquals("HierarchyReport: --per-tree needs a value, as in --per-tree 100\n", refused("--per-tree"));
        assertEquals("HierarchyReport: unknown option '--bogus'; usage: HierarchyReport [--trees 1000] [--per-tree 100] "
                + "[--rounds 7] [--quick]\n", refused("--bogus"));
        assertTrue(refused("--trees", "100000", "--per-tree", "100000").contains("give smaller counts"));
        CommandLineTest.run(HierarchyReport.class, a -> HierarchyReport.run(a), "--help")
                .assertHelp(HierarchyReport.class);
    }

    private static String refused(String... args) throws Exception {
        return CommandLineTest.run(HierarchyReport.class, a -> HierarchyReport.run(a), args)
                .assertRefused("HierarchyReport").err().replace("\r\n", "\n");
    }
}
