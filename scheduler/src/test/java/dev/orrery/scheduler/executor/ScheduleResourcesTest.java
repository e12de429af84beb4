package dev.orrery.scheduler.executor;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.orrery.ecs.World;
import dev.orrery.ecs.component.Component;
import dev.orrery.ecs.component.Field;
import dev.orrery.scheduler.EventKey;
import dev.orrery.scheduler.LongSum;
import dev.orrery.scheduler.Phase;
import dev.orrery.scheduler.ResourceKey;
import dev.orrery.scheduler.Schedule;
import dev.orrery.scheduler.ScheduleExecutor;
import dev.orrery.scheduler.SystemFailedException;
import dev.orrery.scheduler.UndeclaredResourceAccessException;
import java.util.function.Consumer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * A schedule holds resource values without the engine; jobs reach them under their declared
 * access, and parallel jobs add to a {@link LongSum} whose total later readers see, identical
 * on any worker count.
 */
class ScheduleResourcesTest {
    record Hp(int hp) {
    }

    record Settings(int threshold) {
    }

    static final ResourceKey<LongSum> LOW = ResourceKey.of("low", LongSum.class);
    static final ResourceKey<LongSum> INDICES = ResourceKey.of("indices", LongSum.class);
    static final ResourceKey<Settings> SETTINGS = ResourceKey.of("settings", Settings.class);
    private static final int ENTITIES = 50_000;
    private static final int TICKS = 5;

    /** Counts per tick, across jobs, the entities under a threshold and the indices of a range system; returns the totals seen by readers. */
    static long[][] run(int workers) {
        World world = new World(256);
        Component<Hp> hp = world.component(Hp.class);
        for (int i = 0; i < ENTITIES; i++) {
            world.spawn(new Hp((int) ((i * 2_654_435_761L) % 1000)));
        }
        Field hv = hp.field("hp");
        long[][] seen = new long[3][TICKS];
        int[] tick = {0};
        Schedule.Builder b = Schedule.builder(world).minBatchRows(512)
                .resource(LOW, new LongSum()).resource(INDICES, new LongSum(0)).resource(SETTINGS, new Settings(300));
        b.system("reset").inPhase(Phase.PRE_UPDATE).writesResource(LOW, INDICES)
                .forEachRange(() -> 1, (job, from, to) -> {
                    job.resourceForWrite(LOW).reset();
                    job.resourceForWrite(INDICES).reset();
                })
                .system("count").query(world.query().with(hp).build()).reads(hp).readsResource(SETTINGS)
                .reducesResource(LOW)
                .forEachChunk(job -> {
                    int threshold = job.resource(SETTINGS).threshold();
                    int[] h = job.chunk().readInts(hv);
                    long n = 0;
                    for (int i = 0, size = job.chunk().size(); i < size; i++) {
                        if (h[i] < threshold) {
                            n++;
                        }
                    }
                    job.add(LOW, n);
                })
                .system("indices").reducesResource(INDICES).minBatchRows(1000)
                .forEachRange(() -> 100_000, (job, from, to) -> job.add(INDICES, to - from))
                .system("read").readsResource(LOW, INDICES)
                .forEachRange(() -> 1, (job, from, to) -> {
                    seen[0][tick[0]] = job.resource(LOW).total();
                    seen[1][tick[0]] = job.resource(INDICES).total();
                });
        b.system("exclusive").inPhase(Phase.POST_UPDATE).readsResource(LOW)
                .exclusive(w -> seen[2][tick[0]] = b.resources().get(LOW).total());
        Schedule schedule = b.build();
        try (ScheduleExecutor ex = schedule.executor(workers)) {
            for (int t = 0; t < TICKS; t++) {
                tick[0] = t;
                ex.run();
            }
        }
        return seen;
    }

    @ParameterizedTest
    @ValueSource(ints = {1, 2, 4, 8})
    void shouldGiveTheSerialTotalOnAnyWorkerCount(int workers) {
        long serial = 0;
        for (int i = 0; i < ENTITIES; i++) {
            if ((int) ((i * 2_654_435_761L) % 1000) < 300) {
                serial++;
            }
        }
        long[][] seen = run(workers);
        for (int t = 0; t < TICKS; t++) {
            assertEquals(serial, seen[0][t], "tick " + t + ": the reader after the reducer sees the total");
            assertEquals(100_000, seen[1][t], "tick " + t + ": a range system's jobs add up to its count");
            assertEquals(serial, seen[2][t], "tick " + t + ": an exclusive system reads the store directly");
        }
    }

    @Test
    void shouldOrderAReducerLikeAWriter() {
        World world = new World();
        Component<Hp> hp = world.component(Hp.class);
        Schedule s = Schedule.builder(world).resource(LOW, new LongSum())
                .system("count").query(world.query().with(hp).build()).reads(hp).reducesResource(LOW)
                .forEachChunk(job -> { })
                .system("read").readsResource(LOW).forEachRange(() -> 1, (job, from, to) -> { })
                .build();
        assertTrue(s.toString().contains("after count (low)"), s.toString());
        assertTrue(s.toString().contains("reduces [low]"), s.toString());
    }

    @ParameterizedTest
    @ValueSource(ints = {1, 2})
    void shouldRefuseAnUndeclaredAddNamingSystemAndResource(int workers) {
        SystemFailedException f = failure(workers, b -> b.system("sneaky").readsResource(LOW).minBatchRows(1)
                .forEachRange(() -> 4, (job, from, to) -> job.add(LOW, 1)));
        UndeclaredResourceAccessException u = assertInstanceOf(UndeclaredResourceAccessException.class,
                f.getCause());
        assertEquals("system 'sneaky' added to resource 'low' but declared no reduction into it; add "
                + ".reducesResource(low) to the system's declaration", u.getMessage());
    }

