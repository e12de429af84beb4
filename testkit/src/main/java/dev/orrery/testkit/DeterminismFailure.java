package dev.orrery.testkit;

import java.util.List;

/**
 * A determinism check found two runs of the same game that differ: thrown by
 * {@link DeterminismCheck#run()} and {@link GoldenRecording#assertReplays}, with a report a
 * person can act on. Its message names the run, the first tick that differs, the system after
 * which (or after whose commands) the worlds first differ (found by re-running on one worker
 * with the world hashed after each system and each sync point), and the entities, components
 * and fields (and, for a determinism check, the resources with a codec) that differ, with both
 * values.
 */
public final class DeterminismFailure extends AssertionError {
    private static final long serialVersionUID = 1L;

    /** The run that differs from the reference (see {@link #run()}). */
    private final String run;
    /** The first tick whose state differs, or that failed. */
    private final long tick;
    /** The system after which the worlds first differ, or null (see {@link #system()}). */
    private final String system;
    private final transient List<Difference> differences;

    DeterminismFailure(String message, String run, long tick, String system, List<Difference> differences,
            Throwable cause) {
        super(message, cause);
        this.run = run;
        this.tick = tick;
        this.system = system;
        this.differences = List.copyOf(differences);
    }

    /**
     * The run that differs from the reference, as the report names it ({@code "4 workers, batch 1"}).
     *
     * @return the run's name, never null
     */
    public String run() {
        return run;
    }

    /**
     * The first tick whose state differs (or that failed).
     *
     * @return the tick's number, from 0
     */
    public long tick() {
        return tick;
    }

    /**
     * The system after which the worlds first differ, or {@code null} when the diagnosis could
     * not tell; for the run with jobs in reverse order, the system whose jobs' order alone makes
     * the difference, when that is an earlier one (its jobs built a result outside the world that
     * the later system read).
     *
     * @return the system's name, or {@code null}
     */
    public String system() {
        return system;
    }

    /**
     * The differences found at the end of {@link #tick()}, the first few only.
     *
     * @return an unmodifiable list, possibly empty (a run that failed rather than differed);
     *     {@code null} once the exception has been deserialized (the field is transient)
     */
    public List<Difference> differences() {
        return differences;
    }
}
