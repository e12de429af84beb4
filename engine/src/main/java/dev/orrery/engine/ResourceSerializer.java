package dev.orrery.engine;

import dev.orrery.ecs.SnapshotException;
import dev.orrery.scheduler.ResourceKey;
import dev.orrery.scheduler.Resources;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.util.LinkedHashMap;
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
 * part of the simulation snapshot format: changing it invalidates recorded snapshots.
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
     * @return the decoded values by key, in section order; put them with {@link #putAll}
     * @throws SnapshotException naming a resource the store does not declare or has no codec for
     * @throws IOException if the section is cut short or a codec fails
     */
    @SuppressWarnings({"unchecked", "rawtypes"})
    public static Map<ResourceKey<?>, Object> read(byte[] section, Resources resources, ResourceCodecs codecs)
            throws IOException {
        Map<ResourceKey<?>, Object> restored = new LinkedHashMap<>();
        DataInputStream in = new DataInputStream(new ByteArrayInputStream(section));
        int n = in.readInt();
        for (int i = 0; i < n; i++) {
            String name = in.readUTF();
            byte[] data = new byte[in.readInt()];
            in.readFully(data);
            ResourceKey key = keyNamed(resources, name);
            ResourceCodec codec = codecs.of(key);
            if (codec == null) {
                throw new SnapshotException("resource '" + name + "' in the snapshot has no codec here");
            }
            restored.put(key, codec.read(new DataInputStream(new ByteArrayInputStream(data))));
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

    private static ResourceKey<?> keyNamed(Resources resources, String name) {
        for (ResourceKey<?> k : resources.keys()) {
            if (k.name().equals(name)) {
                return k;
            }
        }
        throw new SnapshotException("snapshot holds resource '" + name + "', which this simulation does not declare; "
                + "put the same resources before restoring");
    }
}
