package dev.orrery.ecs;


/**
 * Thrown by strict command playback (a sync point, or {@link World#apply(CommandBuffer)}) when it held a refused command (see
 * {@link CommandOutcome#REFUSED}): names the first refused command and the system that
 * recorded it. Playback throws after applying the whole sync point exactly as lenient mode
 * would (every other command applied, the refused ones changing nothing), so the world is
 * consistent and the same as without strict mode; {@link #report()} says what was applied.
 */
public final class RefusedCommandException extends IllegalStateException {
    private static final long serialVersionUID = 1L;

    /** The schedule position of the system that recorded the first refused command. */
    private final int systemOrder;
    private final transient PlaybackReport report;

    RefusedCommandException(PlaybackReport report) {
        super("command playback refused " + report.rejected() + " command(s) "
                + (report.firstRefusalOutsideSchedule() ? "in this world.apply" : "at this sync point") + "; the first: "
                + report.firstRefusal() + ". Every other command was applied. Fix the "
                + (report.firstRefusalOutsideSchedule() ? "code that recorded it" : "recording system") + ", or turn "
                + "strict mode off (-D" + CommandPlayback.STRICT_PROPERTY + "=false) to count refused commands in "
                + "the PlaybackReport instead");
        this.systemOrder = report.firstRefusalSystemOrder();
        this.report = report;
    }

    /**
     * The schedule position (the sort key's system order) of the system that recorded the first refused command.
     *
     * @return the system's position in the schedule's order, 0 or more
     */
    public int systemOrder() {
        return systemOrder;
    }

    /**
     * The playback's report (valid until the playback's next call).
     *
     * @return the report, or {@code null} once the exception has been deserialized (the field is
     *     transient)
     */
    public PlaybackReport report() {
        return report;
    }
}
