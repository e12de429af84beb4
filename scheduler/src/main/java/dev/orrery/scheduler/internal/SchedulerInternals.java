package dev.orrery.scheduler.internal;

import dev.orrery.ecs.Query;
import dev.orrery.ecs.archetype.Chunk;
import dev.orrery.ecs.internal.EcsInternals;
import dev.orrery.ecs.internal.FacadeLookup;
import dev.orrery.scheduler.EventKey;
import dev.orrery.scheduler.FixedTimestep;
import dev.orrery.scheduler.LongSum;
import dev.orrery.scheduler.ResourceKey;
import dev.orrery.scheduler.Resources;
import dev.orrery.scheduler.Schedule;
import dev.orrery.scheduler.States;
import dev.orrery.scheduler.SystemFailedException;
import dev.orrery.scheduler.UndeclaredResourceAccessException;
import dev.orrery.scheduler.event.EventChannel;
import dev.orrery.scheduler.executor.ExecutionPlan;
import dev.orrery.scheduler.graph.SystemGraph;
import java.lang.invoke.MethodHandle;
import java.lang.invoke.MethodHandles;

/**
 * The door from Orrery's engine and tools into what the scheduler's facade keeps
 * package-private: a schedule's graph and plan, an event channel's resource key, the failure of
 * a system's job. Exported only to the engine and the explorer;
 * forwards through handles found once ({@link FacadeLookup}).
 *
 * <p><b>Threading:</b> the same as the member forwarded to.
 */
public final class SchedulerInternals {
    private static final FacadeLookup FACADE = FacadeLookup.into(Schedule.class, MethodHandles.lookup());
    private static final MethodHandle GRAPH = FACADE.method(Schedule.class, "graph", SystemGraph.class);
    private static final MethodHandle PLAN = FACADE.method(Schedule.class, "plan", ExecutionPlan.class);
    private static final MethodHandle CHANNEL = FACADE.method(EventKey.class, "channel", ResourceKey.class);
    private static final MethodHandle IN_CHUNK = FACADE.staticMethod(SystemFailedException.class, "inChunk",
            SystemFailedException.class, String.class, Chunk.class, int.class, int.class, Throwable.class);

    private static final MethodHandle OF_RANGE = FACADE.staticMethod(SystemFailedException.class, "ofRange",
            SystemFailedException.class, String.class, int.class, int.class, int.class, Throwable.class);

    private static final MethodHandle AT_SYNC_POINT = FACADE.staticMethod(SystemFailedException.class, "atSyncPoint",
            SystemFailedException.class, String.class, Throwable.class);
    private static final MethodHandle SYNC_ENDING_PHASE = FACADE.staticMethod(SystemFailedException.class,
            "syncPointEndingPhase", String.class, String.class);
    private static final MethodHandle SYNC_BEFORE_SYSTEM = FACADE.staticMethod(SystemFailedException.class,
            "syncPointBeforeSystem", String.class, String.class);
    private static final MethodHandle PAST_DEADLINE = FACADE.staticMethod(SystemFailedException.class, "pastDeadline",
            SystemFailedException.class, String.class, Throwable.class);
    private static final MethodHandle OUTCOME = FACADE.method(SystemFailedException.class, "outcome", void.class,
            String.class);

    private static final MethodHandle PREPARE_REDUCTIONS = FACADE.method(Resources.class, "prepareReductions", void.class,
            int.class);
    private static final MethodHandle VALUE_IF_PUT = FACADE.method(Resources.class, "valueIfPut", Object.class,
            ResourceKey.class);
    private static final MethodHandle STEP_ADVANCE = FACADE.method(FixedTimestep.class, "advance", int.class);
    private static final MethodHandle STEP_ENTER = FACADE.method(FixedTimestep.class, "enterStep", void.class, int.class);
    private static final MethodHandle STEP_DROP = FACADE.method(FixedTimestep.class, "dropSteps", void.class, int.class);
    private static final MethodHandle STEP_RESTORE = FACADE.staticMethod(FixedTimestep.class, "restore",
            FixedTimestep.class, long.class, long.class, int.class, long.class, long.class, long.class);
    private static final MethodHandle STATES_MARK_ENTERED = FACADE.method(States.class, "markEntered", void.class);
    private static final MethodHandle STATES_APPLY = FACADE.method(States.class, "applyRequest", Enum.class);
    private static final MethodHandle STATES_RESTORE = FACADE.staticMethod(States.class, "restore", States.class,
            Class.class, Enum.class, Enum.class, boolean.class);
    private static final MethodHandle ADD_DECLARED = FACADE.method(LongSum.class, "addDeclared", void.class, int.class,
            long.class);
    private static final MethodHandle REDUCTION_REFUSED = FACADE.staticMethod(UndeclaredResourceAccessException.class,
            "reduction", UndeclaredResourceAccessException.class, String.class, ResourceKey.class);

