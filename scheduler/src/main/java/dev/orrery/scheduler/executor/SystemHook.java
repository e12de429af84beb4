package dev.orrery.scheduler.executor;

import dev.orrery.ecs.World;

/**
 * Called by a single-threaded executor after each system of a run, in graph order, with the
 * world as that system left it (its structural commands still waiting for the sync point):
 * the determinism kit's diagnostic mode hashes the world here to name the first system after
 * which two runs differ.
 *
 * <p><b>Threading:</b> called on the executor's owner thread, while no job runs.
 */
@FunctionalInterface
public interface SystemHook {
    /** System {@code name}, at graph position {@code position}, has just finished; {@code ran} is false when its run condition skipped it. */
    void after(int position, String name, boolean ran, World world);
}
