package dev.orrery.ecs.archetype;

/**
 * The structure lock of one world's archetypes: while it is held, rows must not move
 * between chunks or archetypes, because a query iteration or scheduled jobs are reading
 * the chunks. Locks nest; the reason given by the outermost holder ("a query iteration",
 * "stage Update") names the holder in the error a refused structural change throws.
 *
 * <p>The world also holds it while a user record's accessors run as it writes the record
 * into a row or a sparse set ({@link #enterRecord}): the row may be half moved then, so a
 * structural call from the accessor is refused, naming the component. That hold costs a few
 * field writes per record and nothing per field.
 *
 * <p><b>Threading:</b> held and released by the thread that owns the world (the scheduler
 * locks on its calling thread before it hands chunks to workers and unlocks after they have
 * all finished). Plain fields: workers never read it.
 */
public final class StructureLock {
    private int holds;
    private String reason;
    private String fix;
    /** What a refused change should do instead while a query iteration (or scheduled jobs) holds the lock. */
    private static final String AFTER_ITERATION =
            "chunks are being read, so record it in a CommandBuffer and apply it after the iteration";
    // The column whose record the world is writing (its accessors running), innermost first; null when none.
    private Object recordColumn;

    /** Refuses structural changes until the matching {@link #unlock}; a refusal says to apply after the iteration. */
    public void lock(String reason) {
        lock(reason, AFTER_ITERATION);
    }

    /**
     * Refuses structural changes until the matching {@link #unlock}; a refusal names
     * {@code reason} and says {@code fix} (what to do instead), when this is the outermost hold.
     */
    public void lock(String reason, String fix) {
        if (holds++ == 0) {
            this.reason = reason;
            this.fix = fix;
        }
    }

    /**
     * Releases one {@link #lock}.
     *
     * @throws IllegalStateException when the lock is not held
     */
    public void unlock() {
        if (holds == 0) {
            throw new IllegalStateException("the world's structure lock is released but not held: an "
                    + "unlockStructure() without a matching lockStructure(reason) (a second unlock, or an unlock "
                    + "whose lock failed); pair each lockStructure(reason) with exactly one unlockStructure(), "
                    + "the unlock in a finally block after the lock succeeded");
        }
        if (--holds == 0) {
            reason = null;
            fix = null;
        }
    }

    /**
     * Holds the lock while the accessors of a record of {@code column} run, as the world
     * writes it into a row or a sparse set; returns the column of the record write this one
     * is nested in (null: none), which the matching {@link #leaveRecord} takes. Allocates
     * nothing.
     */
    public Object enterRecord(Object column) {
        holds++;
        Object outer = recordColumn;
        recordColumn = column;
        return outer;
    }

    /** Releases an {@link #enterRecord} hold; {@code outer} is what that call returned. */
    public void leaveRecord(Object outer) {
        holds--;
        recordColumn = outer;
    }

    /** True while structural changes are refused. */
    public boolean isLocked() {
        return holds != 0;
    }

    /**
     * Throws when the lock is held, naming {@code operation} (and {@code subject}, if not
     * null) and the holder, and saying to record the change in a command buffer.
     */
    public void checkUnlocked(String operation, Object subject) {
        if (holds != 0) {
            String what = subject == null ? operation : operation + " " + subject;
            if (recordColumn != null) {
                throw new IllegalStateException("structural change (" + what + ") attempted by a record accessor of "
                        + "component " + recordColumn + " while the world was writing that record into a row or sparse "
                        + "set: record accessors must not change the world (spawn, despawn, add or remove). Return the "
                        + "field from the accessor, and make the change before or after the call (or record it in a "
                        + "CommandBuffer)");
            }
            throw new IllegalStateException("structural change (" + what + ") attempted during " + reason + "; " + fix);
        }
    }
}
