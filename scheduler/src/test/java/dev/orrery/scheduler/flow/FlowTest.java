package dev.orrery.scheduler.flow;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.orrery.ecs.World;
import dev.orrery.ecs.component.Component;
import dev.orrery.ecs.internal.EcsInternals;
import dev.orrery.scheduler.EventKey;
import dev.orrery.scheduler.FixedTimestep;
import dev.orrery.scheduler.Phase;
import dev.orrery.scheduler.ResourceKey;
import dev.orrery.scheduler.RunCondition;
import dev.orrery.scheduler.Schedule;
import dev.orrery.scheduler.ScheduleExecutor;
import dev.orrery.scheduler.States;
import dev.orrery.scheduler.SystemFailedException;
import dev.orrery.scheduler.UndeclaredEventAccessException;
import dev.orrery.scheduler.internal.SchedulerInternals;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** Events, run conditions, fixed-timestep phases and states, each on its own, on 1 and 4 workers. */
class FlowTest {
    record Tag(int v) {
    }

    enum Light { RED, GREEN }

    static final class Counter {
        long n;
    }

    static final EventKey<Integer> NUMBERS = EventKey.of("numbers", Integer.class);
    static final ResourceKey<Counter> TICK = ResourceKey.of("tick", Counter.class);

    /** Each run sends (run * 10 + chunk) from every chunk of 'late'; 'early' reads before it, 'after' after it. */
    @ParameterizedTest(name = "{0} workers")
    @ValueSource(ints = {1, 4})
    void shouldDeliverEachEventOnceInKeyOrderForTwoRuns(int workers) {
        World world = new World(256);
        Component<Tag> tag = world.component(Tag.class);
        for (int i = 0; i < 200; i++) {
            world.spawn(new Tag(i));
        }
        Counter tick = new Counter();
        List<String> seen = new ArrayList<>();
        Schedule schedule = Schedule.builder(world).minBatchRows(1).resource(TICK, tick)
                .system("early").readsEvents(NUMBERS).runIf(RunCondition.resource(TICK, c -> c.n != 3))
                .forEachRange(() -> 1, (job, from, to) -> seen.add("early" + list(job.events(NUMBERS))))
                .system("late").query(world.query().with(tag).build()).reads(tag).writesEvents(NUMBERS)
                .readsResource(TICK)
                .forEachChunk(job -> {
                    if (job.resource(TICK).n < 2) {
                        job.send(NUMBERS, (int) job.resource(TICK).n * 10 + job.chunkOrdinal());
                    }
                })
                .system("after").readsEvents(NUMBERS)
                .forEachRange(() -> 1, (job, from, to) -> seen.add("after" + list(job.events(NUMBERS))))
                .build();
        int chunks = EcsInternals.archetypes(world.query().with(tag).build()).get(0).chunkCount();
        assertTrue(chunks > 2, "the test needs several chunks, got " + chunks);
        try (ScheduleExecutor ex = schedule.executor(workers)) {
            for (tick.n = 0; tick.n < 5; tick.n++) {
                ex.run();
            }
        }
        List<Integer> run0 = new ArrayList<>();
        List<Integer> run1 = new ArrayList<>();
        for (int c = 0; c < chunks; c++) {
            run0.add(c);
            run1.add(10 + c);
        }
        assertEquals(List.of("early[]", "after" + run0, "early" + run0, "after" + run1, "early" + run1, "after[]",
                "after[]", "early[]", "after[]"), seen,
                "'after' sees each run's events at once, 'early' the next run; run 3 skips 'early'");
        assertTrue(schedule.toString().contains("after late (events numbers)"), schedule.toString());
        assertTrue(schedule.toString().contains("runs if test of tick"), schedule.toString());
    }

