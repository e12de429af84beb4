package dev.orrery.cluster.world;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.orrery.cluster.DriftWorldAccess;
import dev.orrery.cluster.store.DirectoryWorldStore;
import dev.orrery.cluster.store.JournalSegment;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * With snapshot retention, a world's store stops growing: 3 000 ticks with an input every tick
 * (of a type the world ignores, so the world itself keeps its size), a move every 110 ticks
 * for the first 1 500 (crashes and hand-offs alternating, so fenced and cut segments pile
 * up), then none (one incarnation, whose journal goes on in a new segment at each snapshot),
 * sampled every 100 ticks. After the first 600 ticks the store never holds more
 * than its documented bound ({@link WorldSettings}): K snapshots, the journal ticks from the
 * oldest of them on, 17 epoch markers; its size in the last third is no larger than in the
 * middle third; and the world still verifies against its journal from the oldest snapshot,
 * with retries of recent inputs answered from the window.
 */
class StoreRetentionTest {
    private static final String WORLD = "kept";
    private static final WorldBlueprint BLUEPRINT = new DriftWorldAccess().blueprint();
    private static final int EVERY = 20;
    private static final int KEEP = 2;
    /** An input type the drift world ignores: journaled and de-duplicated, but the world keeps its size. */
    private static final int NOTE = 1;

    @TempDir
    Path dir;

    @Test
    void theStoreStopsGrowing() throws IOException {
        DirectoryWorldStore store = new DirectoryWorldStore(dir);
        WorldSettings settings = WorldSettings.defaults().withSnapshotEvery(EVERY).withKeepSnapshots(KEEP);
        WorldRuntime w = WorldRuntime.open(WORLD, store, BLUEPRINT, settings);
        long seq = 0;
        List<long[]> samples = new ArrayList<>(); // {tick, bytes, files}
        int moves = 0;
        for (int t = 1; t <= 3000; t++) {
            w.offer(9, ++seq, 1, NOTE, DriftWorldAccess.push((int) seq));
            w.tick();
            if (t % 110 == 0 && t <= 1500) {
                if (moves++ % 2 == 0) {
                    w.abandon();
                } else {
                    w.close();
                }
                w = WorldRuntime.open(WORLD, store, BLUEPRINT, settings);
            }
            if (t % 100 == 0) {
                DirectoryWorldStore.Usage u = store.usage(WORLD);
                samples.add(new long[] {t, u.bytes(), u.files()});
                if (t > 600) {
                    checkBound(store, w.currentTick(), w.epoch());
                }
            }
        }
        long middle = 0;
        long last = 0;
        for (long[] s : samples) {
            if (s[0] > 1000 && s[0] <= 2000) {
                middle = Math.max(middle, s[1]);
            } else if (s[0] > 2000) {
                last = Math.max(last, s[1]);
            }
        }
        System.out.printf("StoreRetentionTest: %d moves; store of the world at ticks 1000, 2000, 3000: %d, %d, %d bytes; "
                + "largest in ticks 1001-2000 %d, in 2001-3000 %d; %d files deleted by the last incarnation%n", moves,
                sample(samples, 1000)[1], sample(samples, 2000)[1], sample(samples, 3000)[1], middle, last,
                w.filesDeleted());
        assertTrue(last <= middle * 1.1, "the store grows: largest " + middle + " bytes in ticks 1001-2000, " + last
                + " in 2001-3000");
        for (long s = seq - 100; s <= seq; s++) {
            assertEquals(WorldRuntime.Offer.Verdict.APPLIED, w.offer(9, s, 1, NOTE,
                    DriftWorldAccess.push((int) s)).verdict(), "retry of " + s);
        }
        w.close();
        WorldVerifier.Report r = WorldVerifier.verify(store, WORLD, BLUEPRINT);
        assertTrue(r.ok() && r.fromSnapshot() > 2800, r.describe());
    }

    private static long[] sample(List<long[]> samples, long tick) {
        return samples.stream().filter(s -> s[0] == tick).findFirst().orElseThrow();
    }

    /** The documented bound: at most K snapshots, journal ticks from the oldest on, 17 epoch markers. */
    private static void checkBound(DirectoryWorldStore store, long now, long epoch) throws IOException {
        int snapshots = store.snapshots(WORLD).size();
        assertTrue(snapshots <= KEEP, "at tick " + now + ": " + snapshots + " snapshots stored, more than " + KEEP);
        long oldest = Long.MAX_VALUE;
        for (var s : store.snapshots(WORLD)) {
            oldest = Math.min(oldest, s.tick());
        }
        List<JournalSegment> segments = store.segments(WORLD);
        long firstStart = segments.get(0).startTick();
        assertTrue(firstStart >= oldest - EVERY - 110, "at tick " + now + " the journal starts at "
                + firstStart + ", far before the oldest snapshot kept (" + oldest + "): " + segments);
        assertTrue(oldest >= now - (KEEP + 1) * EVERY, "at tick " + now + " the oldest snapshot is " + oldest);
        try (Stream<Path> epochs = Files.list(store.root().resolve(WORLD).resolve("epochs"))) {
            long n = epochs.count();
            assertTrue(n <= 17, "at tick " + now + " (epoch " + epoch + "): " + n + " epoch markers");
        }
    }
}
