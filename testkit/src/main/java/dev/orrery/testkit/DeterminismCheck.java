package dev.orrery.testkit;

import dev.orrery.ecs.SnapshotException;
import dev.orrery.engine.ReplayDivergenceException;
import dev.orrery.engine.RunRecorder;
import dev.orrery.engine.RunReplayer;
import dev.orrery.engine.Simulation;
import dev.orrery.engine.internal.EngineInternals;
import dev.orrery.scheduler.SystemFailedException;
import dev.orrery.scheduler.executor.BatchOverride;
import dev.orrery.scheduler.executor.JobOrderOverride;
import dev.orrery.scheduler.executor.TieOrderOverride;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import java.util.stream.Stream;

/**
 * Proves a game's simulation deterministic the way Orrery proves its own: the same inputs give
 * the same world, bit for bit, on every tick, whatever the worker count, the batch size, a
 * snapshot restored mid-run or a recording replayed.
 *
 * <p>Over 500 lines (about 630), on purpose: it is the kit's one entry point, its settings and
 * the order of its runs; the diagnosis of a failing run already lives apart ({@code SystemTrail},
 * {@code JobOrderOrigin}, {@code TieOrderOrigin}, {@code RestoreSuspects}, {@code LikelyCause}).
 *
 * <pre>{@code
 * @Test
 * void myGameIsDeterministic() {
 *     DeterminismCheck.of((workers, populate) -> MyGame.build(workers, populate))
 *             .ticks(300)
 *             .inputs((tick, send) -> send.input(1, MyGame.MOVE, MyGame.move(tick)))
 *             .run();
 * }
 * }</pre>
 *
 * <p>{@link #run()} runs the game once on one worker as the reference, then on each worker
 * count (default 1, 2, 4, 8) with the game's own batching and with every system forced into
 * small jobs (default 1 and 64 rows, so work really crosses workers); once on one worker with
 * every system's work split into its finest jobs run last to first (see {@link #reverseJobOrder},
 * after the runs on one worker and before those on more), which catches every time a result
 * that follows the order one system's jobs run in; once on one worker with each phase's systems
 * that the graph leaves unordered run the other way round (see {@link #flipSystemOrder}), which
 * catches every time two such systems that share state outside their declarations; restores a snapshot
 * taken at {@link #snapshotAt} into a new simulation on 1 and on the most workers, and records
 * a run and replays it on 1 and on the most workers; every tick's state (the world's state
 * hash, and the bytes each resource with a codec writes) is compared with the reference's (a
 * replay's too, in its end-of-tick hook, which the kit sets in place of any the game set, whether
 * or not the game's {@code hashEvery} had the recording hash that tick), and so is what skipped it
 * under {@code FailurePolicy.SKIP_TICK}:
 * a run must skip the reference's ticks because the same system (or sync point) threw the same
 * class of exception, and the recorded run's journal must name the same system (cut to 1 024
 * bytes, as a journal keeps it), since a phase runs to its end whichever of its systems throws
 * and the states may agree where the runs did not. On the first difference it throws a {@link DeterminismFailure}
 * naming the run, the tick, the system after which (or after whose commands) the states first
 * differ (found by running the game twice on one worker with the state hashed after each
 * system and each sync point), the entities, components and fields that differ, with both
 * values, and the resources that differ; a restored run that differs also names a resource
 * object a system captured instead of reading {@code job.resource(KEY)} (the restore replaced
 * it, yet it kept changing) and the resources without a codec that systems write (in a game
 * with an exclusive system, every resource without a codec: an exclusive system may write any
 * resource whatever it declares, and a world moved between cluster nodes is checked by the same
 * rule). A system
 * that throws fails the check the same way.
 *
 * <p><b>Threading:</b> not thread-safe; {@link #run()} builds and ticks every simulation on the
 * calling thread and closes them.
 */