    @ParameterizedTest(name = "{0} workers")
    @ValueSource(ints = {1, 4})
    void shouldDropEventsAReaderSkippedForTwoRuns(int workers) {
        World world = new World();
        Counter tick = new Counter();
        List<String> seen = new ArrayList<>();
        Schedule schedule = Schedule.builder(world).resource(TICK, tick)
                .system("send").readsResource(TICK).writesEvents(NUMBERS)
                .forEachRange(() -> 1, (job, from, to) -> job.send(NUMBERS, (int) job.resource(TICK).n))
                .system("sometimes").readsEvents(NUMBERS).runIf(RunCondition.resource(TICK, c -> c.n % 3 == 0))
                .forEachRange(() -> 1, (job, from, to) -> seen.add(list(job.events(NUMBERS)).toString()))
                .build();
        try (ScheduleExecutor ex = schedule.executor(workers)) {
            for (tick.n = 0; tick.n < 7; tick.n++) {
                ex.run();
            }
        }
        assertEquals(List.of("[0]", "[2, 3]", "[5, 6]"), seen, "event 1 (and 4) was dropped before the reader ran");
    }

    @ParameterizedTest(name = "{0} workers")
    @ValueSource(ints = {1, 4})
    void shouldRefuseAnUndeclaredSendNamingSystemAndChannel(int workers) {
        World world = new World();
        Schedule schedule = Schedule.builder(world)
                .system("sneaky").forEachRange(() -> 1, (job, from, to) -> job.send(NUMBERS, 1))
                .build();
        try (ScheduleExecutor ex = schedule.executor(workers)) {
            SystemFailedException f = assertThrows(SystemFailedException.class, ex::run);
            UndeclaredEventAccessException e = assertInstanceOf(UndeclaredEventAccessException.class, f.getCause());
            assertTrue(e.getMessage().contains("'sneaky'") && e.getMessage().contains("'numbers'")
                    && e.getMessage().contains(".writesEvents(numbers)"), e.getMessage());
        }
    }

    @ParameterizedTest(name = "{0} workers")
    @ValueSource(ints = {1, 4})
    void shouldRunExitAndEnterSystemsAtTheNextRunBoundary(int workers) {
        World world = new World();
        ResourceKey<States<Light>> light = States.key("light", Light.class);
        States<Light> states = new States<>(Light.class, Light.RED);
        List<String> log = new ArrayList<>();
        Counter tick = new Counter();
        Schedule schedule = Schedule.builder(world).resource(light, states).resource(TICK, tick)
                .system("enter red").onEnter(light, Light.RED).forEachRange(() -> 1, (j, f, t) -> log.add("enter red"))
                .system("exit red").onExit(light, Light.RED).forEachRange(() -> 1, (j, f, t) -> log.add("exit red"))
                .system("enter green").onEnter(light, Light.GREEN)
                .forEachRange(() -> 1, (j, f, t) -> log.add("enter green"))
                .system("go").readsResource(TICK).writesResource(light)
                .forEachRange(() -> 1, (job, f, t) -> {
                    log.add("run " + job.resource(TICK).n + " " + job.resource(light).current());
                    if (job.resource(TICK).n == 1) {
                        job.resourceForWrite(light).request(Light.GREEN);
                    }
                })
                .system("green only").runIf(RunCondition.inState(light, Light.GREEN))
                .forEachRange(() -> 1, (j, f, t) -> log.add("green only"))
                .build();
        try (ScheduleExecutor ex = schedule.executor(workers)) {
            for (tick.n = 0; tick.n < 3; tick.n++) {
                ex.run();
            }
        }
        assertEquals(List.of("enter red", "run 0 RED", "run 1 RED", "exit red", "enter green", "run 2 GREEN",
                "green only"), log);
        assertTrue(schedule.toString().contains("runs on enter light = GREEN"), schedule.toString());
    }

