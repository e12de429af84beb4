package dev.orrery.engine;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.orrery.ecs.Relation;
import dev.orrery.ecs.World;
import dev.orrery.ecs.component.Component;
import dev.orrery.engine.ArenaWorkload.Hp;
import dev.orrery.scheduler.Phase;
import dev.orrery.scheduler.ResourceKey;
import dev.orrery.scheduler.RunCondition;
import dev.orrery.scheduler.Schedule;
import dev.orrery.scheduler.States;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.Consumer;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * The watchdog beside each kind of system: it names the slow system and says what its job's
 * range counts (chunks, a range system's indices, a level system's slots; an exclusive or
 * on-enter system as exclusive), and, where no job runs, names what the tick thread is in: a
 * system's or a phase's run condition, a range system's count, or a sync point (before a
 * system, after an exclusive one, ending a phase) with the observer hook running there; an
 * observer hook fired by an exclusive system's direct change is named after its job. Outside
 * the executor's run it names the tick thread's own steps: taking the tick's inputs from the
 * input source, asking it for a hash, the state hash itself, the hash listener, handing the
 * hash to the source, a skipped tick's listeners, and the end-of-tick hook; and, between
 * ticks, the source's bindTickThread.
 */
class WatchdogKindsTest {
    enum Mode { ON }

    static final ResourceKey<States<Mode>> MODE = States.key("mode", Mode.class);

    /** A component whose one field hashes slowly while armed, so the state hash itself stalls. */
    record Slow(Object ref) {
    }

    /** A value whose {@code hashCode} (which the state hash calls for an object field) runs {@code block}. */
    static final class SlowHash {
        private final Runnable block;

        SlowHash(Runnable block) {
            this.block = block;
        }

        @Override
        public int hashCode() {
            block.run();
            return 7;
        }

        @Override
        public boolean equals(Object o) {
            return o == this;
        }
    }

    /**
     * An input source whose step {@code kind} ("beginTick", "wantsHash", "recordHash", "tickSkipped",
     * "bindTickThread") runs {@code block}.
     */
    static final class StallingInputs implements InputSource {
        private final InputBatch batch = new InputBatch();
        private final String kind;
        private final Runnable block;

        StallingInputs(String kind, Runnable block) {
            this.kind = kind;
            this.block = block;
        }

        @Override
        public InputBatch beginTick(long tick) {
            stall("beginTick");
            batch.reset(tick);
            return batch;
        }

        @Override
        public boolean wantsHash(long tick) {
            stall("wantsHash");
            return false;
        }

        @Override
        public void recordHash(long tick, long stateHash) {
            stall("recordHash");
        }

        @Override
        public void tickSkipped(long tick, String system, int chunk) {
            stall("tickSkipped");
        }

        @Override
        public void bindTickThread() {
            stall("bindTickThread");
        }

        private void stall(String step) {
            if (kind.equals(step)) {
                block.run();
            }
        }
    }

    /** Slow until the watchdog has reported (at most 10 s), however late a loaded machine runs its thread. */
    static void slow(List<String> reports) {
        slow(reports, 1);
    }

