package dev.orrery.scheduler;

import dev.orrery.scheduler.access.SystemAccess;
import java.util.Arrays;

/**
 * The keys a mutable resource the scheduler ships ({@link States}, {@link FixedTimestep}, {@link LongSum}) is
 * stored under, which {@link Resources#put} records, so that its mutating methods can refuse,
 * in checked mode, a call from a job whose system declared no write of any of them (a write
 * reached through {@code job.resource(key)}, a read).
 *
 * <p><b>Threading:</b> {@link #add} runs on the owner thread between runs ({@link Resources#put});
 * jobs call {@link #unwritten} after the executor's job hand-off, a happens-before edge.
 */
final class StoredKeys {
    private static final ResourceKey<?>[] NONE = new ResourceKey<?>[0];
    private ResourceKey<?>[] keys = NONE;

    /** Records that the value is stored under {@code key} (once per key). */
    void add(ResourceKey<?> key) {
        for (ResourceKey<?> k : keys) {
            if (k == key) {
                return;
            }
        }
        keys = Arrays.copyOf(keys, keys.length + 1);
        keys[keys.length - 1] = key;
    }

    /**
     * The key to name in a refusal when {@code running} (null outside jobs) declares a write of
     * none of the keys; null when the call may go on (outside a job, a declared writer, an
     * exclusive system, or a value in no store).
     */
    ResourceKey<?> unwritten(SystemAccess running) {
        if (running == null || keys.length == 0) {
            return null;
        }
        for (ResourceKey<?> k : keys) {
            if (running.canWriteResource(k)) {
                return null;
            }
        }
        return keys[0];
    }

    /**
     * As {@link #unwritten}, for an add into a {@link LongSum}: the key to name when
     * {@code running} declares a reduction into (or a write of) none of the keys, else null.
     */
    ResourceKey<?> unreduced(SystemAccess running) {
        if (running == null || keys.length == 0) {
            return null;
        }
        for (ResourceKey<?> k : keys) {
            if (running.canReduceResource(k)) {
                return null;
            }
        }
        return keys[0];
    }
}
