package dev.orrery.scheduler.executor;

import dev.orrery.ecs.World;

/**
 * Called by a single-threaded executor after each system of a run, in graph order, with the
 * world as that system left it (its structural commands still waiting for the sync point),
 * and after each sync point that applied commands, with the world as the playback and the
 * observer hooks it fired left it: the determinism kit's diagnostic mode hashes the world
 * at both to name the first system (or the first system's commands) after which two runs
 * differ.
 *
 * <p><b>Threading:</b> called on the executor's owner thread, while no job runs.
 */
@FunctionalInterface
public interface SystemHook {
    /** System {@code name}, at graph position {@code position}, has just finished; {@code ran} is false when its run condition skipped it. */
    void after(int position, String name, boolean ran, World world);

    /**
     * A sync point has just applied the commands recorded by the systems at the graph positions
     * in the first {@code count} entries of {@code recordedBy} (ascending; an exclusive system's
     * own commands are applied before its {@link #after}), and run the observer hooks they
     * fired. The array is the executor's: read it during the call only.
     */
    default void afterSyncPoint(int[] recordedBy, int count, World world) {
    }
}
