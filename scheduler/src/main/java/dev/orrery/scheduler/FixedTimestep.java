package dev.orrery.scheduler;

import dev.orrery.scheduler.check.CheckedMode;

/**
 * The accumulator of a fixed-timestep phase ({@code Schedule.Builder.fixedTimestep(phase, key)}):
 * each run of the schedule adds {@link #unitsPerRun()} to it, and the phase then runs once
 * per whole {@link #stepUnits()} accumulated (at most {@link #maxStepsPerRun()} times), each
 * time with its own sync point. Time is counted in integer units (nanoseconds, say) fed by
 * the simulation's step, never by the wall clock, so the number of sub-steps in each run is
 * the same on every machine and in every replay.
 *
 * <pre>{@code
 * // a 60 Hz tick driving a 50 Hz physics phase: 0 or 1 sub-steps per tick, 50 per second
 * ResourceKey<FixedTimestep> PHYSICS_CLOCK = ResourceKey.of("physics clock", FixedTimestep.class);
 * Phase PHYSICS = Phase.named("Physics");
 * Schedule.builder(world).phases(Phase.PRE_UPDATE, PHYSICS, Phase.UPDATE, Phase.POST_UPDATE)
 *     .resource(PHYSICS_CLOCK, new FixedTimestep(20_000_000, 16_666_667, 4))
 *     .fixedTimestep(PHYSICS, PHYSICS_CLOCK)
 *     .system("integrate").inPhase(PHYSICS).query(bodies).reads(vel).writes(pos).forEachChunk(job -> {
 *         float[] x = job.chunk().writeFloats(px), v = job.chunk().readFloats(vx);
 *         for (int i = 0; i < job.chunk().size(); i++) x[i] += v[i] * 0.02f;   // one 20 ms step
 *     })
 * }</pre>
 *
 * A system may change {@link #unitsPerRun} (slow motion, pause) when it declares a write of
 * the key; the change counts from the next run. Time beyond {@code maxStepsPerRun} steps
 * is dropped (counted in {@link #droppedSteps()}) so a slow phase cannot snowball.
 *
 * <p><b>Checked mode</b> (under {@code -ea}): {@link #unitsPerRun(long)} from a job whose
 * system declared no write of a key the clock is stored under (for example only
 * {@code readsResource(key)}, then {@code job.resource(key).unitsPerRun(n)}) throws an
 * {@link UndeclaredResourceAccessException} naming the system, the clock and the fix
 * ({@code .writesResource(key)}): the graph orders such a system only as a reader, so the
 * change could land beside a reader of the clock. Exclusive systems may write every
 * resource; changes outside jobs are not checked.
 *
 * <p><b>Threading:</b> read and changed by the executor's owner thread as the phase starts,
 * by systems that declare the key, or by the tick thread between runs.
 */
public final class FixedTimestep {
    private final long stepUnits;
    private long unitsPerRun;
    private final int maxStepsPerRun;
    private long accumulated;
    private long steps;
    private long droppedSteps;
    private int stepInRun = -1;
    /** The keys this clock is stored under ({@link Resources#put} records them), for the checked-mode refusal. */
    private final StoredKeys keys = new StoredKeys();

    /**
     * An accumulator starting at 0.
     *
     * @param stepUnits the length of one sub-step, above 0
     * @param unitsPerRun what each run of the schedule adds, 0 or more
     * @param maxStepsPerRun the most sub-steps one run takes, at least 1
     */
    public FixedTimestep(long stepUnits, long unitsPerRun, int maxStepsPerRun) {
        if (stepUnits <= 0 || unitsPerRun < 0 || maxStepsPerRun < 1) {
            throw new IllegalArgumentException("a fixed timestep needs stepUnits > 0, unitsPerRun >= 0 and "
                    + "maxStepsPerRun >= 1, got " + stepUnits + ", " + unitsPerRun + ", " + maxStepsPerRun);
        }
        this.stepUnits = stepUnits;
        this.unitsPerRun = unitsPerRun;
        this.maxStepsPerRun = maxStepsPerRun;
    }