    /**
     * Events meet a fixed-step phase that runs twice a tick: a reader in it sees each event once
     * (in its first step, not again in the second), a writer in it has both steps' events read
     * after the phase in step order, and a reader after the writer in the same phase sees each
     * step's events in that step.
     */
    @ParameterizedTest(name = "{0} workers")
    @ValueSource(ints = {1, 4})
    void shouldDeliverEventsOnceAcrossTheStepsOfAFixedPhase(int workers) {
        World world = new World();
        Phase physics = Phase.named("Physics");
        ResourceKey<FixedTimestep> clock = ResourceKey.of("physics clock", FixedTimestep.class);
        EventKey<Integer> bumps = EventKey.of("bumps", Integer.class);
        Counter tick = new Counter();
        List<String> log = new ArrayList<>();
        Schedule schedule = Schedule.builder(world).phases(physics, Phase.UPDATE).resource(TICK, tick)
                .resource(clock, new FixedTimestep(10, 20, 2)).fixedTimestep(physics, clock)
                .system("hear").inPhase(physics).readsEvents(NUMBERS).readsResource(clock)
                .forEachRange(() -> 1, (job, f, t) -> log.add("hear" + job.resource(clock).stepInRun()
                        + list(job.events(NUMBERS))))
                .system("bump").inPhase(physics).after("hear").writesEvents(bumps).readsResource(clock, TICK)
                .forEachRange(() -> 1, (job, f, t) -> job.send(bumps,
                        job.resource(clock).stepInRun() * 100 + (int) job.resource(TICK).n))
                .system("feel").inPhase(physics).readsEvents(bumps).readsResource(clock)
                .forEachRange(() -> 1, (job, f, t) -> log.add("feel" + job.resource(clock).stepInRun()
                        + list(job.events(bumps))))
                .system("send").readsResource(TICK).writesEvents(NUMBERS)
                .forEachRange(() -> 1, (job, f, t) -> job.send(NUMBERS, (int) job.resource(TICK).n))
                .system("count").after("send").readsEvents(bumps)
                .forEachRange(() -> 1, (job, f, t) -> log.add("count" + list(job.events(bumps))))
                .build();
        try (ScheduleExecutor ex = schedule.executor(workers)) {
            for (tick.n = 0; tick.n < 3; tick.n++) {
                ex.run();
            }
        }
        assertEquals(List.of(
                "hear0[]", "feel0[0]", "hear1[]", "feel1[100]", "count[0, 100]",
                "hear0[0]", "feel0[1]", "hear1[]", "feel1[101]", "count[1, 101]",
                "hear0[1]", "feel0[2]", "hear1[]", "feel1[102]", "count[2, 102]"), log);
    }

    @ParameterizedTest(name = "{0} workers")
    @ValueSource(ints = {1, 4})
    void shouldRunAFixedPhaseOncePerWholeStepAndSkipAPhaseByCondition(int workers) {
        World world = new World();
        Phase physics = Phase.named("Physics");
        Phase rare = Phase.named("Rare");
        ResourceKey<FixedTimestep> clock = ResourceKey.of("physics clock", FixedTimestep.class);
        Counter tick = new Counter();
        List<String> log = new ArrayList<>();
        Schedule schedule = Schedule.builder(world).phases(physics, Phase.UPDATE, rare).resource(TICK, tick)
                .resource(clock, new FixedTimestep(10, 25, 2))
                .fixedTimestep(physics, clock)
                .runIf(rare, RunCondition.resource(TICK, c -> c.n == 2).describedAs("tick 2"))
                .system("step").inPhase(physics).readsResource(clock)
                .forEachRange(() -> 1, (job, f, t) -> log.add("step" + job.resource(clock).stepInRun()))
                .system("tick").forEachRange(() -> 1, (job, f, t) -> log.add("tick"))
                .system("rare").inPhase(rare).forEachRange(() -> 1, (job, f, t) -> log.add("rare"))
                .build();
        try (ScheduleExecutor ex = schedule.executor(workers)) {
            for (tick.n = 0; tick.n < 4; tick.n++) {
                ex.run();
            }
        }
        // 25 per run, 10 per step: 2 (5 left), 3 capped to 2 (1 step dropped, 0 left), 2 (5 left), 3 -> 2
        assertEquals(List.of("step0", "step1", "tick", "step0", "step1", "tick", "step0", "step1", "tick", "rare",
                "step0", "step1", "tick"), log);
        assertEquals(2, schedule.resources().get(clock).droppedSteps());
        assertEquals(8, schedule.resources().get(clock).steps());
        assertTrue(schedule.toString().contains("phase Rare (sync point at end; runs if tick 2)"), schedule.toString());
        assertTrue(schedule.toDot().contains("runs per whole step of physics clock"), schedule.toDot());
    }