public final class DeterminismCheck {
    private static final String REVERSED = "1 worker, jobs in reverse order";
    private static final String FLIPPED = "1 worker, unordered systems in reverse order";
    /** How many pairs of diagnostic runs on one worker a difference that a run on one worker showed gets. */
    private static final int TRIES = 3;
    private static final String SAME_SETTINGS = "1 worker, the game's own batching";
    /** The game's factory, every call checked (see {@link FactoryCall#checked}): the check's runs and its diagnoses'. */
    private final SimulationFactory factory;
    private long ticks = 200;
    private InputScript script = InputScript.NONE;
    private int[] workers = {1, 2, 4, 8};
    private int[] batches = {1, 64};
    private long snapshotAt = -1;
    private boolean replay = true;
    private boolean reverse = true;
    private boolean flip = true;
    private int maxDifferences = 10;
    /** What skipped each of the reference run's ticks, made by {@link #run()}. */
    private RunSkips skips;

    private DeterminismCheck(SimulationFactory factory) {
        // a simulation on another count would make a run named "on 4 workers" run on the factory's count
        this.factory = FactoryCall.checked(java.util.Objects.requireNonNull(factory, "factory"), "DeterminismCheck.run",
                workers -> "the run on " + workers + " could not be checked", built -> "check a game that always runs "
                + "on " + built + " (a cluster WorldBlueprint, a hosted world) with workers(" + built + ")");
    }

    /**
     * A check of the simulations {@code factory} builds.
     *
     * @param factory builds each run's simulation; not null
     * @return a check with the defaults, to configure and {@link #run()}
     * @throws IllegalStateException when the kit is on the class path and the engine on the
     *     module path, naming the fix (see {@code KitModule})
     * @throws NullPointerException if {@code factory} is null
     */
    public static DeterminismCheck of(SimulationFactory factory) {
        KitModule.check("DeterminismCheck.of");
        return new DeterminismCheck(factory);
    }

    /**
     * Ticks each run goes through (default 200).
     *
     * @param n the ticks, 1 or more
     * @return this check
     * @throws IllegalArgumentException naming the value when it is below 1
     */
    public DeterminismCheck ticks(long n) {
        if (n < 1) {
            throw new IllegalArgumentException("a check needs at least 1 tick, got " + n);
        }
        this.ticks = n;
        return this;
    }

    /**
     * The inputs every run receives (default none).
     *
     * @param inputs the script, not null ({@link InputScript#NONE} for none)
     * @return this check
     * @throws NullPointerException if {@code inputs} is null
     */
    public DeterminismCheck inputs(InputScript inputs) {
        this.script = java.util.Objects.requireNonNull(inputs, "inputs");
        return this;
    }

    /**
     * The worker counts to run on (default 1, 2, 4, 8); the second run on one worker is made without a 1 too.
     *
     * @param counts one or more worker counts, each 1 or more; copied
     * @return this check
     * @throws IllegalArgumentException if no count is given or a count is below 1
     * @throws NullPointerException if {@code counts} is null
     */
    public DeterminismCheck workers(int... counts) {
        java.util.Objects.requireNonNull(counts, "worker counts");
        if (counts.length == 0) {
            throw new IllegalArgumentException("workers() needs at least one worker count, such as workers(1, 4); "
                    + "leave the call out to run on 1, 2, 4 and 8 workers");
        }
        for (int w : counts) {
            if (w < 1) {
                throw new IllegalArgumentException("a worker count must be at least 1, got " + w);
            }
        }
        this.workers = counts.clone();
        return this;
    }

    /**
     * The job sizes every system is forced into on more than one worker, besides the game's own
     * batching (default 1 and 64 rows); none: only the game's own.
     *
     * @param minBatchRows the forced smallest job sizes in rows, each 1 or more; none to force
     *     none; copied
     * @return this check
     * @throws IllegalArgumentException naming a size below 1
     */
    public DeterminismCheck batchSizes(int... minBatchRows) {
        for (int b : minBatchRows) {
            if (b < 1) {
                throw new IllegalArgumentException("a forced batch size must be at least 1 row, got " + b);
            }
        }
        this.batches = minBatchRows.clone();
        return this;
    }

