package dev.orrery.ecs;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;

import it.unimi.dsi.fastutil.longs.LongArrays;
import java.util.Arrays;
import java.util.Random;
import org.junit.jupiter.api.Test;

class RunMergeTest {
    private final RunMerge merge = new RunMerge();

    /** Sorts a copy with the merge and a copy with fastutil's pair radix sort (playback's former sort). */
    private void assertSameAsRadixSort(long[] keys, long[] locators) {
        int n = keys.length;
        long[] k1 = Arrays.copyOf(keys, n + 3); // longer arrays: only [0, n) may be touched
        long[] l1 = Arrays.copyOf(locators, n + 3);
        merge.sort(k1, l1, n);
        long[] k2 = keys.clone();
        long[] l2 = locators.clone();
        LongArrays.radixSort(k2, l2, 0, n);
        assertArrayEquals(k2, Arrays.copyOf(k1, n));
        assertArrayEquals(l2, Arrays.copyOf(l1, n));
    }

    @Test
    void shouldOrderRandomPairsAsALexicographicSortDoes() {
        Random rnd = new Random(7);
        for (int round = 0; round < 200; round++) {
            int n = rnd.nextInt(300);
            long[] k = new long[n];
            long[] l = new long[n];
            for (int i = 0; i < n; i++) {
                k[i] = rnd.nextInt(8) == 0 ? rnd.nextLong() >>> 1 : rnd.nextInt(20); // many ties
                l[i] = ((long) rnd.nextInt(4) << 32) | i; // distinct, as playback's locators are
            }
            assertSameAsRadixSort(k, l);
        }
    }

    @Test
    void shouldMergeBuffersOfSortedChunkRunsWithEqualKeysAcrossBuffers() {
        Random rnd = new Random(11);
        for (int round = 0; round < 100; round++) {
            int buffers = 1 + rnd.nextInt(4);
            int n = 0;
            long[] k = new long[4096];
            long[] l = new long[4096];
            for (int b = 0; b < buffers; b++) {
                int at = 0;
                int chunks = rnd.nextInt(6);
                for (int c = 0; c < chunks; c++) {
                    // Chunks in any order (work stealing), keys growing inside a chunk.
                    long base = ((long) rnd.nextInt(3) << 51) | ((long) rnd.nextInt(5) << 27);
                    int commands = rnd.nextInt(40);
                    for (int s = 0; s < commands; s++) {
                        k[n] = base | s;
                        l[n] = ((long) b << 32) | at;
                        at += 3 + rnd.nextInt(4);
                        n++;
                    }
                }
            }
            assertSameAsRadixSort(Arrays.copyOf(k, n), Arrays.copyOf(l, n));
        }
    }

    @Test
    void shouldHandleEmptySingleAndAlreadySortedInput() {
        assertSameAsRadixSort(new long[0], new long[0]);
        assertSameAsRadixSort(new long[] {5}, new long[] {1});
        assertSameAsRadixSort(new long[] {1, 2, 2, 9}, new long[] {4, 1, 3, 0});
        assertSameAsRadixSort(new long[] {9, 2, 2, 1}, new long[] {0, 3, 1, 4});
    }
}
