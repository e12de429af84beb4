package dev.orrery.ecs.internal;


import dev.orrery.ecs.CommandBuffer;
import dev.orrery.ecs.ParallelFor;
import dev.orrery.ecs.PlaybackReport;
import dev.orrery.ecs.World;
import java.lang.invoke.MethodHandle;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.MethodType;
import java.util.List;
import java.util.function.IntFunction;

/**
 * The scheduler's handle on a command playback: applies the command buffers of a sync point to
 * a world, in the key order the facade's playback defines, in strict mode or not, with threads
 * lent for spawn values. One per executor; reuses its scratch arrays.
 *
 * <p><b>Threading:</b> {@link #apply} on the thread that owns the world, when no job runs and
 * every recording into the buffers happened-before the call (the executor's job-completion
 * signal provides it); the settings before the first apply, on the same thread.
 */
public final class Playback {
    private static final FacadeLookup FACADE = FacadeLookup.into(World.class, MethodHandles.lookup());
    private static final Class<?> PLAYBACK = FACADE.type("CommandPlayback");
    private static final MethodHandle NEW = FACADE.constructor(PLAYBACK).asType(MethodType.methodType(Object.class));
    private static final MethodHandle STRICT = erased(FACADE.method(PLAYBACK, "strict", PLAYBACK, boolean.class));
    private static final MethodHandle IS_STRICT = erased(FACADE.method(PLAYBACK, "isStrict", boolean.class));
    private static final MethodHandle PARALLEL = erased(FACADE.method(PLAYBACK, "parallel", PLAYBACK, ParallelFor.class));
    private static final MethodHandle NAMES = erased(FACADE.method(PLAYBACK, "systemNames", void.class, IntFunction.class));
    private static final MethodHandle LAST_REPORT = erased(FACADE.method(PLAYBACK, "lastReport", PlaybackReport.class));
    private static final MethodHandle APPLY = erased(FACADE.method(PLAYBACK, "apply", PlaybackReport.class, World.class,
            List.class));

    /**
     * How many plain shape spawns must wait in one playback before their value writes are
     * split over the lent threads (below it one thread is faster); system property
     * {@code orrery.playback.parallelSpawns} replaces it.
     */
    public static final int DEFAULT_PARALLEL_SPAWNS = (int) FACADE.constant(PLAYBACK, "DEFAULT_PARALLEL_SPAWNS", int.class);

    private final Object playback;

    /** A playback in the default strictness (strict under {@code -ea}, see {@code orrery.commands.strict}). */
    public Playback() {
        try {
            playback = (Object) NEW.invokeExact();
        } catch (Throwable t) {
            throw FacadeLookup.rethrow(t);
        }
    }

    /** The handle with its receiver and its results typed {@code Object} where the facade's type is package-private. */
    private static MethodHandle erased(MethodHandle h) {
        MethodType t = h.type().changeParameterType(0, Object.class);
        if (t.returnType() == PLAYBACK) {
            t = t.changeReturnType(Object.class);
        }
        return h.asType(t);
    }

    /** Turns strict mode on or off; returns this. */
    public Playback strict(boolean on) {
        try {
            Object ignored = (Object) STRICT.invokeExact(playback, on);
            return this;
        } catch (Throwable t) {
            throw FacadeLookup.rethrow(t);
        }
    }

    /** True in strict mode (a refused command throws at the sync point). */
    public boolean isStrict() {
        try {
            return (boolean) IS_STRICT.invokeExact(playback);
        } catch (Throwable t) {
            throw FacadeLookup.rethrow(t);
        }
    }

    /** Lends threads for writing spawn values side by side; returns this. */
    public Playback parallel(ParallelFor threads) {
        try {
            Object ignored = (Object) PARALLEL.invokeExact(playback, threads);
            return this;
        } catch (Throwable t) {
            throw FacadeLookup.rethrow(t);
        }
    }

    /** Names systems in refusal messages by their order in the schedule ({@code null}: numbers). */
    public void systemNames(IntFunction<String> names) {
        try {
            NAMES.invokeExact(playback, names);
        } catch (Throwable t) {
            throw FacadeLookup.rethrow(t);
        }
    }

    /**
     * The report of the last {@link #apply}, also when it threw: what it had applied by then
     * (an observer hook's failure comes after the whole playback). Valid until the next call.
     */
    public PlaybackReport lastReport() {
        try {
            return (PlaybackReport) LAST_REPORT.invokeExact(playback);
        } catch (Throwable t) {
            throw FacadeLookup.rethrow(t);
        }
    }

    /** Applies {@code buffers} to {@code world} in key order and clears them; the report is reused by the next call. */
    public PlaybackReport apply(World world, List<CommandBuffer> buffers) {
        try {
            return (PlaybackReport) APPLY.invokeExact(playback, world, buffers);
        } catch (Throwable t) {
            throw FacadeLookup.rethrow(t);
        }
    }
}