    /**
     * The tick after which a snapshot is taken and restored (default half the ticks, so a
     * check of a single tick has none); 0: no snapshot check. It must come before the last
     * tick ({@link #run()} refuses a tick at or past {@link #ticks}, where no restored run
     * would be compared).
     *
     * @param tick the tick, 1 to {@code ticks - 1}, or 0 for no snapshot check
     * @return this check
     * @throws IllegalArgumentException naming the value when it is negative
     */
    public DeterminismCheck snapshotAt(long tick) {
        if (tick < 0) {
            throw new IllegalArgumentException("the snapshot tick must be 0 (none) or more, got " + tick);
        }
        this.snapshotAt = tick;
        return this;
    }

    /**
     * Whether a run is recorded and replayed (default yes).
     *
     * @param on false to leave the record-and-replay runs out
     * @return this check
     */
    public DeterminismCheck recordAndReplay(boolean on) {
        this.replay = on;
        return this;
    }

    /**
     * Whether a run on one worker runs every system's jobs in reverse order (default yes): each
     * chunk system one job per chunk, from its last chunk to its first; each range system up to
     * 64 ranges, the last first; each level of a level system, in level order, its jobs last to
     * first; exclusive systems as always. A game that keeps to the rules gives the same state
     * bit for bit, since commands and events merge by chunk (or range, or slot), never in the
     * order jobs ran; a float total the jobs add to, a list they append to or "the first job to
     * see it wins" differ, every time. Like the forced batch sizes it splits a system that
     * counts on running as one job: gather every row in an exclusive system instead.
     *
     * @param on false to leave the reversed-jobs run out
     * @return this check
     */
    public DeterminismCheck reverseJobOrder(boolean on) {
        this.reverse = on;
        return this;
    }

    /**
     * Whether a run on one worker runs, in each phase, the systems that the graph leaves
     * unordered (no conflicting declaration, no before/after) the other way round (default
     * yes), keeping every declared order and conflict and each system's change tick. On one
     * worker such systems run in the graph's order every time, on several either may run
     * first; a game whose unordered systems share state outside their declarations (a plain
     * field one writes and the other reads, a resource one did not declare) differs here every
     * time, and the report names the two systems. A game that keeps to the rules gives the same
     * state bit for bit.
     *
     * @param on false to leave the flipped-systems run out
     * @return this check
     */
    public DeterminismCheck flipSystemOrder(boolean on) {
        this.flip = on;
        return this;
    }

    /**
     * How many differences a failure lists (default 10).
     *
     * @param n the most differences listed; values below 1 count as 1
     * @return this check
     */
    public DeterminismCheck maxDifferences(int n) {
        this.maxDifferences = Math.max(1, n);
        return this;
    }