    @ParameterizedTest(name = "{0} workers")
    @ValueSource(ints = {1, 4})
    void shouldApplyTheSyncPointOfASkippedSystem(int workers) {
        World world = new World();
        Component<Tag> tag = world.component(Tag.class);
        world.spawn(new Tag(1));
        List<Integer> seen = new ArrayList<>();
        Schedule schedule = Schedule.builder(world)
                .system("spawner").query(world.query().with(tag).build()).reads(tag).spawns(tag)
                .forEachChunk(job -> job.commands().add(job.commands().spawn(), tag, new Tag(2)))
                .system("never").query(world.query().with(tag).build()).reads(tag)
                .runIf(RunCondition.of("never", r -> false))
                .forEachChunk(job -> seen.add(-1))
                .system("counter").query(world.query().with(tag).build()).reads(tag).beforeStructuralChanges()
                .forEachChunk(job -> seen.add(job.chunk().size()))
                .build();
        assertTrue(SchedulerInternals.graph(schedule).autoSyncBefore(SchedulerInternals.graph(schedule).positionOf("never")), schedule.toString());
        try (ScheduleExecutor ex = schedule.executor(workers)) {
            ex.run();
        }
        assertEquals(List.of(2), seen, "'never' did not run, but its sync point applied the spawn 'counter' sees");
    }

    /** Sending, merging and reading events, conditions and a fixed phase allocate nothing per run once warm. */
    @org.junit.jupiter.api.Test
    void shouldAllocateNothingPerRunOnceWarm() {
        World world = new World(256);
        Component<Tag> tag = world.component(Tag.class);
        for (int i = 0; i < 2000; i++) {
            world.spawn(new Tag(i));
        }
        Integer[] boxed = new Integer[100];
        for (int i = 0; i < boxed.length; i++) {
            boxed[i] = i;
        }
        Phase fixed = Phase.named("Fixed");
        ResourceKey<FixedTimestep> clock = ResourceKey.of("clock", FixedTimestep.class);
        ResourceKey<States<Light>> light = States.key("light", Light.class);
        Counter tick = new Counter();
        long[] sum = new long[1];
        Schedule schedule = Schedule.builder(world).phases(fixed, Phase.UPDATE).minBatchRows(1)
                .resource(TICK, tick).resource(clock, new FixedTimestep(2, 3, 2))
                .resource(light, new States<>(Light.class, Light.GREEN)).fixedTimestep(fixed, clock)
                .system("send").inPhase(fixed).query(world.query().with(tag).build()).reads(tag).writesEvents(NUMBERS)
                .forEachChunk(job -> {
                    for (int i = 0, n = job.chunk().size(); i < n; i += 10) {
                        job.send(NUMBERS, boxed[i % boxed.length]);
                    }
                })
                .system("read").readsEvents(NUMBERS).runIf(RunCondition.inState(light, Light.GREEN))
                .forEachRange(() -> 1, (job, from, to) -> {
                    var events = job.events(NUMBERS);
                    for (int i = 0; i < events.size(); i++) {
                        sum[0] += events.get(i);
                    }
                })
                .build();
        com.sun.management.ThreadMXBean threads =
                (com.sun.management.ThreadMXBean) java.lang.management.ManagementFactory.getThreadMXBean();
        try (ScheduleExecutor ex = schedule.executor(1)) {
            for (int i = 0; i < 300; i++) {
                ex.run();
            }
            assertTrue(sum[0] > 0, "events were read");
            long id = Thread.currentThread().getId();
            long probe = threads.getThreadAllocatedBytes(id);
            long baseline = threads.getThreadAllocatedBytes(id) - probe;
            long quietest = Long.MAX_VALUE;
            for (int window = 0; window < 10 && quietest > 0; window++) {
                long before = threads.getThreadAllocatedBytes(id);
                for (int i = 0; i < 100; i++) {
                    ex.run();
                }
                quietest = Math.min(quietest, threads.getThreadAllocatedBytes(id) - before - baseline);
            }
            assertTrue(quietest < 100, "the quietest 100 runs allocated " + quietest + " bytes");
        }
    }

    private static List<Integer> list(dev.orrery.scheduler.EventReader<Integer> events) {
        List<Integer> out = new ArrayList<>();
        events.forEach(out::add);
        return out;
    }
}
