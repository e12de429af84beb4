package dev.orrery.ecs.storage;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;

import java.util.Arrays;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/**
 * The state hash's member sort gives what {@code Arrays.sort} gives, for every size (the
 * insertion sort below 48, the radix passes above), for small and large indices, runs and
 * repeats, and when its arrays are reused for a smaller set after a larger one.
 */
class IndexSortTest {
    @Test
    void shouldSortLikeArraysSortAtEverySizeAndReuseItsArrays() {
        IndexSort sort = new IndexSort();
        SplittableRandom rnd = new SplittableRandom(7);
        int[] sizes = {0, 1, 2, 47, 48, 49, 300, 5_000, 70_000, 3, 1_000};
        for (int n : sizes) {
            for (int shape = 0; shape < 4; shape++) {
                int[] given = new int[n];
                for (int i = 0; i < n; i++) {
                    given[i] = switch (shape) {
                        case 0 -> rnd.nextInt(1 << 10); // one byte pass, repeats
                        case 1 -> rnd.nextInt(Integer.MAX_VALUE); // all four passes
                        case 2 -> n - i; // one descending run
                        default -> (i % 97) * 40_000 + i / 97; // ascending runs
                    };
                }
                int[] room = sort.room(n);
                System.arraycopy(given, 0, room, 0, n);
                int[] sorted = sort.sort(n);
                int[] expected = given.clone();
                Arrays.sort(expected);
                assertArrayEquals(expected, Arrays.copyOf(sorted, n), "n " + n + ", shape " + shape);
            }
        }
    }
}