    /**
     * Runs every configuration and compares each tick's state hash with the reference run's.
     *
     * @return the runs that were compared, in order, for a test's log
     * @throws DeterminismFailure at the first run and tick that differ, or fail
     * @throws IllegalArgumentException before anything runs, if {@link #snapshotAt} is not
     *     before the last tick
     * @throws IllegalStateException naming {@code SimulationFactory.create} when the factory
     *     returns null, a simulation on another worker count than it was asked for (as
     *     {@link GoldenRecording} refuses it), a world it returned before, or a populated world
     *     when asked for an empty one, in any run of the check or of a failure's diagnosis
     */
    public List<String> run() {
        if (snapshotAt > 0 && snapshotAt >= ticks) {
            throw new IllegalArgumentException("snapshotAt(" + snapshotAt + ") is not before the last tick: the check "
                    + "runs " + ticks + (ticks == 1 ? " tick" : " ticks") + " (ticks(" + ticks + ")), so no restored run "
                    + "would ever be compared; "
                    + (ticks >= 2 ? "take the snapshot at a tick from 1 to " + (ticks - 1) + ", " : "run more ticks, ")
                    + "or pass snapshotAt(0) for no snapshot check");
        }
        List<String> done = new ArrayList<>();
        long snapTick = snapshotTick();
        long[] reference = new long[(int) ticks];
        byte[] snapshot = null;
        skips = new RunSkips(ticks);
        try (Simulation ref = build(1, true, 0)) {
            ScriptInputs in = new ScriptInputs(script);
            ref.inputs(in);
            for (int t = 0; t < ticks; t++) {
                if (snapTick > 0 && t == snapTick) {
                    snapshot = ref.snapshot();
                }
                tick(ref, "the reference (1 worker)", t);
                reference[t] = ResourceState.hash(ref);
                skips.reference(t, in);
            }
        }
        done.add("reference: 1 worker, the game's own batching");
        boolean reversed = false;
        for (int w : workers) {
            if (w > 1 && !reversed) {
                reversed = runReordered(reference, done);
            }
            for (int b : batchesFor(w)) {
                String name = w + (w == 1 ? " worker" : " workers") + (b == 0 ? ", the game's own batching" : ", batch " + b);
                if (done.contains(name)) {
                    continue; // workers(2, 1): the run with the reference's settings came before the reordered runs
                }
                try (Simulation sim = build(w, true, b)) {
                    compare(sim, name, 0, reference, null, Order.USUAL);
                }
                done.add(name);
            }
        }
        if (!reversed) {
            runReordered(reference, done);
        }
        int most = java.util.Arrays.stream(workers).max().orElse(1); // workers() refuses counts below 1
        if (snapshot != null) {
            for (int w : new int[] {1, most}) {
                String name = "restored from the snapshot of tick " + snapTick + " on " + w + (w == 1 ? " worker" : " workers");
                try (Simulation sim = buildEmpty(w)) {
                    RestoreSuspects restored = RestoreSuspects.before(sim, snapshot);
                    sim.restore(snapshot); // buildEmpty made sure its world never held an entity
                    compare(sim, name, snapTick, reference, restored, Order.USUAL);
                }
                done.add(name);
                if (most == 1) {
                    break;
                }
            }
        }
        if (replay) {
            recordAndReplay(most, reference, done);
        }
        return done;
    }

    /**
     * The runs on one worker with every system's jobs in reverse order, and with the ties flipped, after the run with
     * the reference's settings (made here when workers() has no 1: their diagnoses need a game that repeats itself).
     */
    private boolean runReordered(long[] reference, List<String> done) {
        for (Order order : Order.values()) {
            String name = order == Order.USUAL ? SAME_SETTINGS : order == Order.JOBS_REVERSED ? REVERSED : FLIPPED;
            if (order == Order.USUAL ? !done.contains(name) : order == Order.JOBS_REVERSED ? reverse : flip) {
                try (Simulation sim = build(1, true, 0, order)) {
                    compare(sim, name, 0, reference, null, order);
                }
                done.add(name);
            }
        }
        return true;
    }

    /** The order a run on one worker takes: the graph's, every system's jobs reversed, or the graph's ties flipped. */
    private enum Order { USUAL, JOBS_REVERSED, TIES_FLIPPED }

    private int[] batchesFor(int w) {
        if (w == 1) {
            return new int[] {0};
        }
        int[] out = new int[batches.length + 1];
        System.arraycopy(batches, 0, out, 1, batches.length);
        return out;
    }

