package dev.orrery.scheduler.check;

import dev.orrery.ecs.ownership.AssertionSwitch;
import dev.orrery.scheduler.ResourceKey;
import dev.orrery.scheduler.UndeclaredResourceAccessException;
import dev.orrery.scheduler.access.SystemAccess;

/**
 * The scheduler's checked mode: extra run-time checks of declared access that cost work per
 * job, so they are on only when Java assertions are enabled ({@code -ea}, as in every test
 * run) unless the system property {@code orrery.checked} says {@code true} or
 * {@code false}. In checked mode:
 * <ul>
 *   <li>the executor fingerprints the columns each job's system declared read-only, in the
 *       chunks the job covers, before and after the job, and reports a change (a write into
 *       the array {@code readFloats} returned) as an {@code UndeclaredAccessException}; see
 *       {@link ReadOnlyColumns};</li>
 *   <li>the executor records, per thread, the access of the system whose job the thread is
 *       running, so the engine's resource store can check a resource read or write against
 *       the system's {@code readsResource}/{@code writesResource} with
 *       {@link #checkResourceRead} and {@link #checkResourceWrite}.</li>
 * </ul>
 * Off, {@link #ENABLED} is a {@code static final} {@code false}: the JIT folds every
 * {@code if (CheckedMode.ENABLED)} away, so the unchecked job path does no extra work.
 *
 * <p><b>Threading:</b> the running access is per thread (a {@link ThreadLocal}); each thread
 * sets and clears its own around the jobs it runs, and only that thread reads it.
 */
public final class CheckedMode {
    /** True when the checks run: assertions enabled, or {@code -Dorrery.checked=true}. */
    public static final boolean ENABLED = AssertionSwitch.enabled("orrery.checked");

    private static final ThreadLocal<SystemAccess> RUNNING = new ThreadLocal<>();

    private CheckedMode() {
    }

    /** Marks the current thread as running a job of the system with {@code access}; executor use, checked mode only. */
    public static void enterJob(SystemAccess access) {
        RUNNING.set(access);
    }

    /** Marks the current thread as running no job; executor use, checked mode only. */
    public static void exitJob() {
        RUNNING.set(null);
    }

    /**
     * The access of the system whose job the current thread is running, or {@code null}
     * outside a job (on the tick thread between ticks, in an exclusive system or a sync
     * point) and always when checked mode is off.
     */
    public static SystemAccess runningSystem() {
        return ENABLED ? RUNNING.get() : null;
    }

    /**
     * In checked mode inside a job, refuses a read of {@code resource} that the job's system
     * did not declare; otherwise does nothing.
     *
     * @throws UndeclaredResourceAccessException naming the system and the resource
     */
    public static void checkResourceRead(ResourceKey<?> resource) {
        if (ENABLED) {
            SystemAccess running = RUNNING.get();
            if (running != null && !running.canReadResource(resource)) {
                throw new UndeclaredResourceAccessException(running.owner(), resource, false);
            }
        }
    }

    /**
     * In checked mode inside a job, refuses a write of {@code resource} that the job's system
     * did not declare; otherwise does nothing.
     *
     * @throws UndeclaredResourceAccessException naming the system and the resource
     */
    public static void checkResourceWrite(ResourceKey<?> resource) {
        if (ENABLED) {
            SystemAccess running = RUNNING.get();
            if (running != null && !running.canWriteResource(resource)) {
                throw new UndeclaredResourceAccessException(running.owner(), resource, true);
            }
        }
    }
}