    /** An accumulator with its whole state given (for snapshot codecs). */
    static FixedTimestep restore(long stepUnits, long unitsPerRun, int maxStepsPerRun, long accumulated,
            long steps, long droppedSteps) {
        FixedTimestep f = new FixedTimestep(stepUnits, unitsPerRun, maxStepsPerRun);
        if (accumulated < 0 || accumulated >= stepUnits || steps < 0 || droppedSteps < 0) {
            throw new IllegalArgumentException("fixed timestep: accumulated " + accumulated + " must be in [0, "
                    + stepUnits + "), steps " + steps + " and dropped " + droppedSteps + " at least 0");
        }
        f.accumulated = accumulated;
        f.steps = steps;
        f.droppedSteps = droppedSteps;
        return f;
    }

    /**
     * Adds one run's units and takes the whole steps out: what the executor calls as the
     * phase starts; returns how many times the phase runs now.
     */
    int advance() {
        accumulated += unitsPerRun;
        long whole = accumulated / stepUnits;
        int k = (int) Math.min(whole, maxStepsPerRun);
        droppedSteps += whole - k;
        accumulated -= whole * stepUnits;
        return k;
    }

    /** Marks sub-step {@code i} of this run as running (-1: none); the executor calls it. */
    void enterStep(int i) {
        stepInRun = i;
        if (i >= 0) {
            steps++;
        }
    }

    /**
     * The executor: {@code n} of this run's steps did not run, as a failure (a tick skipped
     * under the engine's {@code SKIP_TICK}) ended the run before them; their units were taken
     * out of the accumulator by {@link #advance}, so they count as dropped.
     */
    void dropSteps(int n) {
        droppedSteps += n;
    }

    /**
     * The length of one sub-step.
     *
     * @return the sub-step length in the clock's units, above 0
     */
    public long stepUnits() {
        return stepUnits;
    }

    /**
     * What each run adds.
     *
     * @return the units added per run, 0 or more (0: the phase is paused)
     */
    public long unitsPerRun() {
        return unitsPerRun;
    }

    /**
     * Changes what each run adds, from the next run on.
     *
     * @param units the units each run adds from the next run on, 0 or more (0 pauses the phase)
     * @throws IllegalArgumentException if {@code units} is negative
     * @throws UndeclaredResourceAccessException in checked mode, from a job whose system
     *     declared no write of the clock's key, naming the system, the key and the fix
     */
    public void unitsPerRun(long units) {
        if (units < 0) {
            throw new IllegalArgumentException("unitsPerRun must be 0 or more, got " + units);
        }
        if (CheckedMode.ENABLED) { // a static final: unchecked, the JIT drops the look-up
            keys.checkWrite(StoredKeys.Write.RATE_CHANGE, units);
        }
        this.unitsPerRun = units;
    }

    /** {@link Resources#put}: this clock is stored under {@code key}. */
    void storedUnder(ResourceKey<?> key) {
        keys.add(key);
    }

    /**
     * The most sub-steps one run takes.
     *
     * @return the cap, 1 or more
     */
    public int maxStepsPerRun() {
        return maxStepsPerRun;
    }

    /**
     * Units accumulated and not yet stepped, below {@link #stepUnits()}.
     *
     * @return the leftover units, in {@code [0, stepUnits())}
     */
    public long accumulated() {
        return accumulated;
    }

    /**
     * Sub-steps run so far, counting the one running (the fixed phase's own tick number plus one).
     *
     * @return the sub-steps run, 0 or more
     */
    public long steps() {
        return steps;
    }

    /**
     * Whole steps dropped: because a run would have taken more than {@link #maxStepsPerRun()},
     * or because a failure in one of a run's steps ended the run before the steps after it.
     * So {@code steps() + droppedSteps()} is every whole step the clock has accumulated.
     *
     * @return the dropped steps, 0 or more
     */
    public long droppedSteps() {
        return droppedSteps;
    }

    /**
     * Which sub-step of this run is running, from 0; -1 outside the phase.
     *
     * @return the index of the running sub-step, 0 to {@code maxStepsPerRun() - 1}, or -1
     */
    public int stepInRun() {
        return stepInRun;
    }

    @Override
    public String toString() {
        return "fixed step " + stepUnits + " (+" + unitsPerRun + "/run, " + accumulated + " accumulated, " + steps
                + " steps)";
    }
}
