package dev.orrery.engine.internal;

import dev.orrery.ecs.World;
import dev.orrery.ecs.internal.EcsInternals;
import dev.orrery.ecs.internal.FacadeLookup;
import dev.orrery.engine.Simulation;
import dev.orrery.scheduler.ScheduleExecutor;
import dev.orrery.scheduler.executor.PlannedExecutor;
import dev.orrery.scheduler.executor.SystemHook;
import java.lang.invoke.MethodHandle;
import java.lang.invoke.MethodHandles;

/**
 * The door from Orrery's test kit into what the engine's facade keeps package-private: a
 * simulation's executor, for the kit's diagnostic mode that hashes the world after each
 * system, and whether a world ever held an entity (a snapshot or recording goes only into a
 * world that never did). Exported only to {@code dev.orrery.testkit}.
 *
 * <p><b>Threading:</b> call between ticks, on the simulation's tick thread.
 */
public final class EngineInternals {
    private static final FacadeLookup FACADE = FacadeLookup.into(Simulation.class, MethodHandles.lookup());
    private static final MethodHandle EXECUTOR = FACADE.method(Simulation.class, "executor", ScheduleExecutor.class);

    private EngineInternals() {
    }

    /**
     * Calls {@code hook} after each system of every tick from now on ({@code null}: stops).
     *
     * @throws UnsupportedOperationException when the simulation runs on more than one worker
     */
    public static void afterEachSystem(Simulation sim, SystemHook hook) {
        ScheduleExecutor executor;
        try {
            executor = (ScheduleExecutor) EXECUTOR.invokeExact(sim);
        } catch (Throwable t) {
            throw FacadeLookup.rethrow(t);
        }
        ((PlannedExecutor) executor).afterEachSystem(hook);
    }

    /**
     * True when {@code world} has ever held an entity, despawned ones included (their ids stay
     * used): such a world takes no snapshot restore and no replay.
     */
    public static boolean everHeldEntities(World world) {
        return EcsInternals.storage(world).entityTable().highWater() != 0;
    }
}
