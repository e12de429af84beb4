package dev.orrery.scheduler.executor;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.orrery.ecs.World;
import dev.orrery.ecs.component.Component;
import dev.orrery.ecs.internal.EcsInternals;
import dev.orrery.scheduler.EventKey;
import dev.orrery.scheduler.Phase;
import dev.orrery.scheduler.RunCondition;
import dev.orrery.scheduler.Schedule;
import dev.orrery.scheduler.SyncPoint;
import dev.orrery.scheduler.SystemFailedException;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The executor's owner thread names the step it is in outside jobs (a system's or a phase's run
 * condition, each kind of sync point, a range system's count, the event merges, the caller's
 * {@link SyncPoint} callbacks) while watched, and nothing while not; the step ends when it
 * returns or throws. The probes run inside the steps themselves, on the owner thread, or right
 * after a step with no user code in it, so nothing here waits on another thread, but for the
 * merge ending a phase, which no code follows before the next step: a sampling thread looks for
 * it, with no limit tighter than a minute.
 */
class OwnerActivityTest {
    record Hp(int value) {
    }

    record Hit(int damage) {
    }

    /** What the probe saw: the step's label and whether it had a start time. */
    static String seen(OwnerActivity activity) {
        return activity.startedAt() != 0 ? activity.label() : "none";
    }

    @ParameterizedTest(name = "{0} workers")
    @ValueSource(ints = {1, 2})
    void shouldNameEachRunConditionAndSyncPointOnlyWhileWatched(int workers) {
        World world = new World(256);
        Component<Hp> hp = world.component(Hp.class);
        List<String> seen = new CopyOnWriteArrayList<>();
        OwnerActivity[] activity = new OwnerActivity[1];
        world.observe(hp).onAdd((w, e, commands) -> seen.add(seen(activity[0]) + " / " + EcsInternals.firingHook(w)));
        Schedule schedule = Schedule.builder(world)
                .runIf(Phase.UPDATE, RunCondition.of("phase probe", r -> seen.add(seen(activity[0]))))
                .system("spawner").spawns(hp).forEachRange(() -> 1,
                        (j, from, to) -> j.commands().add(j.commands().spawn(), hp, new Hp(1)))
                .system("gated").after("spawner").afterStructuralChanges()
                .runIf(RunCondition.of("probe", r -> seen.add(seen(activity[0]))))
                .exclusive((w, j) -> j.commands().add(j.commands().spawn(), hp, new Hp(2)))
                .system("last").after("gated").spawns(hp).forEachRange(() -> 1,
                        (j, from, to) -> j.commands().add(j.commands().spawn(), hp, new Hp(3)))
                .build();
        try (PlannedExecutor ex = (PlannedExecutor) schedule.executor(workers)) {
            activity[0] = ex.activity();
            ex.run();
            assertEquals(List.of("none", "none / the onAdd observer hook on Hp", "none",
                    "none / the onAdd observer hook on Hp", "none / the onAdd observer hook on Hp"), seen,
                    "unwatched, the owner publishes no step; the world still names its hook");
            seen.clear();
            ex.activity().watch(true);
            ex.run();
            assertEquals(List.of("the run condition of phase Update (phase probe)",
                    "the sync point before system 'gated' / the onAdd observer hook on Hp",
                    "the run condition of system 'gated' (probe)",
                    "the sync point after exclusive system 'gated' / the onAdd observer hook on Hp",
                    "the sync point after 'last' (ending phase Update) / the onAdd observer hook on Hp"), seen);
            assertEquals(0, ex.activity().startedAt(), "no step is left open after the run");
            assertNull(EcsInternals.firingHook(world), "no hook is left named after the run");
        }
    }

    @ParameterizedTest(name = "{0} workers")
    @ValueSource(ints = {1, 2})
    void shouldNameARangeSystemsCount(int workers) {
        World world = new World(256);
        List<String> seen = new CopyOnWriteArrayList<>();
        OwnerActivity[] activity = new OwnerActivity[1];
        Schedule schedule = Schedule.builder(world)
                .system("grid").forEachRange(() -> {
                    seen.add(seen(activity[0]));
                    return 1;
                }, (j, from, to) -> { })
                .build();
        try (PlannedExecutor ex = (PlannedExecutor) schedule.executor(workers)) {
            activity[0] = ex.activity();
            ex.run();
            ex.activity().watch(true);
            ex.run();
            assertEquals(List.of("none", "the count of range system 'grid'"), seen);
            assertEquals(0, ex.activity().startedAt(), "no step is left open after the run");
        }
    }

