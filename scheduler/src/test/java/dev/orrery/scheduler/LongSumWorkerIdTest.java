package dev.orrery.scheduler;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.orrery.scheduler.internal.SchedulerInternals;
import org.junit.jupiter.api.Test;

/**
 * {@link LongSum#add} documents an {@link ArrayIndexOutOfBoundsException} for a worker id the
 * executor did not prepare. Worker id -1 landed in slot 0, the padding {@link LongSum#total()}
 * skips, so the amount was lost with no exception; an id past the prepared workers failed with
 * the bare array index. Both are now refused alike, naming the worker id, the workers prepared
 * and the fix, and nothing is added. {@code job.add}'s path ({@code SchedulerInternals.addDeclared},
 * which skips the checked-mode look-up of the declaration the job has checked already) keeps
 * that one worker-id check.
 */
class LongSumWorkerIdTest {
    @Test
    void shouldRefuseANegativeWorkerIdInsteadOfLosingTheAmount() {
        LongSum sum = new LongSum(7);
        ArrayIndexOutOfBoundsException e = assertThrows(ArrayIndexOutOfBoundsException.class, () -> sum.add(-1, 5));
        assertTrue(e.getMessage().contains("worker id -1") && e.getMessage().contains("job.add(key, n)"),
                e.getMessage());
        assertEquals(7, sum.total(), "nothing added");
        assertThrows(ArrayIndexOutOfBoundsException.class, () -> sum.add(Integer.MIN_VALUE, 5));
    }

    @Test
    void shouldRefuseAWorkerIdPastThePreparedWorkersNamingThem() {
        LongSum sum = new LongSum();
        sum.prepare(4);
        sum.add(3, 2); // the last prepared worker
        ArrayIndexOutOfBoundsException e = assertThrows(ArrayIndexOutOfBoundsException.class, () -> sum.add(4, 5));
        assertTrue(e.getMessage().contains("worker id 4") && e.getMessage().contains("0 to 3"), e.getMessage());
        assertThrows(ArrayIndexOutOfBoundsException.class, () -> sum.add(Integer.MAX_VALUE, 5));
        assertEquals(2, sum.total(), "only the prepared worker's add counted");
    }

    @Test
    void shouldRefuseABadWorkerIdOnTheJobsPathAlike() {
        LongSum sum = new LongSum(7);
        sum.prepare(2);
        SchedulerInternals.addDeclared(sum, 1, 3);
        ArrayIndexOutOfBoundsException e = assertThrows(ArrayIndexOutOfBoundsException.class,
                () -> SchedulerInternals.addDeclared(sum, -1, 5));
        assertTrue(e.getMessage().contains("worker id -1") && e.getMessage().contains("0 to 1"), e.getMessage());
        assertThrows(ArrayIndexOutOfBoundsException.class, () -> SchedulerInternals.addDeclared(sum, 2, 5));
        assertEquals(10, sum.total(), "only the prepared worker's add counted");
    }
}
