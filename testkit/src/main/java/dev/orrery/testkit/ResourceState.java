package dev.orrery.testkit;

import dev.orrery.engine.ResourceCodec;
import dev.orrery.engine.Simulation;
import dev.orrery.scheduler.ResourceKey;
import java.io.ByteArrayOutputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The part of a game's state that lives outside the world: every resource with a codec (the
 * ones snapshots carry), as its codec writes it. {@code World.stateHash()} does not cover
 * them, so the kit adds them to the hash it compares and names the ones that differ.
 */
final class ResourceState {
    private ResourceState() {
    }

    /** The world's state hash mixed with the bytes every resource with a codec writes. */
    static long hash(Simulation sim) {
        long h = sim.world().stateHash();
        for (Map.Entry<String, byte[]> e : bytes(sim).entrySet()) {
            h = mix(mix(h, e.getKey().hashCode()), fnv(e.getValue()));
        }
        return h;
    }

    /**
     * How the resources of {@code actual} differ from those of {@code reference}, one line each:
     * the resource's name, where its codec's bytes first differ, and both values when the type
     * prints them ({@code toString} of its own, as a record has).
     */
    static List<String> differences(Simulation reference, Simulation actual) {
        Map<String, byte[]> a = bytes(reference);
        Map<String, byte[]> b = bytes(actual);
        List<String> out = new ArrayList<>();
        for (Map.Entry<String, byte[]> e : a.entrySet()) {
            byte[] x = e.getValue();
            byte[] y = b.get(e.getKey());
            if (y == null || java.util.Arrays.equals(x, y)) {
                continue;
            }
            int at = java.util.Arrays.mismatch(x, y);
            String line = "resource '" + e.getKey() + "': its codec writes " + y.length + " bytes here and " + x.length
                    + " in the reference, first differing at byte " + at;
            Object rv = value(reference, e.getKey());
            Object av = value(actual, e.getKey());
            if (prints(rv)) {
                line += " (" + rv + " in the reference, " + av + " here)";
            }
            out.add(line);
        }
        return out;
    }

    private static boolean prints(Object value) {
        if (value == null) {
            return false;
        }
        try {
            return value.getClass().getMethod("toString").getDeclaringClass() != Object.class;
        } catch (NoSuchMethodException e) {
            return false;
        }
    }

    private static Object value(Simulation sim, String name) {
        for (ResourceKey<?> k : sim.resources().keys()) {
            if (k.name().equals(name)) {
                return sim.resources().get(k);
            }
        }
        return null;
    }

    @SuppressWarnings({"unchecked", "rawtypes"})
    private static Map<String, byte[]> bytes(Simulation sim) {
        Map<String, byte[]> out = new LinkedHashMap<>();
        for (ResourceKey k : sim.resources().keys()) {
            ResourceCodec codec = sim.resourceCodecs().of(k);
            if (codec == null) {
                continue;
            }
            ByteArrayOutputStream one = new ByteArrayOutputStream();
            try (DataOutputStream o = new DataOutputStream(one)) {
                codec.write(sim.resources().get(k), o);
            } catch (IOException e) {
                throw new UncheckedIOException("the codec of resource '" + k.name() + "' failed to write it", e);
            }
            out.put(k.name(), one.toByteArray());
        }
        return out;
    }

    private static long fnv(byte[] bytes) {
        long h = 0xcbf29ce484222325L;
        for (byte x : bytes) {
            h = (h ^ (x & 0xff)) * 0x100000001b3L;
        }
        return h;
    }

    private static long mix(long h, long v) {
        h ^= v + 0x9e3779b97f4a7c15L + (h << 6) + (h >>> 2);
        return h * 0xbf58476d1ce4e5b9L;
    }
}