    /**
     * The event merges run no user code, so they are probed from the code that runs right after
     * them: a job reads the label of the step entered last ({@link OwnerActivity#label} once the
     * step has ended). 'first' runs first in the run (in its first phase), 'reader' right after
     * its readers' merge, 'walker' right after taking its hierarchy.
     */
    @ParameterizedTest(name = "{0} workers")
    @ValueSource(ints = {1, 2})
    void shouldNameTheEventMergesAsARunAndAReaderStart(int workers) {
        World world = new World(256);
        Component<Hp> hp = world.component(Hp.class);
        world.relations().add(world.spawn(new Hp(1)), world.relations().childOf(), world.spawn(new Hp(2)));
        EventKey<Hit> hits = EventKey.of("hits", Hit.class);
        List<String> seen = new CopyOnWriteArrayList<>();
        OwnerActivity[] activity = new OwnerActivity[1];
        Schedule schedule = Schedule.builder(world)
                .system("first").inPhase(Phase.PRE_UPDATE).query(world.query().with(hp).build()).reads(hp)
                .forEachChunk(j -> seen.add("first: " + activity[0].label()))
                .system("writer").after("first").query(world.query().with(hp).build()).reads(hp).writesEvents(hits)
                .forEachChunk(j -> j.send(hits, new Hit(1)))
                .system("reader").after("writer").query(world.query().with(hp).build()).reads(hp).readsEvents(hits)
                .forEachChunk(j -> seen.add("reader: " + activity[0].label()))
                .system("walker").after("reader").reads(hp).forEachLevel(world.relations().childOf(),
                        (j, h, from, to) -> seen.add("walker: " + activity[0].label()))
                .build();
        try (PlannedExecutor ex = (PlannedExecutor) schedule.executor(workers)) {
            activity[0] = ex.activity();
            ex.activity().watch(true);
            ex.run();
            assertEquals(List.of(
                    "first: starting the run's event channels, dropping the events of the run before last (hits of Hit)",
                    "reader: merging the events system 'reader' reads as it starts (hits of Hit)",
                    "walker: the hierarchy of level system 'walker' (ChildOf, rebuilt when its pairs changed)"),
                    List.copyOf(new java.util.LinkedHashSet<>(seen)), "one label per system, whatever its jobs");
            assertEquals(0, ex.activity().startedAt(), "no step is left open after the run");
        }
    }

    /**
     * The merge ending a phase is followed by its sync point's step at once, so no code runs
     * after it to probe it: a thread samples the board while runs send events, until it sees the
     * merge named (at most 60 s, however loaded the machine; a run's merge is a fair part of it).
     */
    @Test
    void shouldNameTheMergeEndingAPhase() throws InterruptedException {
        World world = new World(256);
        EventKey<Hit> hits = EventKey.of("hits", Hit.class);
        Hit hit = new Hit(1);
        Schedule schedule = Schedule.builder(world)
                .system("sender").writesEvents(hits).forEachRange(() -> 1, (j, from, to) -> {
                    for (int i = 0; i < 20_000; i++) {
                        j.send(hits, hit);
                    }
                })
                .build();
        String merge = "merging the events sent in phase Update (hits of Hit)";
        AtomicBoolean saw = new AtomicBoolean();
        AtomicBoolean done = new AtomicBoolean();
        try (PlannedExecutor ex = (PlannedExecutor) schedule.executor(1)) {
            OwnerActivity activity = ex.activity();
            activity.watch(true);
            Thread sampler = new Thread(() -> {
                while (!done.get()) {
                    if (activity.startedAt() != 0 && merge.equals(activity.label())) {
                        saw.set(true);
                        return;
                    }
                    Thread.onSpinWait();
                }
            }, "owner-activity-sampler");
            sampler.start();
            long until = System.nanoTime() + 60_000_000_000L;
            while (!saw.get() && System.nanoTime() < until) {
                ex.run();
            }
            done.set(true);
            sampler.join();
        }
        assertTrue(saw.get(), "the merge ending phase Update was never named: " + merge);
    }

    @ParameterizedTest(name = "{0} workers")
    @ValueSource(ints = {1, 2})
    void shouldEndTheStepOfAConditionThatThrows(int workers) {
        World world = new World(256);
        Schedule schedule = Schedule.builder(world)
                .system("gated").runIf(RunCondition.of("broken", r -> {
                    throw new IllegalStateException("broken on purpose");
                })).exclusive(w -> { })
                .build();
        try (PlannedExecutor ex = (PlannedExecutor) schedule.executor(workers)) {
            ex.activity().watch(true);
            SystemFailedException e = assertThrows(SystemFailedException.class, ex::run);
            assertTrue(e.getMessage().contains("the run condition of system 'gated' threw"), e.getMessage());
            assertEquals(0, ex.activity().startedAt(), "the failed condition's step ended with it");
        }
    }

    @ParameterizedTest(name = "{0} workers")
    @ValueSource(ints = {1, 2})
    void shouldNameTheCallersSyncPointCallbacks(int workers) {
        World world = new World(256);
        List<String> seen = new CopyOnWriteArrayList<>();
        OwnerActivity[] activity = new OwnerActivity[1];
        boolean[] fail = new boolean[1];
        SyncPoint probe = new SyncPoint() {
            @Override
            public void afterPhase(Phase phase, World w) {
                seen.add(seen(activity[0]));
            }

            @Override
            public void afterRun(World w) {
                seen.add(seen(activity[0]));
            }

            @Override
            public void afterFailure(SystemFailedException failure, World w) {
                seen.add(seen(activity[0]));
            }
        };
        Schedule schedule = Schedule.builder(world)
                .system("mover").exclusive(w -> {
                    if (fail[0]) {
                        throw new IllegalStateException("failing on purpose");
                    }
                })
                .build();
        try (PlannedExecutor ex = (PlannedExecutor) schedule.executor(workers)) {
            activity[0] = ex.activity();
            ex.run(probe);
            assertTrue(seen.stream().allMatch("none"::equals), "unwatched, no callback is named: " + seen);
            seen.clear();
            ex.activity().watch(true);
            ex.run(probe);
            assertTrue(seen.contains("the SyncPoint callback afterPhase(Update)"), seen.toString());
            assertEquals("the SyncPoint callback afterRun", seen.get(seen.size() - 1), seen.toString());
            assertEquals(0, ex.activity().startedAt(), "no step is left open after the run");
            seen.clear();
            fail[0] = true;
            assertThrows(SystemFailedException.class, () -> ex.run(probe));
            assertEquals("the SyncPoint callback afterFailure", seen.get(seen.size() - 1), seen.toString());
            assertEquals(0, ex.activity().startedAt(), "no step is left open after the failed run");
        }
    }
}