    private void recordAndReplay(int most, long[] reference, List<String> done) {
        Path dir;
        try {
            dir = Files.createTempDirectory("orrery-determinism-");
        } catch (IOException e) {
            throw new UncheckedIOException("cannot make a folder for the recording", e);
        }
        try {
            int recordOn = most; // workers(1) alone: a game built for one worker (a cluster world) records on one
            String name = "recorded on " + recordOn + (recordOn == 1 ? " worker" : " workers");
            try (Simulation sim = build(recordOn, true, 0);
                 RunRecorder rec = RunRecorder.start(sim, dir, ScriptPipelines.forScript(script, ticks))) {
                for (int t = 0; t < ticks; t++) {
                    long tick = t;
                    script.inputs(tick, (client, type, payload) -> ScriptPipelines.publish(rec.inputs(), tick, client, type,
                            payload));
                    tick(sim, name, t);
                    if (ResourceState.hash(sim) != reference[t]) {
                        throw failure(name, t, sim, null, Order.USUAL);
                    }
                }
            } catch (IOException e) {
                throw new UncheckedIOException("recording into " + dir + " failed", e);
            }
            RunSkips.Mismatch skip = skips.againstJournal(dir.resolve(RunRecorder.JOURNAL));
            if (skip != null) {
                throw skipFailure(name, skip.tick(), skip.text(), null);
            }
            done.add(name);
            for (int w : new int[] {1, most}) {
                String replayName = "the recording replayed on " + w + (w == 1 ? " worker" : " workers");
                try (Simulation sim = buildEmpty(w)) {
                    // every tick against the reference, not only those the journal hashed (none under hashEvery(0)):
                    // a replay that differs mid-run and agrees again by the next hashed tick or the end would pass
                    sim.atEndOfTick((tick, nanos) -> {
                        if (tick < reference.length && ResourceState.hash(sim) != reference[(int) tick]) {
                            throw new ReplayDiffered(tick);
                        }
                    });
                    try {
                        RunReplayer.replay(dir, sim);
                    } catch (ReplayDiffered e) { // the replay stopped at the end of the tick that differs
                        throw failure(replayName, e.tick, sim, null, Order.USUAL);
                    } catch (SnapshotException e) {
                        throw systemFailure(replayName, sim.currentTick(), e);
                    } catch (ReplayDivergenceException e) {
                        if (e.recordedHash() == 0 && e.replayedHash() == 0) { // a skip that differs; the states may agree
                            throw new DeterminismFailure("determinism check failed: " + replayName + " differs from the "
                                    + "recording at tick " + e.tick() + ": " + e.getMessage() + "\n  " + RunSkips.ADVICE,
                                    replayName, e.tick(), null, List.of(), e);
                        }
                        throw failure(replayName, e.tick(), sim, null, Order.USUAL);
                    } catch (IOException e) {
                        throw new UncheckedIOException("replaying " + dir + " failed", e);
                    } catch (RuntimeException e) {
                        throw systemFailure(replayName, sim.currentTick(), e);
                    }
                    if (ResourceState.hash(sim) != reference[(int) ticks - 1]) { // a replay of fewer ticks
                        throw failure(replayName, ticks - 1, sim, null, Order.USUAL);
                    }
                }
                done.add(replayName);
                if (most == 1) {
                    break;
                }
            }
        } finally {
            delete(dir);
        }
    }

    /** Thrown by a replay's end-of-tick hook at the first tick whose state differs from the reference's. */
    private static final class ReplayDiffered extends RuntimeException {
        private static final long serialVersionUID = 1L;
        private final long tick;

        ReplayDiffered(long tick) {
            super("the replay differs from the reference at tick " + tick, null, false, false);
            this.tick = tick;
        }
    }

    /**
     * Runs {@code sim} fed by the script from tick {@code from} and compares each tick with the
     * reference's: what skipped it, if anything ({@link RunSkips}), then its state.
     */
    private void compare(Simulation sim, String name, long from, long[] reference, RestoreSuspects restored,
            Order order) {
        ScriptInputs in = new ScriptInputs(script);
        sim.inputs(in);
        for (long t = from; t < ticks; t++) {
            tick(sim, name, t);
            String skip = skips.against(t, in.skipped());
            if (skip != null) {
                throw skipFailure(name, t, skip, in.skipped());
            }
            if (ResourceState.hash(sim) != reference[(int) t]) {
                throw failure(name, t, sim, restored, order);
            }
        }
    }