    private SchedulerInternals() {
    }

    /** The schedule's dependency graph, sync points included. */
    public static SystemGraph graph(Schedule schedule) {
        try {
            return (SystemGraph) GRAPH.invokeExact(schedule);
        } catch (Throwable t) {
            throw FacadeLookup.rethrow(t);
        }
    }

    /** The plan the schedule's executors run. */
    public static ExecutionPlan plan(Schedule schedule) {
        try {
            return (ExecutionPlan) PLAN.invokeExact(schedule);
        } catch (Throwable t) {
            throw FacadeLookup.rethrow(t);
        }
    }

    /** The resource key under which the schedule keeps {@code key}'s channel (named {@code "events:<name>"}). */
    @SuppressWarnings("unchecked")
    public static <T> ResourceKey<EventChannel<T>> channelKey(EventKey<T> key) {
        try {
            return (ResourceKey<EventChannel<T>>) (ResourceKey<?>) CHANNEL.invokeExact(key);
        } catch (Throwable t) {
            throw FacadeLookup.rethrow(t);
        }
    }

    /**
     * The failure of an ordinary system's job on its chunk {@code chunkOrdinal} ({@code chunk}),
     * or of an exclusive system ({@code chunk} null, ordinal -1).
     */
    public static SystemFailedException inChunk(String system, Chunk chunk, int chunkOrdinal, int worker, Throwable cause) {
        try {
            return (SystemFailedException) IN_CHUNK.invokeExact(system, chunk, chunkOrdinal, worker, cause);
        } catch (Throwable t) {
            throw FacadeLookup.rethrow(t);
        }
    }

    /** The failure of a range system's job on items {@code [from, to)}. */
    public static SystemFailedException ofRange(String system, int from, int to, int worker, Throwable cause) {
        try {
            return (SystemFailedException) OF_RANGE.invokeExact(system, from, to, worker, cause);
        } catch (Throwable t) {
            throw FacadeLookup.rethrow(t);
        }
    }

    /** The failure of a sync point ({@code "sync point ending phase Update"}): what its playback or hooks threw. */
    public static SystemFailedException atSyncPoint(String syncPoint, Throwable cause) {
        try {
            return (SystemFailedException) AT_SYNC_POINT.invokeExact(syncPoint, cause);
        } catch (Throwable t) {
            throw FacadeLookup.rethrow(t);
        }
    }

    /**
     * The name of the sync point ending phase {@code phase} ({@code "sync point ending phase Update"}),
     * as {@code SystemFailedException.namesSyncPoint} recognizes it.
     */
    public static String syncPointEndingPhase(String phase) {
        try {
            return (String) SYNC_ENDING_PHASE.invokeExact(phase);
        } catch (Throwable t) {
            throw FacadeLookup.rethrow(t);
        }
    }

    /**
     * The name of the sync point before system {@code system} ({@code "sync point before system 'b'"}),
     * as {@code SystemFailedException.namesSyncPoint} recognizes it.
     */
    public static String syncPointBeforeSystem(String system) {
        try {
            return (String) SYNC_BEFORE_SYSTEM.invokeExact(system);
        } catch (Throwable t) {
            throw FacadeLookup.rethrow(t);
        }
    }

    /** The failure of {@code system}'s job still running past the run's deadline ({@code cause} reports it). */
    public static SystemFailedException pastDeadline(String system, Throwable cause) {
        try {
            return (SystemFailedException) PAST_DEADLINE.invokeExact(system, cause);
        } catch (Throwable t) {
            throw FacadeLookup.rethrow(t);
        }
    }

    /** Completes {@code failure}'s message with what the failed run left, before it leaves the executor. */
    public static void outcome(SystemFailedException failure, String text) {
        try {
            OUTCOME.invokeExact(failure, text);
        } catch (Throwable t) {
            throw FacadeLookup.rethrow(t);
        }
    }

