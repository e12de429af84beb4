package dev.orrery.testkit;

import dev.orrery.ecs.SnapshotException;
import dev.orrery.engine.Simulation;
import dev.orrery.engine.internal.EngineInternals;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;

/**
 * Two recordings' end snapshots ({@value GoldenRecording#END}, which {@code GoldenRecording.record}
 * writes and a plain {@code RunRecorder} folder lacks) as {@link CompareRecordings} reads them:
 * both snapshots' bytes and resources, or why they cannot be compared (a recording holds none,
 * or a file cannot be read: which file, what the reader said, and what to do). The recordings
 * hold the resources at their end only, so where this says why, the report says the resources
 * were not compared rather than nothing.
 */
final class EndSnapshots {
    /** What the report adds where a recording holds no end snapshot. */
    private static final String NONE_WRITTEN = " (RunRecorder writes none; GoldenRecording.record does); the state "
            + "hashes cover the world, not the resources";

    private final byte[][] bytes;
    private final List<Map<String, byte[]>> resources;
    private final String notCompared;

    private EndSnapshots(byte[][] bytes, List<Map<String, byte[]>> resources, String notCompared) {
        this.bytes = bytes;
        this.resources = resources;
        this.notCompared = notCompared;
    }

    /** The end snapshots of the recordings in folders {@code a} and {@code b}; never throws. */
    static EndSnapshots read(Path a, Path b) {
        Path ea = a.resolve(GoldenRecording.END);
        Path eb = b.resolve(GoldenRecording.END);
        boolean hasA = Files.isRegularFile(ea);
        boolean hasB = Files.isRegularFile(eb);
        if (!hasA || !hasB) {
            return new EndSnapshots(null, null, (hasA || hasB ? (hasA ? b : a) + " holds no " : "neither recording "
                    + "holds an ") + GoldenRecording.END + NONE_WRITTEN);
        }
        byte[][] bytes = new byte[2][];
        List<Map<String, byte[]>> resources = new ArrayList<>();
        List<String> unread = new ArrayList<>();
        Path[] files = {ea, eb};
        for (int i = 0; i < 2; i++) {
            try {
                bytes[i] = Files.readAllBytes(files[i]);
                resources.add(EngineInternals.snapshotResources(bytes[i])); // checks the length and the checksum
            } catch (IOException | SnapshotException e) {
                unread.add("the end snapshot " + files[i] + " could not be read (" + (e instanceof SnapshotException
                        ? e.getMessage() : e.toString()) + ")");
            }
        }
        return unread.isEmpty() ? new EndSnapshots(bytes, resources, null) : new EndSnapshots(null, null,
                String.join("; ", unread) + "; record the run again, or take the file back from where the recording "
                        + "is kept");
    }

    /** Why the end snapshots cannot be compared (which file, and what to do), or null when both were read. */
    String notCompared() {
        return notCompared;
    }

    /** The first recording's end snapshot (0) or the second's (1); only where {@link #notCompared()} is null. */
    byte[] bytes(int which) {
        return bytes[which];
    }

    /** The resources that differ by the bytes each codec wrote, by name, the first recording the reference. */
    List<String> byName() {
        return ResourceState.differences(resources.get(0), resources.get(1));
    }

    /**
     * The entities and fields, then the resources with a codec, that differ in the two end
     * snapshots of {@code a} and {@code b}, both restored into {@code game} (the report's part
     * where the worlds differ and the game is given); where a system was named ({@code named})
     * and a resource differs, why that system may not be the one that wrote it. A snapshot the
     * game refuses is named, with what the restore said.
     */
    static void entities(Path a, Path b, SimulationFactory game, boolean named, PrintStream out) {
        EndSnapshots ends = read(a, b);
        if (ends.notCompared != null) {
            out.println("entities and resources: not compared: " + ends.notCompared);
            return;
        }
        Path[] files = {a.resolve(GoldenRecording.END), b.resolve(GoldenRecording.END)};
        try (Simulation sa = game.create(1, false); Simulation sb = game.create(1, false)) {
            Simulation[] sims = {sa, sb};
            for (int i = 0; i < 2; i++) {
                try {
                    sims[i].restore(ends.bytes[i]);
                } catch (SnapshotException e) {
                    out.println("entities and resources: not compared: the end snapshot " + files[i] + " did not "
                            + "restore into the --game class (" + e.getMessage() + "); is it the game that made the "
                            + "recording?");
                    return;
                }
            }
            List<Difference> diffs = WorldDiff.between(sa.world(), sb.world(), 20, new LinkedHashSet<>());
            out.println("entities: at the end (tick " + (sa.currentTick() - 1) + " against " + (sb.currentTick() - 1)
                    + "), the first 20 differences at most; the reference is the first recording:");
            for (Difference d : diffs) {
                out.println("  " + d);
            }
            List<String> differ = ResourceState.differences(sa, sb);
            if (!differ.isEmpty()) {
                out.println("resources: at the end, the reference is the first recording:");
                differ.forEach(r -> out.println("  " + r));
                if (named) {
                    out.println("note: " + ResourceState.WORLD_ONLY_HASHES + "; look at the systems that write the "
                            + "resources above");
                }
            }
        } catch (RuntimeException e) {
            FactoryRefusedException.rethrowIfRefusal(e);
            out.println("entities: the end snapshots could not be restored into the game: " + e.getMessage());
        }
    }
}