    private void tick(Simulation sim, String name, long t) {
        try {
            sim.tick();
        } catch (RuntimeException e) {
            throw systemFailure(name, t, e);
        }
    }

    /** A run that skipped tick {@code t} otherwise than the reference ({@code how}); {@code run}: its failure, or null. */
    private DeterminismFailure skipFailure(String name, long t, String how, SystemFailedException run) {
        String system = run != null ? run.system() : skips.system(t);
        return new DeterminismFailure("determinism check failed: " + name + " differs from the reference (1 worker) at "
                + "tick " + t + ": " + how + "\n  " + RunSkips.ADVICE, name, t, system, List.of(), run);
    }

    private DeterminismFailure systemFailure(String name, long t, RuntimeException e) {
        String system = e instanceof SystemFailedException f ? f.system() : null;
        String message = "determinism check failed: " + name + " failed at tick " + t
                + (system != null ? " in system '" + system + "'" : "") + ": " + e.getMessage();
        return new DeterminismFailure(message, name, t, system, List.of(), e);
    }

    /** The report of {@code sim} (run {@code name}, in {@code order}; {@code restored}: null or its restore's) differing at tick {@code t}. */
    private DeterminismFailure failure(String name, long t, Simulation sim, RestoreSuspects restored,
            Order order) {
        boolean reversed = order == Order.JOBS_REVERSED;
        Set<String> components = new LinkedHashSet<>();
        List<Difference> diffs;
        List<String> resources;
        boolean remadeAgrees; // the reference made again for the report: a difference that comes and goes may be gone
        try (Simulation ref = build(1, true, 0)) {
            ref.inputs(new ScriptInputs(script));
            for (long k = 0; k <= t; k++) {
                ref.tick();
            }
            diffs = WorldDiff.between(ref.world(), sim.world(), maxDifferences, components);
            resources = ResourceState.differences(ref, sim);
            remadeAgrees = ResourceState.hash(ref) == ResourceState.hash(sim);
        }
        Diagnosis d = order == Order.TIES_FLIPPED ? flippedDiagnosis(t)
                : diagnose(t, restored != null, restored == null ? null : restored.snapshot(), reversed, sim.workers() == 1);
        if (reversed && d.system() != null) {
            d = JobOrderOrigin.find(factory, script, d, t);
        }
        StringBuilder m = new StringBuilder("determinism check failed: ").append(name)
                .append(" differs from the reference (1 worker) at tick ").append(t);
        m.append("\n  ").append(d.text());
        String cause = d.cause() != null ? d.cause() : order == Order.TIES_FLIPPED ? LikelyCause.FLIPPED
                : LikelyCause.of(SAME_SETTINGS.equals(name), reversed, restored, sim);
        if (cause != null) {
            m.append("\n  ").append(cause);
        }
        for (String r : resources) {
            m.append("\n  ").append(r);
        }
        if (remadeAgrees) {
            m.append("\n  the reference made again for this report agrees with this run at tick ").append(t).append(": the "
                    + "difference comes and goes from run to run, so no entity or field that differed can be shown");
        } else if (diffs.isEmpty() && !resources.isEmpty()) {
            m.append("\n  every entity holds the same components and values: only the resources above differ");
        } else if (diffs.isEmpty()) {
            m.append("\n  every entity holds the same components and values: the entity table (ids, generations, free "
                    + "list), the archetype layout or a relation's pairs differ");
        } else {
            m.append("\n  differences at the end of tick ").append(t).append(" (the first ").append(maxDifferences)
                    .append(" at most):");
            for (Difference x : diffs) {
                m.append("\n    ").append(x);
            }
            if (!components.isEmpty()) { // empty when only pairs differ
                m.append("\n  components whose values differ: ").append(components);
            }
        }
        return new DeterminismFailure(m.toString(), name, t, d.system(), diffs, null);
    }

