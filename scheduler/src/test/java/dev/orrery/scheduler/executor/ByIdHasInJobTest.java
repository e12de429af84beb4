package dev.orrery.scheduler.executor;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.orrery.ecs.Query;
import dev.orrery.ecs.UndeclaredAccessException;
import dev.orrery.ecs.World;
import dev.orrery.ecs.component.Component;
import dev.orrery.ecs.component.Field;
import dev.orrery.ecs.component.StaleEntityException;
import dev.orrery.ecs.component.Storage;
import dev.orrery.scheduler.LongSum;
import dev.orrery.scheduler.ResourceKey;
import dev.orrery.scheduler.Schedule;
import dev.orrery.scheduler.ScheduleExecutor;
import dev.orrery.scheduler.SystemFailedException;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * A job asking whether another entity holds a component (an order asking whether its trader
 * is under audit, a sparse marker toggled often): the world's {@code has} is refused inside a
 * job, and the job had no {@code has} of its own, so the by-id read of a marker that may be
 * absent could only be tried and caught. {@code job.has(entity, column)} answers for table and
 * sparse columns under the system's declared reads, and the refusals that used to point at
 * {@code job.chunk().has(column, row)} (which answers for the job's own rows only) name it.
 */
class ByIdHasInJobTest {
    record Order(long trader) {
    }

    record Trader(int cash) {
    }

    record Audited(int until) {
    }

    record Banned() {
    }

    static final ResourceKey<LongSum> CANCELLED = ResourceKey.of("cancelled", LongSum.class);

    final World w = new World(1024);
    final Component<Order> order = w.component(Order.class);
    final Component<Trader> trader = w.component(Trader.class);
    final Component<Audited> audited = w.component(Audited.class, Storage.SPARSE);
    final Component<Banned> banned = w.component(Banned.class);
    final Field traderOf = order.field("trader");
    final Query orders = w.query().with(order).build();

    @ParameterizedTest(name = "{0} workers")
    @ValueSource(ints = {1, 2})
    void aJobAsksWhetherAnotherEntityHoldsASparseOrTableColumn(int workers) {
        long[] traders = new long[40];
        for (int i = 0; i < traders.length; i++) {
            traders[i] = w.spawn(new Trader(i));
            if (i % 3 == 0) w.add(traders[i], audited, new Audited(9));
            if (i % 5 == 0) w.add(traders[i], banned);
        }
        for (int i = 0; i < 400; i++) {
            w.spawn(new Order(traders[i % traders.length]));
        }
        long expected = 0;
        for (int i = 0; i < 400; i++) {
            int t = i % traders.length;
            if (t % 3 == 0 || t % 5 == 0) expected++;
        }
        Schedule schedule = Schedule.builder(w).minBatchRows(16).resource(CANCELLED, new LongSum())
                .system("cancel").query(orders).reads(order, audited, banned).reducesResource(CANCELLED)
                .forEachChunk(job -> {
                    long[] owners = job.chunk().readLongs(traderOf);
                    int n = 0;
                    for (int i = 0, size = job.chunk().size(); i < size; i++) {
                        if (job.has(owners[i], audited) || job.has(owners[i], banned)) n++;
                    }
                    job.add(CANCELLED, n);
                })
                .build();
        try (ScheduleExecutor executor = schedule.executor(workers)) {
            executor.run();
        }
        assertEquals(expected, schedule.resources().get(CANCELLED).total());
    }

    @ParameterizedTest(name = "{0} workers")
    @ValueSource(ints = {1, 2})
    void anUndeclaredOrStaleHasIsRefusedNamingTheSystem(int workers) {
        long t = w.spawn(new Trader(1));
        long gone = w.spawn(new Trader(2));
        w.spawn(new Order(t));
        Schedule undeclared = Schedule.builder(w)
                .system("peek").query(orders).reads(order)
                .forEachChunk(job -> job.has(t, audited))
                .build();
        try (ScheduleExecutor executor = undeclared.executor(workers)) {
            SystemFailedException e = assertThrows(SystemFailedException.class, executor::run);
            UndeclaredAccessException cause = assertInstanceOf(UndeclaredAccessException.class, e.getCause());
            assertTrue(cause.getMessage().contains("'peek'") && cause.getMessage().contains("Audited"), cause.getMessage());
        }
        w.despawn(gone);
        Schedule stale = Schedule.builder(w)
                .system("late").query(orders).reads(order, audited)
                .forEachChunk(job -> job.has(gone, audited))
                .build();
        try (ScheduleExecutor executor = stale.executor(workers)) {
            SystemFailedException e = assertThrows(SystemFailedException.class, executor::run);
            assertInstanceOf(StaleEntityException.class, e.getCause(), e.getMessage());
            assertTrue(e.getCause().getMessage().contains("'late'"), e.getCause().getMessage());
        }
    }

    @ParameterizedTest(name = "{0} workers")
    @ValueSource(ints = {1, 2})
    void theRefusalsOfAByIdTestOrReadOfAnAbsentColumnNameJobHas(int workers) {
        long t = w.spawn(new Trader(1));
        w.spawn(new Order(t));
        Schedule worldHas = Schedule.builder(w)
                .system("ask world").query(orders).reads(order, audited)
                .forEachChunk(job -> w.has(t, audited))
                .build();
        try (ScheduleExecutor executor = worldHas.executor(workers)) {
            String m = assertThrows(SystemFailedException.class, executor::run).getCause().getMessage();
            assertTrue(m.contains("through its JobContext: job.has(entity, Audited), with Audited in its system's .reads(...)"), m);
        }
        for (Component<?> absent : java.util.List.of(audited, banned)) {
            Schedule read = Schedule.builder(w)
                    .system("read absent").query(orders).reads(order, audited, banned)
                    .forEachChunk(job -> job.get(t, absent))
                    .build();
            try (ScheduleExecutor executor = read.executor(workers)) {
                String m = assertThrows(SystemFailedException.class, executor::run).getCause().getMessage();
                assertTrue(m.contains("has no component " + absent.name()), m);
                assertTrue(m.contains("Test job.has(entity, " + absent.name() + ") first"), m);
            }
        }
    }
}
