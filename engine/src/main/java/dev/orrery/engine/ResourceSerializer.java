package dev.orrery.engine;

import dev.orrery.ecs.SnapshotException;
import dev.orrery.ecs.SnapshotInput;
import dev.orrery.scheduler.ResourceKey;
import dev.orrery.scheduler.Resources;
import java.io.ByteArrayOutputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Writes a {@link Resources} store's snapshot section and reads it back: every resource with
 * a {@link ResourceCodec} in its {@link ResourceCodecs}, by key name, in the order the keys
 * were first put.
 * Resources without a codec are configuration that the code building a simulation puts
 * again, so they are left out.
 *
 * <p><b>Layout</b> (big-endian, {@link DataOutputStream}): {@code int count}, then per
 * resource {@code UTF name | int length | length bytes written by its codec}. The layout is
 * part of the simulation snapshot format: changing it invalidates recorded snapshots. Each
 * codec reads from a {@link SnapshotInput} over exactly its resource's bytes.
 *
 * <p><b>Threading:</b> stateless; call it on the thread that owns the store (the tick
 * thread, between ticks).
 */
final class ResourceSerializer {
    private ResourceSerializer() {
    }

    /**
     * Writes every resource of {@code resources} that has a codec, except the keys in
     * {@code skip} (values the caller rebuilds itself, such as a simulation's clock).
     */
    @SuppressWarnings({"unchecked", "rawtypes"})
    public static byte[] write(Resources resources, ResourceCodecs codecs, Set<ResourceKey<?>> skip)
            throws IOException {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        DataOutputStream out = new DataOutputStream(bytes);
        int n = 0;
        for (ResourceKey<?> k : resources.keys()) {
            if (!skip.contains(k) && codecs.of(k) != null) {
                n++;
            }
        }
        out.writeInt(n);
        for (ResourceKey k : resources.keys()) {
            ResourceCodec codec = codecs.of(k);
            if (skip.contains(k) || codec == null) {
                continue;
            }
            out.writeUTF(k.name());
            ByteArrayOutputStream one = new ByteArrayOutputStream();
            DataOutputStream o = new DataOutputStream(one);
            codec.write(resources.get(k), o);
            o.flush();
            out.writeInt(one.size());
            one.writeTo(out);
        }
        out.flush();
        return bytes.toByteArray();
    }

    /**
     * Decodes a section written by {@link #write} with the keys of {@code resources} and the
     * codecs of {@code codecs}, without putting anything, so that a bad section changes nothing.
     *
     * <p>The section must carry every resource that {@link #write} would write here (every key
     * with a codec, except those in {@code skip}), each once, and nothing else: a snapshot
     * written by a simulation built with other resources is refused, naming them, rather than
     * restored in part. Every length is checked against the bytes present before anything is
     * allocated, and each codec must read exactly the bytes it wrote.
     *
     * @param name the section's name, for messages
     * @return the decoded values by key, in section order; put them with {@link #putAll}
     * @throws SnapshotException naming the section, the byte offset, the resource and what
     *     was wrong
     */
    @SuppressWarnings({"unchecked", "rawtypes"})
    public static Map<ResourceKey<?>, Object> read(String name, byte[] section, Resources resources,
            ResourceCodecs codecs, Set<ResourceKey<?>> skip) {
        Map<ResourceKey<?>, Object> restored = new LinkedHashMap<>();
        SnapshotInput in = SnapshotInput.of(name, section);
        try {
            int n = in.readCount("resource", 2 + 4, Integer.MAX_VALUE);
            for (int i = 0; i < n; i++) {
                int at = in.position();
                String resource = in.readUTF();
                ResourceKey key = keyNamed(resources, resource, in, at);
                ResourceCodec codec = codecs.of(key);
                if (codec == null || skip.contains(key)) {
                    throw in.refuseAt(at, "resource " + SnapshotInput.quote(resource) + " in the snapshot has no codec here; register "
                            + "the same codecs as the simulation that wrote it");
                }
                if (restored.containsKey(key)) {
                    throw in.corruptAt(at, "resource " + SnapshotInput.quote(resource) + " is given twice");
                }
                String what = "resource " + SnapshotInput.quote(resource);
                SnapshotInput data = in.slice(what, in.readCount("byte of " + what, 1, Integer.MAX_VALUE));
                restored.put(key, data.read(what, codec::read));
                data.requireEnd();
            }
            in.requireEnd();
        } catch (IOException e) {
            throw new SnapshotException(e.getMessage(), e); // the input's own: names the section and the offset
        }
        List<String> missing = new ArrayList<>();
        for (ResourceKey<?> k : resources.keys()) {
            if (!skip.contains(k) && codecs.of(k) != null && !restored.containsKey(k)) {
                missing.add("'" + k.name() + "'");
            }
        }
        if (!missing.isEmpty()) {
            throw in.refuseAt(0, "the snapshot carries no value for " + (missing.size() == 1 ? "resource " : "resources ")
                    + String.join(", ", missing) + ", which this simulation snapshots (it has a codec for "
                    + (missing.size() == 1 ? "it" : "each") + "); the snapshot was written by a simulation built with "
                    + "other resources: build this one as the one that wrote it");
        }
        return restored;
    }

    /** Puts every value {@link #read} decoded into {@code resources}. */
    @SuppressWarnings({"unchecked", "rawtypes"})
    public static void putAll(Map<ResourceKey<?>, Object> values, Resources resources) {
        for (Map.Entry<ResourceKey<?>, Object> e : values.entrySet()) {
            resources.put((ResourceKey) e.getKey(), e.getValue());
        }
    }

    private static ResourceKey<?> keyNamed(Resources resources, String name, SnapshotInput in, int at) {
        for (ResourceKey<?> k : resources.keys()) {
            if (k.name().equals(name)) {
                return k;
            }
        }
        throw in.refuseAt(at, "the snapshot holds resource " + SnapshotInput.quote(name) + ", which this simulation does not declare; "
                + "put the same resources before restoring");
    }
}