    /** Slow until the watchdog has made {@code count} reports (at most 10 s). */
    static void slow(List<String> reports, int count) {
        long until = System.nanoTime() + 10_000_000_000L;
        while (reports.size() < count && System.nanoTime() < until) {
            try {
                Thread.sleep(5);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return;
            }
        }
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource(delimiter = '|', quoteCharacter = '"', value = {
        "chunk      | slow | \" chunks [\"",
        "range      | slow | \" indices [0, 1) for \"",
        "level      | slow | \" slots [0, 2) for \"",
        "exclusive  | slow | \"worker 0 (exclusive) for \"",
        "onEnter    | slow | \"worker 0 (exclusive) for \"",
        "condition  |      | \"no job running: the tick thread is in the run condition of system 'gated' (slow) for \"",
        "phaseIf    |      | \"no job running: the tick thread is in the run condition of phase Update (slow) for \"",
        "hook       |      | \"the onAdd observer hook on Hp at the sync point after 'spawner' (ending phase Update) for \"",
        "hookBefore |      | \"the onAdd observer hook on Hp at the sync point before system 'after' for \"",
        "hookAfterX |      | \"the onAdd observer hook on Hp at the sync point after exclusive system 'spawner' for \"",
        "hookInX    | slow | \" ms, in the onAdd observer hook on Hp\"",
        "count      |      | \"no job running: the tick thread is in the count of range system 'counted' for \"",
        "hookOnEnter |     | \"the onAdd observer hook on Hp at the sync point after 'spawner' (ending phase OnEnter(mode=ON)) for \""})
    void shouldNameTheSlowSystemAndWhatItsJobCovers(String kind, String system, String job) {
        assertReported(kind, system, job, 2);
    }

    /** The steps outside jobs are the same on one worker, where the single-threaded executor runs everything. */
    @ParameterizedTest(name = "{0}")
    @CsvSource(delimiter = '|', quoteCharacter = '"', value = {
        "condition  |      | \"no job running: the tick thread is in the run condition of system 'gated' (slow) for \"",
        "phaseIf    |      | \"no job running: the tick thread is in the run condition of phase Update (slow) for \"",
        "hook       |      | \"the onAdd observer hook on Hp at the sync point after 'spawner' (ending phase Update) for \"",
        "hookAfterX |      | \"the onAdd observer hook on Hp at the sync point after exclusive system 'spawner' for \"",
        "hookInX    | slow | \" ms, in the onAdd observer hook on Hp\"",
        "count      |      | \"no job running: the tick thread is in the count of range system 'counted' for \""})
    void shouldNameTheStepOutsideJobsOnOneWorker(String kind, String system, String job) {
        assertReported(kind, system, job, 1);
    }

    /**
     * The tick thread's own steps outside the executor's run, which user code can stall, are named
     * too (before, a blocking input source was not reported at all: the watch began after its
     * inputs; the others were "between jobs").
     */
    @ParameterizedTest(name = "{0} on {1} workers")
    @CsvSource(delimiter = '|', quoteCharacter = '"', value = {
        "beginTick       | 2 | \"no job running: the tick thread is in the input source's beginTick, taking the tick's inputs (WatchdogKindsTest$StallingInputs) for \"",
        "beginTick       | 1 | \"no job running: the tick thread is in the input source's beginTick, taking the tick's inputs (WatchdogKindsTest$StallingInputs) for \"",
        "wantsHash       | 2 | \"no job running: the tick thread is in the input source's wantsHash (WatchdogKindsTest$StallingInputs) for \"",
        "stateHash       | 2 | \"no job running: the tick thread is in the state hash of the world (World.stateHash, every 1 tick) for \"",
        "stateHash       | 1 | \"no job running: the tick thread is in the state hash of the world (World.stateHash, every 1 tick) for \"",
        "hashListener    | 2 | \"no job running: the tick thread is in the hash listener (Simulation.hashListener) for \"",
        "recordHash      | 2 | \"no job running: the tick thread is in the input source's recordHash, handed the state hash (WatchdogKindsTest$StallingInputs) for \"",
        "tickSkipped     | 2 | \"no job running: the tick thread is in the input source's tickSkipped (WatchdogKindsTest$StallingInputs) for \"",
        "failureListener | 2 | \"no job running: the tick thread is in the failure listener (Simulation.failureListener) for \"",
        "endOfTick       | 2 | \"no job running: the end-of-tick hook (Simulation.atEndOfTick\"",
        "bindTickThread  | 2 | \"no job running: the tick thread is in the input source's bindTickThread, which Simulation.bindTickThread calls before the tick (WatchdogKindsTest$StallingInputs) for \"",
        "bindTickThread  | 1 | \"no job running: the tick thread is in the input source's bindTickThread, which Simulation.bindTickThread calls before the tick (WatchdogKindsTest$StallingInputs) for \""})
    void shouldNameTheTickThreadsOwnSteps(String kind, int workers, String job) {
        assertReported(kind, null, job, workers);
    }

    /**
     * A source that blocks in bindTickThread (between ticks, reported under the next tick's number)
     * and then in that tick's beginTick is reported twice: each watched span once, whatever its tick.
     */
    @ParameterizedTest(name = "{0} workers")
    @CsvSource({"1", "2"})
    void shouldReportAStalledBindAndTheTickAfterItApart(int workers) {
        List<String> reports = new CopyOnWriteArrayList<>();
        AtomicBoolean armed = new AtomicBoolean();
        InputBatch batch = new InputBatch();
        InputSource source = new InputSource() {
            @Override
            public InputBatch beginTick(long tick) {
                if (armed.get()) {
                    slow(reports, 2);
                }
                batch.reset(tick);
                return batch;
            }

            @Override
            public void recordHash(long tick, long stateHash) {
            }

            @Override
            public void bindTickThread() {
                if (armed.get()) {
                    slow(reports, 1);
                }
            }
        };
        World world = new World();
        try (Simulation sim = Simulation.builder(world).stepSeconds(0.01).workers(workers)
                .systems(s -> s.system("idle").exclusive(w -> { })).build()) {
            sim.inputs(source);
            sim.tick(); // warm, unwatched
            sim.watchdog(5, (tick, elapsed, name, what) -> reports.add(tick + "|" + what));
            armed.set(true);
            sim.bindTickThread();
            long t = sim.tick();
            assertEquals(2, reports.size(), reports.toString());
            assertTrue(reports.get(0).startsWith(t + "|") && reports.get(0).contains("bindTickThread"), reports.toString());
            assertTrue(reports.get(1).startsWith(t + "|") && reports.get(1).contains("beginTick"), reports.toString());
        }
    }

    private static void assertReported(String kind, String system, String job, int workers) {
        List<String> reports = new CopyOnWriteArrayList<>();
        AtomicBoolean armed = new AtomicBoolean();
        Runnable block = () -> {
            if (armed.get()) {
                slow(reports);
            }
        };
        World world = new World();
        Component<Hp> hp = world.component(Hp.class);
        Relation childOf = world.relations().childOf();
        long root = world.spawn(new Hp(1));
        world.relations().add(world.spawn(new Hp(2)), childOf, root);
        if (kind.startsWith("hook")) {
            world.observe(hp).onAdd((w, e, commands) -> block.run());
        }
        if (kind.equals("stateHash")) {
            world.referenceComponent(Slow.class);
            world.spawn(new Slow(new SlowHash(block)));
        }
        Consumer<Schedule.Builder> systems = s -> {
            switch (kind) {
                case "chunk" -> s.system("slow").query(world.query().with(hp).build()).reads(hp)
                        .forEachChunk(j -> block.run());
                case "range" -> s.system("slow").forEachRange(() -> 1, (j, from, to) -> block.run());
                case "count" -> s.system("counted").forEachRange(() -> {
                    block.run();
                    return 1;
                }, (j, from, to) -> { });
                case "level" -> s.system("slow").reads(hp).forEachLevel(childOf, (j, h, from, to) -> block.run());
                case "exclusive" -> s.system("slow").exclusive(w -> block.run());
                case "onEnter" -> s.system("slow").onEnter(MODE, Mode.ON).exclusive(w -> block.run());
                case "condition" -> s.system("gated").runIf(RunCondition.of("slow", r -> {
                    block.run();
                    return true;
                })).exclusive(w -> { });
                case "phaseIf" -> s.runIf(Phase.UPDATE, RunCondition.of("slow", r -> {
                    block.run();
                    return true;
                })).system("gated").exclusive(w -> { });
                case "hook" -> s.system("spawner").spawns(hp).forEachRange(() -> 1,
                        (j, from, to) -> j.commands().add(j.commands().spawn(), hp, new Hp(3)));
                case "hookBefore" -> s.system("spawner").spawns(hp).forEachRange(() -> 1,
                        (j, from, to) -> j.commands().add(j.commands().spawn(), hp, new Hp(3)))
                        .system("after").afterStructuralChanges().forEachRange(() -> 1, (j, from, to) -> { });
                case "hookOnEnter" -> s.system("spawner").onEnter(MODE, Mode.ON).spawns(hp).forEachRange(() -> 1,
                        (j, from, to) -> j.commands().add(j.commands().spawn(), hp, new Hp(3)));
                case "hookAfterX" -> s.system("spawner").exclusive((w, j) -> j.commands().add(j.commands().spawn(),
                        hp, new Hp(3)));
                case "hookInX" -> s.system("slow").exclusive(w -> w.add(w.spawn(), hp, new Hp(3)));
                case "tickSkipped", "failureListener" -> s.system("broken").exclusive(w -> {
                    if (armed.get()) {
                        throw new IllegalStateException("broken on purpose, to skip the tick");
                    }
                });
                case "beginTick", "wantsHash", "stateHash", "hashListener", "recordHash", "endOfTick", "bindTickThread" ->
                        s.system("idle").exclusive(w -> { });
                default -> throw new AssertionError(kind);
            }
        };
        try (Simulation sim = Simulation.builder(world).stepSeconds(0.01).workers(workers)
                .hashEvery(kind.equals("wantsHash") ? 0 : 1) // asked only when the simulation's own rule hashes not
                .resource(MODE, new States<>(Mode.class, Mode.ON))
                .systems(systems).build()) {
            switch (kind) {
                case "beginTick", "wantsHash", "recordHash", "tickSkipped", "bindTickThread" ->
                        sim.inputs(new StallingInputs(kind, block));
                case "hashListener" -> sim.hashListener((t, hash, w) -> block.run());
                case "failureListener" -> sim.failureListener((t, failure, first) -> block.run());
                case "endOfTick" -> sim.atEndOfTick((t, nanos) -> block.run());
                default -> { }
            }
            if (kind.equals("tickSkipped") || kind.equals("failureListener")) {
                sim.onSystemFailure(FailurePolicy.SKIP_TICK);
            }
            if (!kind.startsWith("onEnter") && !kind.endsWith("OnEnter")) { // an on-enter system runs on the first tick only
                sim.tick(); // warm, unwatched: a loaded machine's first tick may take longer than the limit
            }
            sim.watchdog(5, (tick, elapsed, name, what) -> reports.add(name + "|" + what));
            armed.set(true);
            if (kind.equals("bindTickThread")) {
                sim.bindTickThread(); // between ticks, on the thread that ticks next
            } else {
                sim.tick();
            }
        }
        assertEquals(1, reports.size(), reports.toString());
        String[] report = reports.get(0).split("\\|", 2);
        assertEquals(system == null ? "" : system, report[0], reports.toString());
        assertTrue(report[1].contains(job), reports.toString());
    }
}
