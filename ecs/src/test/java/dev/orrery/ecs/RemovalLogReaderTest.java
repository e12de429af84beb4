package dev.orrery.ecs;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.orrery.ecs.component.Component;
import org.junit.jupiter.api.Test;

/**
 * A removal log loses nothing silently and keeps nothing for good: a reader that reads less
 * often than the log keeps entries is told it missed some ({@link RemovedEntities#missed}),
 * also after a snapshot; and a world that a loop of its own drives, without a schedule, keeps
 * the last two runs' entries once the loop calls {@link World#retireRemovals}, allocating
 * nothing once warm.
 */
class RemovalLogReaderTest {
    record Hp(int value) {
    }

    @Test
    void aReaderThatReadsWithinTheWindowMissesNothingAndOneThatSkipsMoreIsTold() {
        World w = new World();
        Component<Hp> hp = w.component(Hp.class);
        w.trackRemoved(hp);
        RemovedEntities gone = w.changes().removed(hp);
        long[] since = new long[6];  // the last read of a reader of every run, and of one every k runs
        int[] seen = new int[6];
        int runs = 30;
        for (int run = 1; run <= runs; run++) {
            w.retireRemovals();
            w.despawn(w.spawn(new Hp(run)));
            for (int every : new int[] {1, 3, 5}) {
                if (run % every != 0) {
                    continue;
                }
                gone.since(since[every]);
                if (every == 5) {
                    assertTrue(gone.missed(), "run " + run + ": the log kept " + gone.count() + " of the 5 removals "
                            + "made since this reader's last read (it keeps two runs before this one), and must say "
                            + "the others went unread");
                    assertTrue(gone.count() < every, "run " + run + ": " + gone.count());
                } else {
                    assertFalse(gone.missed(), "run " + run + ": a reader of every " + every + " runs reads within "
                            + "the log's window and misses nothing");
                }
                seen[every] += gone.count();
                since[every] = w.changes().clock().advance();
            }
        }
        assertEquals(runs, seen[1], "the reader of every run saw every removal once");
        assertEquals(runs, seen[3], "the reader of every third run saw every removal once");
        assertFalse(gone.since(w.changes().clock().now()).missed(), "a window after the newest retired entry");
        assertTrue(gone.since(0).missed(), "a window from tick 0 reaches past what the log keeps");
    }

    @Test
    void whatAReaderMissedReadsTheSameAfterASnapshot() {
        World w = new World();
        Component<Hp> hp = w.component(Hp.class);
        w.trackRemoved(hp);
        long reader = w.changes().clock().now();
        for (int run = 0; run < 5; run++) {
            w.retireRemovals();
            w.despawn(w.spawn(new Hp(run)));
        }
        RemovedEntities gone = w.changes().removed(hp).since(reader);
        assertTrue(gone.missed(), "the test needs a reader that missed entries");
        long newestRetired = w.changes().retiredThrough(hp.id());
        byte[] bytes = new WorldSnapshot().write(w);

        World r = new World();
        Component<Hp> rhp = r.component(Hp.class);
        new WorldSnapshot().read(bytes, r);
        RemovedEntities restored = r.changes().removed(rhp).since(reader);
        assertEquals(gone.count(), restored.count());
        assertTrue(restored.missed(), "a restored run tells the same reader it missed entries, as the original did");
        assertFalse(r.changes().removed(rhp).since(newestRetired).missed(), "and not one past the newest retired");
    }

    @Test
    void aLoopWithoutAScheduleKeepsTheLastTwoRunsOfRemovalsNotEveryOne() {
        World w = new World();
        Component<Hp> hp = w.component(Hp.class);
        w.trackRemoved(hp);
        int iterations = 10_000;
        for (int i = 0; i < iterations; i++) { // a user's own loop: one despawn per iteration
            w.despawn(w.spawn(new Hp(i)));
            w.retireRemovals();
        }
        int kept = w.changes().removed(hp).since(0).count();
        assertTrue(kept <= 2 * ChangeTracker.RETAINED_RUNS, "the log keeps the last runs' removals, not all "
                + iterations + ": " + kept + " kept");
        assertTrue(kept >= 1, "the last run's removal is still readable: " + kept);
    }

    @Test
    void aWarmLoopWithoutAScheduleAllocatesNothingForItsRemovalLog() {
        World w = new World();
        Component<Hp> hp = w.component(Hp.class);
        w.trackRemoved(hp);
        RemovedEntities gone = w.changes().removed(hp);
        Hp value = new Hp(1);
        long[] ids = new long[1_000];
        ThreadAllocation meter = ThreadAllocation.ofCurrentThread();
        long sum = 0;
        long before = 0;
        for (int iteration = 0; iteration < 200; iteration++) {
            if (iteration == 100) {
                before = meter.bytes();
            }
            for (int i = 0; i < ids.length; i++) {
                ids[i] = w.spawn(value);
            }
            for (long id : ids) {
                w.despawn(id);
            }
            sum += gone.since(0).count() + (gone.missed() ? 1 : 0);
            w.retireRemovals();
        }
        long allocated = meter.bytes() - before;
        assertTrue(sum > 0, "the loop read its removals");
        assertTrue(allocated < 1_024, allocated + " bytes allocated over 100 warm iterations of 1 000 despawns");
    }

    @Test
    void retiringInsideAQueryIsRefusedNamingTheFix() {
        World w = new World();
        Component<Hp> hp = w.component(Hp.class);
        w.trackRemoved(hp);
        w.spawn(new Hp(1));
        IllegalStateException e = assertThrows(IllegalStateException.class,
                () -> w.query().with(hp).build().forEachChunk(c -> w.retireRemovals()));
        assertTrue(e.getMessage().contains("retireRemovals") && e.getMessage().contains("outside"), e.getMessage());
    }

    /**
     * The run count survives 2^31 runs: a tight loop of its own that calls
     * {@link World#retireRemovals} every iteration gets there in minutes, a schedule run fast in
     * hours. The count used to be an int, which then went negative: the log stopped retiring
     * (its cut-off was 0 below two runs) and the next call failed with an index of -1. The
     * count is set as a snapshot restores it, as a loop that long would leave it.
     */
    @Test
    void theLogKeepsRetiringPastTwoToTheThirtyFirstRuns() {
        World w = new World();
        Component<Hp> hp = w.component(Hp.class);
        w.trackRemoved(hp);
        long now = w.changes().clock().advance();
        w.changes().restoreRetireState(new long[] {Integer.MAX_VALUE - 1, now, now});
        RemovedEntities gone = w.changes().removed(hp);
        for (int run = 0; run < 8; run++) {
            w.retireRemovals();
            w.despawn(w.spawn(new Hp(run)));
            assertTrue(gone.since(0).count() <= 3, "run " + run + " after 2^31: the log kept " + gone.since(0).count()
                    + " entries, more than the two runs it keeps");
        }
        long[] state = w.changes().retireState();
        assertEquals(Integer.MAX_VALUE - 1 + 8L, state[0], "the run count went on counting");
    }
}
