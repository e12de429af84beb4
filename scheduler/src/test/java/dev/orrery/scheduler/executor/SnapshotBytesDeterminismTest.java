package dev.orrery.scheduler.executor;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.orrery.ecs.Query;
import dev.orrery.ecs.World;
import dev.orrery.ecs.WorldSnapshot;
import dev.orrery.ecs.component.Component;
import dev.orrery.ecs.component.Field;
import dev.orrery.scheduler.Schedule;
import dev.orrery.scheduler.ScheduleExecutor;
import java.util.Arrays;
import org.junit.jupiter.api.Test;

/**
 * A snapshot's bytes are a function of the world's state alone: the change ticks of systems
 * and chunk columns are those of a one-by-one run in graph order, whatever the number of
 * workers, the batch size and the order in which ready systems happened to start. Six systems
 * of which four are independent (so a parallel executor may start them in any order), each
 * writing with change filters; the snapshot after a few runs must be byte for byte the same.
 */
class SnapshotBytesDeterminismTest {
    record A(int v) {
    }

    record B(int v) {
    }

    record C(int v) {
    }

    record D(int v) {
    }

    record E(int v) {
    }

    record F(int v) {
    }

    static final int RUNS = 6;

    static byte[] snapshotAfterRuns(int workers, int minBatchRows) {
        World world = new World(1024);
        Component<A> a = world.component(A.class);
        Component<B> b = world.component(B.class);
        Component<C> c = world.component(C.class);
        Component<D> d = world.component(D.class);
        Component<E> e = world.component(E.class);
        Component<F> f = world.component(F.class);
        for (int i = 0; i < 4_000; i++) {
            world.spawn(new A(i), new B(0), new C(0), new D(0), new E(0), new F(0));
        }
        Schedule.Builder s = Schedule.builder(world).minBatchRows(minBatchRows);
        bump(s, world, "A", a, null);
        bump(s, world, "B", b, a); // after A: reads what A wrote
        bump(s, world, "C", c, null);
        bump(s, world, "D", d, null);
        bump(s, world, "E", e, null);
        bump(s, world, "F", f, null);
        try (ScheduleExecutor ex = s.build().executor(workers)) {
            for (int r = 0; r < RUNS; r++) {
                ex.run();
            }
        }
        return new WorldSnapshot().write(world);
    }

    /** A system adding one to each row of {@code column} that changed since it last ran (and reading {@code after}). */
    private static void bump(Schedule.Builder s, World world, String name, Component<?> column, Component<?> after) {
        Field v = column.field("v");
        Query q = after == null ? world.query().with(column).build() : world.query().with(column, after).build();
        Schedule.SystemBuilder sys = s.system(name).query(q).writes(column);
        if (after != null) {
            sys.reads(after);
        }
        sys.forEachChunk(job -> {
            if (!job.chunk().changed(column)) {
                return;
            }
            int[] x = job.chunk().writeInts(v);
            for (int i = 0, n = job.chunk().size(); i < n; i++) {
                x[i]++;
            }
        });
    }

    @Test
    void shouldWriteTheSameSnapshotBytesOnAnyWorkersBatchAndTiming() {
        byte[] reference = snapshotAfterRuns(1, Schedule.DEFAULT_MIN_BATCH_ROWS);
        for (int workers : new int[] {2, 4, 8}) {
            for (int batch : new int[] {1, 64, Schedule.DEFAULT_MIN_BATCH_ROWS}) {
                for (int repeat = 0; repeat < 4; repeat++) {
                    byte[] other = snapshotAfterRuns(workers, batch);
                    assertEquals(reference.length, other.length, workers + " workers, batch " + batch);
                    assertArrayEquals(reference, other, workers + " workers, batch " + batch + ", repeat " + repeat
                            + ": first differing byte at " + firstDifference(reference, other));
                }
            }
        }
    }

    private static int firstDifference(byte[] x, byte[] y) {
        return Arrays.mismatch(x, y);
    }
}
