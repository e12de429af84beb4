package dev.orrery.scheduler;

import dev.orrery.scheduler.access.SystemAccess;
import dev.orrery.scheduler.check.CheckedMode;
import java.util.Arrays;

/**
 * The keys a mutable resource the scheduler ships ({@link States}, {@link FixedTimestep},
 * {@link LongSum}) is stored under, which {@link Resources#put} records, and the one checked-mode
 * refusal of its mutating methods: a call from a job whose system declared no write of any of
 * the keys (a write reached through {@code job.resource(key)}, a read) is refused by
 * {@link #checkWrite}, with the message {@link Write} builds, the same shape for every such
 * method. A mutating method calls it inside {@code if (CheckedMode.ENABLED)}, a
 * {@code static final}, so unchecked it costs nothing.
 *
 * <p><b>Threading:</b> {@link #add} runs on the owner thread between runs ({@link Resources#put});
 * jobs call {@link #checkWrite} after the executor's job hand-off, a happens-before edge.
 */
final class StoredKeys {
    private static final ResourceKey<?>[] NONE = new ResourceKey<?>[0];
    private ResourceKey<?>[] keys = NONE;

    /**
     * A write that a job may reach through a read, with the words of its refusal: "system 'S'
     * <i>did</i> but declared only a read of it (<i>noun</i> is a write, reached through
     * job.resource(...)); the graph orders the system only as a reader, so <i>risk</i>: add
     * .<i>declaration</i>(K) to the system's declaration and <i>fix</i>", where a system that
     * declared nothing of the key reads "but declared <i>undeclared</i>; the graph does not order
     * the system against the resource's other systems, so ..." instead.
     */
    enum Write {
        /** {@code States.request}. */
        STATE_REQUEST("a request", "no write of it", "the transition's order against the other systems would be an "
                + "accident of the graph", false) {
            @Override
            String did(String key, String value) {
                return "requested state " + value + " of '" + key + "'";
            }

            @Override
            String fix(String key) {
                return "request through job.resourceForWrite(" + key + ")";
            }
        },
        /** {@code FixedTimestep.unitsPerRun(long)}. */
        RATE_CHANGE("a change", "no write of it", "the change's order against the clock's other readers and writers "
                + "would be an accident of the graph", false) {
            @Override
            String did(String key, String value) {
                return "changed unitsPerRun of '" + key + "' to " + value;
            }

            @Override
            String fix(String key) {
                return "change it through job.resourceForWrite(" + key + ")";
            }
        },
        /** {@code LongSum.set} and {@code reset}. */
        SUM_SET("a set or reset", "no write of it", "the reset could land beside the systems that add to it", false) {
            @Override
            String did(String key, String value) {
                return "set the sum '" + key + "' to " + value;
            }

            @Override
            String fix(String key) {
                return "reset it through job.resourceForWrite(" + key + ")";
            }
        },
        /** {@code LongSum.add}: needs a declared reduction (or a write), not a write. */
        SUM_ADD("an add", "no reduction into it", "the add could land beside the other systems that read the total",
                true) {
            @Override
            String did(String key, String value) {
                return "added " + value + " to the sum '" + key + "'";
            }

            @Override
            String fix(String key) {
                return "add through job.add(" + key + ", n)";
            }
        };

        private final String noun;
        private final String undeclared;
        private final String risk;
        /** Whether a declared reduction is enough (else a declared write is needed). */
        private final boolean reduction;

        Write(String noun, String undeclared, String risk, boolean reduction) {
            this.noun = noun;
            this.undeclared = undeclared;
            this.risk = risk;
            this.reduction = reduction;
        }

        /** What the job did, naming the key and the value ("requested state GREEN of 'light'"). */
        abstract String did(String key, String value);

        /** How to make the call instead, after the declaration ("request through job.resourceForWrite(light)"). */
        abstract String fix(String key);

        /** Whether {@code running} declared enough of {@code key} to make this write. */
        boolean declared(SystemAccess running, ResourceKey<?> key) {
            return reduction ? running.canReduceResource(key) : running.canWriteResource(key);
        }

        /** The refusal of this write from {@code system}, which declared a read of {@code key} or not. */
        String message(String system, ResourceKey<?> key, String value, boolean declaredRead) {
            String k = key.name();
            return "system '" + system + "' " + did(k, value) + " but declared " + (declaredRead ? "only a read of it ("
                    + noun + " is a write, reached through job.resource(...)); the graph orders the system only as a "
                    + "reader" : undeclared + "; the graph does not order the system against the resource's other "
                    + "systems") + ", so " + risk + ": add ." + (reduction ? "reducesResource(" : "writesResource(") + k
                    + ") to the system's declaration and " + fix(k);
        }
    }

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
     * Refuses {@code write} of {@code value} from a job whose system declared it for none of the
     * keys; goes on outside a job, for a declared writer (or reducer, for {@link Write#SUM_ADD}),
     * for an exclusive system, or for a value in no store. Checked mode: call it inside
     * {@code if (CheckedMode.ENABLED)}. Allocates nothing unless it throws.
     *
     * @throws UndeclaredResourceAccessException naming the system, the key, the value and the fix
     */
    void checkWrite(Write write, long value) {
        SystemAccess running = CheckedMode.runningSystem();
        ResourceKey<?> key = undeclared(write, running);
        if (key != null) {
            throw refusal(write, running, key, Long.toString(value));
        }
    }

    /** As {@link #checkWrite(Write, long)}, for a value that is an object (a state). */
    void checkWrite(Write write, Object value) {
        SystemAccess running = CheckedMode.runningSystem();
        ResourceKey<?> key = undeclared(write, running);
        if (key != null) {
            throw refusal(write, running, key, String.valueOf(value));
        }
    }

    /**
     * The key to name in a refusal when {@code running} (null outside jobs) declared
     * {@code write} for none of the keys; null when the call may go on.
     */
    private ResourceKey<?> undeclared(Write write, SystemAccess running) {
        if (running == null || keys.length == 0) {
            return null;
        }
        for (ResourceKey<?> k : keys) {
            if (write.declared(running, k)) {
                return null;
            }
        }
        return keys[0];
    }

    private static UndeclaredResourceAccessException refusal(Write write, SystemAccess running, ResourceKey<?> key,
            String value) {
        return UndeclaredResourceAccessException.writeThroughRead(write.message(running.owner(), key, value,
                running.canReadResource(key)));
    }
}