    /** Gives each reduction resource ({@code LongSum}) one slot per worker, before a run. */
    public static void prepareReductions(Resources resources, int workers) {
        try {
            PREPARE_REDUCTIONS.invokeExact(resources, workers);
        } catch (Throwable t) {
            throw FacadeLookup.rethrow(t);
        }
    }

    /**
     * The value under {@code key}, or null when no key of its name has one; refused, saying that
     * keys compare by identity, when another key of its name has one ({@code Resources.value}'s rule).
     */
    @SuppressWarnings("unchecked")
    public static <T> T valueIfPut(Resources resources, ResourceKey<T> key) {
        try {
            return (T) VALUE_IF_PUT.invokeExact(resources, (ResourceKey<?>) key);
        } catch (Throwable t) {
            throw FacadeLookup.rethrow(t);
        }
    }

    /** Accumulates one run's units into the fixed step and returns how many steps run now. */
    public static int advance(FixedTimestep step) {
        try {
            return (int) STEP_ADVANCE.invokeExact(step);
        } catch (Throwable t) {
            throw FacadeLookup.rethrow(t);
        }
    }

    /** Marks step {@code i} of this run as the one the fixed phase is running. */
    public static void enterStep(FixedTimestep step, int i) {
        try {
            STEP_ENTER.invokeExact(step, i);
        } catch (Throwable t) {
            throw FacadeLookup.rethrow(t);
        }
    }

    /** Counts {@code n} steps of this run that a failure kept from running as dropped. */
    public static void dropSteps(FixedTimestep step, int n) {
        try {
            STEP_DROP.invokeExact(step, n);
        } catch (Throwable t) {
            throw FacadeLookup.rethrow(t);
        }
    }

    /** A fixed step as a snapshot kept it. */
    public static FixedTimestep restore(long stepUnits, long unitsPerRun, int maxStepsPerRun, long accumulated,
            long steps, long dropped) {
        try {
            return (FixedTimestep) STEP_RESTORE.invokeExact(stepUnits, unitsPerRun, maxStepsPerRun, accumulated, steps,
                    dropped);
        } catch (Throwable t) {
            throw FacadeLookup.rethrow(t);
        }
    }

    /** Records that the current state's on-enter systems have run. */
    public static void markEntered(States<?> states) {
        try {
            STATES_MARK_ENTERED.invokeExact(states);
        } catch (Throwable t) {
            throw FacadeLookup.rethrow(t);
        }
    }

    /** Makes the requested state current, if one was requested; returns the state left ({@code null} if none). */
    @SuppressWarnings("unchecked")
    public static <S extends Enum<S>> S applyRequest(States<S> states) {
        try {
            return (S) (Enum<?>) STATES_APPLY.invokeExact(states);
        } catch (Throwable t) {
            throw FacadeLookup.rethrow(t);
        }
    }

    /** A state machine as a snapshot kept it. */
    @SuppressWarnings("unchecked")
    public static <S extends Enum<S>> States<S> restore(Class<S> type, S current, S requested, boolean entered) {
        try {
            return (States<S>) STATES_RESTORE.invokeExact((Class<?>) type, (Enum<?>) current, (Enum<?>) requested, entered);
        } catch (Throwable t) {
            throw FacadeLookup.rethrow(t);
        }
    }

    /**
     * Adds {@code amount} into worker {@code workerId}'s slot of {@code sum} without the
     * checked-mode look-up of the declared reduction: for {@code JobContext.add}, which has
     * checked the declaration for the key it resolved {@code sum} from. The worker id is checked
     * as {@code LongSum.add} checks it.
     *
     * @throws ArrayIndexOutOfBoundsException naming the worker id, as {@code LongSum.add}
     */
    public static void addDeclared(LongSum sum, int workerId, long amount) {
        try {
            ADD_DECLARED.invokeExact(sum, workerId, amount);
        } catch (Throwable t) {
            throw FacadeLookup.rethrow(t);
        }
    }

    /** The refusal of a reduction into {@code resource} that system {@code system} did not declare. */
    public static UndeclaredResourceAccessException reductionRefused(String system, ResourceKey<?> resource) {
        try {
            return (UndeclaredResourceAccessException) REDUCTION_REFUSED.invokeExact(system, resource);
        } catch (Throwable t) {
            throw FacadeLookup.rethrow(t);
        }
    }
}
