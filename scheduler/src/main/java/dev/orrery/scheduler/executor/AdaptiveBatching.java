package dev.orrery.scheduler.executor;

import dev.orrery.ecs.ownership.TuningProperty;
import dev.orrery.scheduler.BatchDecision;
import dev.orrery.scheduler.Schedule;
import java.util.ArrayList;
import java.util.List;

/**
 * Chooses how many jobs each system of a {@link ParallelExecutor} is split into. A system
 * whose {@code minBatchRows} is the default ({@link Schedule#DEFAULT_MIN_BATCH_ROWS}, which
 * this class reads as "not set") is adaptive: its first {@value #WARM_SAMPLES} runs with rows
 * go inline and are timed with {@link System#nanoTime} (two calls per inline run, nothing
 * allocated), and the lowest cost per row seen in its timed runs sets its floor: {@code targetJobNanos / nanosPerRow} rows per job. A run with fewer than two
 * floors' worth of rows goes inline (a single job would only add a hand-off), a larger one is
 * split by {@link SystemRun#split} into at most {@code maxJobs} jobs of at least the floor. A
 * system with its own {@code minBatchRows} keeps the fixed rule: inline below it, else split
 * with it. No choice changes a result: commands are keyed by chunk ordinal (or a range job's
 * ordinal among ascending ranges), so playback order is the same for every split.
 *
 * <p>The lowest time is used because noise (another process, a page fault, code not yet
 * compiled) only ever adds time; the first runs, before the JIT compiles the body, are
 * slower, so the floor only falls as samples come in. A split system is not timed (its jobs
 * overlap), so one run in {@value #RESAMPLE_EVERY} goes inline and is timed, until
 * {@value #MAX_SAMPLES} timed runs: an estimate taken before the body was compiled is
 * corrected. Then the re-samples stop; a run kept inline by the pick-up rule below is still
 * timed, and may only lower the estimate. An inline run whose time would not be used (a run too
 * small to split, once the estimate is fixed) is not timed at all.
 * One trade: a system that is already large on its first runs runs them inline.
 *
 * <p><b>Pick-up rule.</b> An adaptive system whose estimated run ({@code rows * nanosPerRow})
 * is shorter than its split jobs' measured wait for a worker thread runs inline: see
 * {@link PickupRule}, one per system, fed by each split run's first pick-up (the executor times
 * it). On the 2-vCPU machine the particle benchmark runs on, a parked worker took 25 us or
 * more to wake, where the 10 000-particle pipeline costs 15-20 us inline. A zero target job
 * time turns the rule off (every adaptive system split as far as allowed, as tests ask).
 *
 * <p><b>Threading:</b> used by the executor's calling thread only (decisions and timings are
 * made in {@code dispatch}); {@link #decisions} reads it between runs on the same thread.
 */
final class AdaptiveBatching {
    /** The default cost a job should have at least: well above a job's hand-off to a spinning worker (about 1 us). */
    static final long DEFAULT_TARGET_JOB_NANOS = 10_000;
    /**
     * The system property that replaces {@link #DEFAULT_TARGET_JOB_NANOS}, read when an executor
     * is built: a whole number of 0 or more (0 splits every adaptive system as far as allowed,
     * a huge one keeps every system inline); anything else fails the build, naming it.
     */
    static final String TARGET_PROPERTY = "orrery.batch.targetJobNanos";
    /** Inline runs timed before an adaptive system may be split. */
    static final int WARM_SAMPLES = 8;
    /** Timed runs in all; after them the estimate is fixed. */
    static final int MAX_SAMPLES = 64;
    /** Between the warm-up and {@link #MAX_SAMPLES}, every this many runs one runs inline and is timed. */
    static final int RESAMPLE_EVERY = 64;

    private final SystemRun[] runs;
    private final ChunkPipelines pipelines;
    private final long targetJobNanos;
    private final boolean[] adaptive;
    private final double[] nanosPerRow;
    private final int[] samples;
    private final int[] sinceSample;
    private final long[] lastRows;
    private final int[] lastJobs;
    /** Per system: whether its split jobs would be picked up soon enough to pay. */
    private final PickupRule[] pickups;
    /** Per system: its current run was kept inline by the pick-up rule. */
    private final boolean[] held;

    AdaptiveBatching(SystemRun[] runs, ChunkPipelines pipelines) {
        this.runs = runs;
        this.pipelines = pipelines;
        this.targetJobNanos = TuningProperty.longValue(TARGET_PROPERTY, DEFAULT_TARGET_JOB_NANOS, 0, Long.MAX_VALUE);
        int n = runs.length;
        this.adaptive = new boolean[n];
        this.nanosPerRow = new double[n];
        this.samples = new int[n];
        this.sinceSample = new int[n];
        this.lastRows = new long[n];
        this.lastJobs = new int[n];
        this.pickups = new PickupRule[n];
        this.held = new boolean[n];
        for (int i = 0; i < n; i++) {
            adaptive[i] = runs[i].minBatchRows == Schedule.DEFAULT_MIN_BATCH_ROWS;
            pickups[i] = new PickupRule();
            nanosPerRow[i] = Double.NaN;
        }
    }