    @Test
    void shouldRefuseAnUndeclaredReadOrWriteThroughTheJob() {
        SystemFailedException read = failure(1, b -> b.system("peek").forEachRange(() -> 1,
                (job, from, to) -> job.resource(SETTINGS)));
        assertTrue(read.getCause().getMessage().contains("system 'peek' read resource 'settings'")
                && read.getCause().getMessage().contains(".readsResource(settings)"), read.getCause().getMessage());
        SystemFailedException write = failure(1, b -> b.system("poke").readsResource(SETTINGS).forEachRange(() -> 1,
                (job, from, to) -> job.resourceForWrite(SETTINGS)));
        assertTrue(write.getCause().getMessage().contains("system 'poke' asked to write resource 'settings'")
                && write.getCause().getMessage().contains(".writesResource(settings)"),
                write.getCause().getMessage());
    }

    @Test
    void shouldNameTheMissingResource() {
        SystemFailedException f = failure(1, b -> b.system("lost").readsResource(INDICES).forEachRange(() -> 1,
                (job, from, to) -> job.resource(INDICES)));
        assertTrue(f.getCause().getMessage().contains("resource 'indices' has no value")
                && f.getCause().getMessage().contains("[low, settings]"), f.getCause().getMessage());
    }

    private static SystemFailedException failure(int workers, Consumer<Schedule.Builder> declare) {
        World world = new World();
        Schedule.Builder b = Schedule.builder(world).resource(LOW, new LongSum()).resource(SETTINGS, new Settings(1));
        declare.accept(b);
        try (ScheduleExecutor ex = b.build().executor(workers)) {
            return assertThrows(SystemFailedException.class, ex::run);
        }
    }
    @Test
    void shouldRefuseTwoEventKeysWithOneNameNamingBothEventTypesAndNoInternalType() {
        EventKey<Settings> first = EventKey.of("hits", Settings.class);
        EventKey<LongSum> second = EventKey.of("hits", LongSum.class);
        Schedule.Builder b = Schedule.builder(new World(256));
        b.system("a").writesEvents(first).exclusive(w -> { });
        b.system("b").readsEvents(second).exclusive(w -> { });
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, b::build);
        assertEquals("two event keys are named 'hits': the one declared first carries " + Settings.class.getName()
                + ", the one declared now carries " + LongSum.class.getName() + "; snapshots and messages name event "
                + "channels by name, so give each EventKey its own name, or share one key instance (keys compare by "
                + "identity)", e.getMessage());
    }

    @Test
    void shouldRefuseTwoResourceKeysWithOneNameAtRegistrationNamingBoth() {
        ResourceKey<Settings> first = ResourceKey.of("settings", Settings.class);
        ResourceKey<LongSum> second = ResourceKey.of("settings", LongSum.class);
        dev.orrery.scheduler.Resources resources = new dev.orrery.scheduler.Resources();
        resources.put(first, new Settings(1));
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> resources.put(second, new LongSum()));
        assertTrue(e.getMessage().contains("two resource keys are named 'settings'")
                && e.getMessage().contains(Settings.class.getName()) && e.getMessage().contains(LongSum.class.getName()),
                e.getMessage());
        assertEquals(1, resources.keys().size(), "the second key was not registered");
        resources.put(first, new Settings(2)); // putting again under the first key is a plain replace
        assertEquals(2, resources.get(first).threshold());
        World world = new World(256);
        assertThrows(IllegalArgumentException.class, () -> Schedule.builder(world)
                .resource(first, new Settings(1)).resource(ResourceKey.of("settings", Settings.class), new Settings(2)));
    }

    @Test
    void shouldSayKeysCompareByIdentityWhenAnotherKeyOfTheSameNameHoldsTheValue() {
        ResourceKey<Settings> madeAgain = ResourceKey.of("settings", Settings.class); // not SETTINGS, the one put
        SystemFailedException f = failure(1, b -> b.system("reader").readsResource(madeAgain).forEachRange(() -> 1,
                (job, from, to) -> job.resource(madeAgain)));
        String m = f.getCause().getMessage();
        assertTrue(m.contains("resource 'settings' has no value under this key")
                && m.contains("keys compare by identity") && m.contains("static final constant")
                && !m.contains("resources present"), m);
        dev.orrery.scheduler.Resources resources = new dev.orrery.scheduler.Resources();
        resources.put(SETTINGS, new Settings(1));
        IllegalStateException direct = assertThrows(IllegalStateException.class,
                () -> resources.get(ResourceKey.of("settings", LongSum.class)));
        assertTrue(direct.getMessage().contains("keys compare by identity")
                && direct.getMessage().contains(Settings.class.getName()), direct.getMessage());
    }

    @Test
    void shouldRefuseANullResourceKeyNamingIt() {
        dev.orrery.scheduler.Resources resources = new dev.orrery.scheduler.Resources();
        NullPointerException e = assertThrows(NullPointerException.class, () -> resources.put(null, new Settings(1)));
        assertEquals("resource key", e.getMessage());
        assertTrue(resources.keys().isEmpty());
        NullPointerException viaBuilder = assertThrows(NullPointerException.class,
                () -> Schedule.builder(new World()).resource(null, new Settings(1)));
        assertEquals("resource key", viaBuilder.getMessage());
    }
}