    /** The two systems behind a difference of the run with the ties flipped (see {@link TieOrderOrigin}). */
    private Diagnosis flippedDiagnosis(long t) {
        try {
            return TieOrderOrigin.find(factory, script, t);
        } catch (RuntimeException e) {
            FactoryRefusedException.rethrowIfRefusal(e); // the factory's fault, refused as the check's own runs refuse it
            return new Diagnosis(null, "the diagnostic runs on 1 worker failed: " + e);
        }
    }

    /**
     * Runs the game twice on one worker (the second restored from {@code snapshot} when the
     * failing run was), hashing the world after each system and each sync point, up to tick
     * {@code t}, and names the first system after which (or after whose commands) the two differ;
     * when the failing run ran its jobs in reverse order, so does the second. When the failing
     * run was on one worker ({@code oneWorker}) the two must differ somewhere: a pair that agrees
     * through {@code t} runs on to the last tick, and up to {@link #TRIES} pairs are tried.
     */
    private Diagnosis diagnose(long t, boolean restored, byte[] snapshot, boolean reversed, boolean oneWorker) {
        long from = restored ? (long) snapshotTick() : 0;
        long last = oneWorker ? ticks - 1 : t;
        int tries = oneWorker ? TRIES : 1;
        for (int i = 0; i < tries; i++) {
            try (Simulation a = build(1, true, 0);
                 Simulation b = build(1, !restored, 0, reversed ? Order.JOBS_REVERSED : Order.USUAL)) {
                Diagnosis d = SystemTrail.diagnose(a, b, script, from, last, restored ? snapshot : null, reversed);
                if (d != null) {
                    return d;
                }
            } catch (RuntimeException e) {
                FactoryRefusedException.rethrowIfRefusal(e);
                return new Diagnosis(null, "the diagnostic runs on 1 worker failed: " + e);
            }
        }
        return SystemTrail.agreed(last, oneWorker, tries);
    }

    private long snapshotTick() {
        return snapshotAt < 0 ? ticks / 2 : snapshotAt; // run() refused a snapshotAt at or past the last tick
    }

    private Simulation build(int workers, boolean populate, int batch) {
        return build(workers, populate, batch, Order.USUAL);
    }

    /** The factory's simulation, with its jobs forced into {@code batch} rows (0: not), in {@code order}. */
    private Simulation build(int workers, boolean populate, int batch, Order order) {
        if (batch > 0) {
            BatchOverride.set(batch);
        }
        if (order == Order.JOBS_REVERSED) {
            JobOrderOverride.reverse();
        } else if (order == Order.TIES_FLIPPED) {
            TieOrderOverride.flip();
        }
        try {
            return factory.create(workers, populate);
        } finally {
            BatchOverride.clear();
            JobOrderOverride.clear();
            TieOrderOverride.clear();
        }
    }

    /**
     * A simulation to restore or replay into: the factory's with {@code populate} false, whose
     * world must never have held an entity. Refused, naming the factory's flag, when it holds some.
     */
    private Simulation buildEmpty(int workers) {
        Simulation sim = build(workers, false, 0);
        int n = sim.world().entityCount();
        if (n > 0 || EngineInternals.everHeldEntities(sim.world())) {
            sim.close();
            throw PopulateFlag.ignored(workers, n > 0 ? "holds " + n + (n == 1 ? " entity" : " entities")
                    : "held entities before (despawned ones keep their ids)", null);
        }
        return sim;
    }

    private static void delete(Path dir) {
        try (Stream<Path> files = Files.walk(dir)) {
            files.sorted(Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
        } catch (IOException e) {
            // a temporary folder left behind is harmless
        }
    }
}
