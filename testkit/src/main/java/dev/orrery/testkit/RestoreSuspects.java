package dev.orrery.testkit;

import dev.orrery.engine.ResourceCodec;
import dev.orrery.engine.Simulation;
import dev.orrery.engine.internal.EngineInternals;
import dev.orrery.scheduler.ResourceKey;
import java.io.IOException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * What a run restored from a snapshot can tell about the two mistakes that make only such a run
 * differ, for the {@link LikelyCause} of its failure:
 *
 * <ul>
 *   <li>a system that captured a resource object (in its lambda, in a field) instead of reading
 *       {@code job.resource(KEY)}: {@code Simulation.restore} puts a new object under each
 *       resource with a codec, so the captured one, the object the factory put, is no longer
 *       the store's. Taken {@link #before} the restore, the factory's objects and the bytes
 *       their codecs write then; when one of those objects writes other bytes at the failure,
 *       something still changes it, and nothing reads it any more;</li>
 *   <li>a resource without a codec that a system declares it writes or reduces into, or, in a
 *       game with an exclusive system, any resource without a codec (an exclusive system may
 *       write any resource whatever it declares), which the snapshot leaves out: the restored
 *       run gets it as the factory puts it. The same rule as the cluster's, when a world moves
 *       ({@code EngineInternals.resourcesWritableWithoutCodec}).</li>
 * </ul>
 *
 * <p><b>Threading:</b> not thread-safe; used on the kit's thread, which ticks the simulation.
 */
final class RestoreSuspects {
    private final byte[] snapshot;
    private final Map<ResourceKey<?>, Object> putByFactory = new LinkedHashMap<>();
    private final Map<ResourceKey<?>, byte[]> bytesThen = new LinkedHashMap<>();
    private final Map<String, String> writtenWithoutCodec;

    private RestoreSuspects(byte[] snapshot, Map<String, String> writtenWithoutCodec) {
        this.snapshot = snapshot;
        this.writtenWithoutCodec = writtenWithoutCodec;
    }

    /**
     * Takes note of {@code sim}, a new simulation about to restore {@code snapshot}: the object
     * under each resource with a codec and the bytes its codec writes now, and the resources
     * systems write, or an exclusive system may, that have none.
     */
    @SuppressWarnings({"unchecked", "rawtypes"})
    static RestoreSuspects before(Simulation sim, byte[] snapshot) {
        RestoreSuspects s = new RestoreSuspects(snapshot, EngineInternals.resourcesWritableWithoutCodec(sim));
        for (ResourceKey k : sim.resources().keys()) {
            ResourceCodec codec = sim.resourceCodecs().of(k);
            Object value = sim.resources().get(k);
            byte[] bytes = codec == null ? null : bytes(codec, value);
            if (bytes != null) {
                s.putByFactory.put(k, value);
                s.bytesThen.put(k, bytes);
            }
        }
        return s;
    }

    /** The snapshot the run was restored from. */
    byte[] snapshot() {
        return snapshot;
    }

    /**
     * The names of the resources whose object the restore replaced in {@code sim} and which has
     * changed since (its codec writes other bytes than before the restore), in the order put.
     */
    @SuppressWarnings({"unchecked", "rawtypes"})
    List<String> changedAfterReplaced(Simulation sim) {
        List<String> out = new ArrayList<>();
        for (Map.Entry<ResourceKey<?>, Object> e : putByFactory.entrySet()) {
            ResourceKey k = e.getKey();
            if (sim.resources().get(k) == e.getValue()) {
                continue; // the codec handed the same object back: nothing was replaced
            }
            byte[] now = bytes(sim.resourceCodecs().of(k), e.getValue());
            if (now != null && !Arrays.equals(now, bytesThen.get(k))) {
                out.add(k.name());
            }
        }
        return out;
    }

    /**
     * The resources without a codec that systems declare they write, each as
     * {@code 'name' (written by 'a', 'b')}, and, in a game with an exclusive system, the others
     * too, each as {@code 'name' (exclusive system 'x' may write any resource)}, while a written
     * one names it after its writers, {@code 'name' (written by 'a'; exclusive system 'x' may
     * write any resource)}; in the order put.
     */
    List<String> writtenWithoutCodec() {
        List<String> out = new ArrayList<>();
        writtenWithoutCodec.forEach((name, reason) -> out.add("'" + name + "' (" + reason + ")"));
        return out;
    }

    /** What {@code codec} writes for {@code value}, or {@code null} when it cannot write it. */
    private static byte[] bytes(ResourceCodec<?> codec, Object value) {
        try {
            return ResourceState.encode(codec, value);
        } catch (IOException | RuntimeException e) {
            return null; // a codec that cannot write the factory's fresh object: no evidence either way
        }
    }
}
