package dev.orrery.testkit;

import dev.orrery.engine.ResourceCodec;
import dev.orrery.engine.Simulation;
import dev.orrery.scheduler.ResourceKey;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.regex.Pattern;

/**
 * The part of a game's state that lives outside the world: every resource with a codec (the
 * ones snapshots carry), as its codec writes it. {@code World.stateHash()} does not cover
 * them, so the kit adds them to the hash it compares and names the ones that differ.
 */
final class ResourceState {
    /** Object's own toString, as an array or a field without a toString of its own prints: Type@1b6d3586. */
    private static final Pattern IDENTITY = Pattern.compile("[\\w$.;\\[]+@[0-9a-f]{1,8}\\b");

    /**
     * What a report adds where a system was named from hashes of the world alone (a recording's
     * {@code systems.hashes}): a resource that differs reaches those hashes only through the
     * first system that writes something from it into the world.
     */
    static final String WORLD_ONLY_HASHES = "the hashes after each system cover the world, not the resources: the "
            + "system named may only be the first to carry into the world a resource that an earlier system wrote "
            + "(this tick or an earlier one)";

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
     * Feeds {@code script} to {@code sim}, ticks it once per entry of {@code reference} and
     * returns the first tick whose {@link #hash} differs from the reference's, or -1; closes
     * {@code sim}. The re-runs that look for the origin of a difference ({@code JobOrderOrigin},
     * {@code TieOrderOrigin}) share it.
     */
    static long firstDifference(Simulation sim, InputScript script, long[] reference) {
        try (sim) {
            sim.inputs(new ScriptInputs(script));
            for (int k = 0; k < reference.length; k++) {
                sim.tick();
                if (hash(sim) != reference[k]) {
                    return k;
                }
            }
            return -1;
        }
    }

    /**
     * How the resources of {@code actual} differ from those of {@code reference}, one line each:
     * the resource's name and where its codec's bytes first differ; then both values, as the
     * codec reads them back (the state a snapshot carries, not scratch the codec leaves out),
     * when the type prints them ({@code toString} of its own, as a record has), or else why it
     * does not and how to make it.
     */
    static List<String> differences(Simulation reference, Simulation actual) {
        Map<String, byte[]> a = new TreeMap<>(bytes(reference)); // by name: the same lines whatever order it was put in
        Map<String, byte[]> b = bytes(actual);
        List<String> out = new ArrayList<>();
        for (Map.Entry<String, byte[]> e : a.entrySet()) {
            byte[] x = e.getValue();
            byte[] y = b.get(e.getKey());
            if (y == null || Arrays.equals(x, y)) {
                continue;
            }
            ResourceKey<?> key = key(reference, e.getKey());
            Object rv = decoded(reference, key, x);
            Object av = decoded(actual, key, y);
            out.add(line(e.getKey(), x, y) + values(rv, av));
        }
        return out;
    }

    /**
     * How the resources in two snapshots differ, by name (in name order, whatever order each
     * game put them in): the bytes each codec wrote, one line each as {@link
     * #differences(Simulation, Simulation)} writes it without the values (reading them needs
     * the game), and a line for a resource one snapshot carries and the other does not.
     */
    static List<String> differences(Map<String, byte[]> reference, Map<String, byte[]> actual) {
        Set<String> names = new TreeSet<>(reference.keySet());
        names.addAll(actual.keySet());
        List<String> out = new ArrayList<>();
        for (String name : names) {
            byte[] x = reference.get(name);
            byte[] y = actual.get(name);
            if (x == null || y == null) {
                out.add("resource '" + name + "': " + (x == null ? "here only" : "in the reference only") + " (the games "
                        + "put other resources with a codec)");
            } else if (!Arrays.equals(x, y)) {
                out.add(line(name, x, y));
            }
        }
        return out;
    }

    /** {@code resource 'bank': its codec writes 12 bytes here and 12 in the reference, first differing at byte 3}. */
    private static String line(String name, byte[] reference, byte[] actual) {
        return "resource '" + name + "': its codec writes " + actual.length + " bytes here and " + reference.length
                + " in the reference, first differing at byte " + Arrays.mismatch(reference, actual);
    }

    /**
     * Prints to {@code out} the resources that differ in the end snapshots of the recordings in
     * {@code a} and {@code b}, if any, and returns whether any does: the recordings' hashes cover
     * the world only, so where the worlds agree on every tick, this is where resources that
     * differ show. With {@code game}, both snapshots are restored into it and both values shown;
     * without it, or when it refuses them, the bytes each codec wrote, by name. The recordings
     * hold their resources at their end only: where they end on different ticks ({@code tickA}
     * against {@code tickB}), a recording holds no end snapshot or one cannot be read, a line
     * says that the resources were not compared, and why.
     */
    static boolean atEnd(Path a, Path b, long tickA, long tickB, SimulationFactory game, PrintStream out) {
        EndSnapshots ends = EndSnapshots.read(a, b);
        if (ends.notCompared() != null) {
            out.println("resources: not compared: " + ends.notCompared());
            return false;
        }
        if (tickA != tickB) {
            out.println("resources: not compared: the recordings end on different ticks (" + tickA + " against " + tickB
                    + ") and hold their resources at their end only (" + GoldenRecording.END + "); the state hashes "
                    + "cover the world, not the resources: record both runs for the same number of ticks to compare "
                    + "them");
            return false;
        }
        List<String> differ = null;
        if (game != null) {
            try (Simulation sa = game.create(1, false); Simulation sb = game.create(1, false)) {
                sa.restore(ends.bytes(0));
                sb.restore(ends.bytes(1));
                differ = differences(sa, sb);
            } catch (RuntimeException e) {
                FactoryRefusedException.rethrowIfRefusal(e); // else the bytes still tell which differ
            }
        }
        boolean restored = differ != null;
        if (differ == null) {
            differ = ends.byName();
        }
        print(differ, "tick " + tickA, out);
        if (!differ.isEmpty() && !restored) {
            out.println("note: the state hashes cover the world, not the resources; " + (game == null ? "give "
                    + "--game to see both values" : "the --game class did not restore the end snapshots, so the "
                    + "values are not shown (is it the game that made them?)"));
        }
        return !differ.isEmpty();
    }

    /**
     * Prints to {@code out} the resources that differ in the end snapshots of the recordings in
     * {@code a} and {@code b} by the bytes each codec wrote, by name (the report's resource part
     * where the worlds differ and no game is given to restore them); {@code when} names the end
     * ("tick 19", "tick 19 against 17"). Returns whether any differs, or null where they were not
     * compared: a recording has no end snapshot or one cannot be read (a line says which, why
     * and what to do).
     */
    static Boolean bytesAtEnd(Path a, Path b, String when, PrintStream out) {
        EndSnapshots ends = EndSnapshots.read(a, b);
        if (ends.notCompared() != null) {
            out.println("resources: not compared: " + ends.notCompared());
            return null;
        }
        List<String> differ = ends.byName();
        print(differ, when, out);
        return !differ.isEmpty();
    }

    private static void print(List<String> differ, String when, PrintStream out) {
        if (!differ.isEmpty()) {
            out.println("resources: at the end (" + when + "), the reference is the first recording:");
            differ.forEach(r -> out.println("  " + r));
        }
    }

    /** Both values in brackets, or, after a semicolon, why the report cannot show them and the fix. */
    private static String values(Object reference, Object actual) {
        if (reference == null || actual == null) {
            return "";
        }
        String type = reference.getClass().getSimpleName().isEmpty() ? "its type"
                : reference.getClass().getSimpleName();
        String fix = ": give it a toString() that prints every value its codec writes, and this report shows both";
        if (!ownToString(reference) || !ownToString(actual)) {
            return "; " + type + " does not print its values: make it a record, or give it a toString(), and this "
                    + "report shows both";
        }
        String r = String.valueOf(reference);
        String a = String.valueOf(actual);
        if (IDENTITY.matcher(r).find() || IDENTITY.matcher(a).find()) {
            return "; " + type + " prints an array or object by identity" + fix;
        }
        if (r.equals(a)) {
            return "; " + type + " prints the same for both (" + shorten(r) + ")" + fix;
        }
        return " (" + shorten(r) + " in the reference, " + shorten(a) + " here)";
    }

    /** Keeps a report line readable when a value prints at length. */
    private static String shorten(String s) {
        String one = s.replace('\n', ' ');
        return one.length() <= 200 ? one : one.substring(0, 200) + "...";
    }

    private static boolean ownToString(Object value) {
        try {
            return value.getClass().getMethod("toString").getDeclaringClass() != Object.class;
        } catch (NoSuchMethodException e) {
            return false;
        }
    }

    private static ResourceKey<?> key(Simulation sim, String name) {
        for (ResourceKey<?> k : sim.resources().keys()) {
            if (k.name().equals(name)) {
                return k;
            }
        }
        return null;
    }

    /**
     * The value {@code sim}'s codec reads back from {@code bytes}, or the live value where the
     * codec cannot read what it wrote (the line then shows what the run holds).
     */
    @SuppressWarnings({"unchecked", "rawtypes"})
    private static Object decoded(Simulation sim, ResourceKey key, byte[] bytes) {
        if (key == null) {
            return null;
        }
        ResourceCodec codec = sim.resourceCodecs().of(key);
        if (codec != null) {
            try {
                return codec.read(new DataInputStream(new ByteArrayInputStream(bytes)));
            } catch (IOException | RuntimeException e) {
                // fall through to the live value
            }
        }
        return sim.resources().get(key);
    }

    @SuppressWarnings({"unchecked", "rawtypes"})
    static Map<String, byte[]> bytes(Simulation sim) {
        Map<String, byte[]> out = new LinkedHashMap<>();
        for (ResourceKey k : sim.resources().keys()) {
            ResourceCodec codec = sim.resourceCodecs().of(k);
            if (codec == null) {
                continue;
            }
            try {
                out.put(k.name(), encode(codec, sim.resources().get(k)));
            } catch (IOException e) {
                throw new UncheckedIOException("the codec of resource '" + k.name() + "' failed to write it", e);
            }
        }
        return out;
    }

    /** The bytes {@code codec} writes for {@code value}. */
    @SuppressWarnings({"unchecked", "rawtypes"})
    static byte[] encode(ResourceCodec codec, Object value) throws IOException {
        ByteArrayOutputStream one = new ByteArrayOutputStream();
        try (DataOutputStream o = new DataOutputStream(one)) {
            codec.write(value, o);
        }
        return one.toByteArray();
    }

    static long fnv(byte[] bytes) {
        long h = 0xcbf29ce484222325L;
        for (byte x : bytes) {
            h = (h ^ (x & 0xff)) * 0x100000001b3L;
        }
        return h;
    }

    static long mix(long h, long v) {
        h ^= v + 0x9e3779b97f4a7c15L + (h << 6) + (h >>> 2);
        return h * 0xbf58476d1ce4e5b9L;
    }
}
