package dev.orrery.scheduler.executor;

import dev.orrery.ecs.World;
import dev.orrery.scheduler.graph.SystemGraph;

/**
 * The part of a run both executors share: phases in order, each followed by its sync point
 * (command buffers applied, then the user's {@link SyncPoint}); on a failure the buffers
 * are discarded, the sync point hears of it, and the failure is thrown.
 *
 * <p><b>Threading:</b> runs on the thread that called {@code ScheduleExecutor.run}.
 */
final class PhaseLoop {
    /** Runs one phase; returns its failure, or null. */
    interface PhaseRunner {
        SystemFailedException runPhase(int phase);
    }

    private PhaseLoop() {
    }

    /** Refuses a run on a closed executor, or one started from inside a run (a system or a sync point). */
    static void checkCanRun(boolean closed, boolean running) {
        if (closed) {
            throw new IllegalStateException("this executor is closed; create a new one to run the schedule");
        }
        if (running) {
            throw new IllegalStateException("run() called while a run is in progress (from a system or a sync "
                    + "point); call it again after the current run returns");
        }
    }

    static void run(SystemGraph graph, World world, CommandSync commands, SyncPoint syncPoint, PhaseRunner runner) {
        for (int p = 0, np = graph.phases().size(); p < np; p++) {
            SystemFailedException failure = runner.runPhase(p);
            if (failure != null) {
                commands.discard();
                syncPoint.afterFailure(failure, world);
                throw failure;
            }
            commands.apply(world);
            syncPoint.afterPhase(graph.phases().get(p), world);
        }
        syncPoint.afterRun(world);
    }

    /** Applies the buffers in the middle of a phase, with the structure unlocked meanwhile. */
    static void applyUnlocked(World world, CommandSync commands, String relockReason) {
        world.storage().unlockStructure();
        try {
            commands.apply(world);
        } finally {
            world.storage().lockStructure(relockReason);
        }
    }
}