    /**
     * Whether {@code r}, its rows collected, runs inline this time (then time it for
     * {@link #ranInline}); counts the run towards the next re-sample of a split system.
     */
    boolean runsInline(SystemRun r) {
        int p = r.position;
        if (!adaptive[p]) {
            return r.rows < r.minBatchRows;
        }
        if (samples[p] < WARM_SAMPLES) {
            return true;
        }
        if (samples[p] < MAX_SAMPLES && ++sinceSample[p] >= RESAMPLE_EVERY) {
            sinceSample[p] = 0; // a split system is timed inline now and then, until its estimate is fixed
            return true;
        }
        if (r.rows < 2 * floor(p)) {
            return true;
        }
        if (targetJobNanos > 0 && pickups[p].holdsInline(r.rows * nanosPerRow[p])) {
            held[p] = true;
            return true;
        }
        return false;
    }

    /**
     * Records a split run of {@code r} whose first job a worker thread began {@code pickupNanos}
     * after they were handed out (or, when the caller ran every job, twice the whole run's
     * time: the executor passes that, so the system stays inline next time).
     */
    void ranSplit(SystemRun r, long pickupNanos) {
        if (adaptive[r.position]) {
            pickups[r.position].record(pickupNanos);
        }
    }

    /** Tests: takes system {@code p}'s split jobs to wait {@code nanos} for a worker thread from now on. */
    void assumePickup(int p, long nanos) {
        pickups[p].assume(nanos);
    }

    /**
     * True when the inline run {@link #runsInline} just chose for {@code r} will be used as a
     * timing (a warm-up or re-sample, or a run the pick-up rule held): only then does the
     * executor time it. Every other inline run (too few rows to split, once the estimate is
     * fixed) is not timed, since {@code System.nanoTime()} costs tens of nanoseconds on some
     * machines (45 ns on the 2-vCPU one the benchmarks run on).
     */
    boolean timesInline(SystemRun r) {
        int p = r.position;
        return adaptive[p] && r.rows > 0 && (samples[p] < MAX_SAMPLES || held[p]);
    }

    /**
     * Records an inline run of {@code r} that took {@code nanos}, or that was not timed
     * ({@code nanos < 0}): the executor times a run only when {@link #timesInline} said so, so
     * a timing is always one to use.
     */
    void ranInline(SystemRun r, long nanos) {
        int p = r.position;
        lastRows[p] = r.rows;
        lastJobs[p] = 1;
        boolean wasHeld = held[p];
        held[p] = false;
        if (nanos >= 0) {
            double perRow = (double) Math.max(1, nanos) / r.rows;
            if (!(perRow >= nanosPerRow[p])) { // also true while NaN
                nanosPerRow[p] = perRow;
            }
            if (!wasHeld) { // a run held inline is timed too, but only lowers the estimate: it is not a re-sample
                samples[p]++;
            }
        }
    }

    /** Splits {@code r} into jobs (at most {@code maxJobs}) by its floor; returns how many. */
    int split(SystemRun r, int maxJobs) {
        int p = r.position;
        int n = r.split(maxJobs, adaptive[p] ? floor(p) : r.minBatchRows);
        lastRows[p] = r.rows;
        lastJobs[p] = n;
        return n;
    }

    /**
     * Prepares level system {@code r}'s next stage (at most {@code maxJobs} jobs of slots, sized
     * as {@link #split} sizes them); returns how many jobs, 0 when its levels are done.
     */
    int nextStage(SystemRun r, int maxJobs) {
        int p = r.position;
        int n = r.nextStage(maxJobs, adaptive[p] ? floor(p) : r.minBatchRows);
        lastJobs[p] = Math.max(lastJobs[p], n);
        return n;
    }

    /** The fewest rows per job of adaptive system {@code p}: the target job time over its cost per row. */
    private long floor(int p) {
        double perRow = nanosPerRow[p];
        if (Double.isNaN(perRow)) {
            return runs[p].minBatchRows;
        }
        double rows = Math.ceil(targetJobNanos / perRow);
        return rows < 1 ? 1 : rows > Integer.MAX_VALUE ? Integer.MAX_VALUE : (long) rows;
    }

    /** The head of the chunk pipeline member {@code p} belongs to. */
    private int head(int p) {
        for (int h = p - 1; h >= 0; h--) {
            if (!pipelines.member[h] && inPipelineOf(h, p)) {
                return h;
            }
        }
        return p;
    }

    private boolean inPipelineOf(int h, int p) {
        for (int m = pipelines.next[h]; m >= 0; m = pipelines.next[m]) {
            if (m == p) {
                return true;
            }
        }
        return false;
    }

    /** Each system's decision so far, in graph order (allocates; between runs). */
    List<BatchDecision> decisions() {
        List<BatchDecision> out = new ArrayList<>(runs.length);
        for (int p = 0; p < runs.length; p++) {
            SystemRun r = runs[p];
            if (pipelines != null && pipelines.member[p]) {
                int h = head(p);
                out.add(new BatchDecision(r.name, BatchDecision.Mode.FUSED, Double.NaN, 0, lastRows[h], lastJobs[h],
                        Double.NaN));
                continue;
            }
            BatchDecision.Mode mode = r.exclusive ? BatchDecision.Mode.EXCLUSIVE
                    : !adaptive[p] ? BatchDecision.Mode.EXPLICIT
                    : samples[p] < WARM_SAMPLES ? BatchDecision.Mode.MEASURING : BatchDecision.Mode.ADAPTIVE;
            out.add(new BatchDecision(r.name, mode, nanosPerRow[p], adaptive[p] ? floor(p) : r.minBatchRows,
                    lastRows[p], lastJobs[p], pickups[p].pickupNanos() == 0 ? Double.NaN : pickups[p].pickupNanos()));
        }
        return out;
    }
}
