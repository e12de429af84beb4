package dev.orrery.ecs.archetype;

/**
 * The structure lock of one world's archetypes: while it is held, rows must not move
 * between chunks or archetypes, because a query iteration or scheduled jobs are reading
 * the chunks. Locks nest; the reason given by the outermost holder ("a query iteration",
 * "stage Update") names the holder in the error a refused structural change throws.
 *
 * <p><b>Threading:</b> held and released by the thread that owns the world (the scheduler
 * locks on its calling thread before it hands chunks to workers and unlocks after they have
 * all finished). Plain fields: workers never read it.
 */
public final class StructureLock {
    private int holds;
    private String reason;

    /** Refuses structural changes until the matching {@link #unlock}. */
    public void lock(String reason) {
        if (holds++ == 0) {
            this.reason = reason;
        }
    }

    /**
     * Releases one {@link #lock}.
     *
     * @throws IllegalStateException when the lock is not held
     */
    public void unlock() {
        if (holds == 0) {
            throw new IllegalStateException("unlockStructure without a matching lockStructure");
        }
        if (--holds == 0) {
            reason = null;
        }
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
            throw new IllegalStateException("structural change (" + what + ") attempted during " + reason
                    + "; chunks are being read, so record it in a CommandBuffer and apply it after the iteration");
        }
    }
}
