package dev.orrery.engine;

import dev.orrery.ecs.SnapshotException;
import dev.orrery.ecs.World;
import dev.orrery.ecs.component.Component;
import dev.orrery.engine.journal.ClusterStoreLayout;
import java.io.BufferedInputStream;
import java.io.DataInputStream;
import java.io.EOFException;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Objects;
import java.util.Set;

/**
 * Replays a recording made by {@link RunRecorder}: restores the starting snapshot (or a
 * snapshot taken later in the run) into a new simulation built by the same code with the
 * same seed, feeds each recorded tick's inputs, and checks the state hash at every tick the
 * recording hashed, whatever the replaying simulation's own {@code hashEvery} (the journal's
 * source asks the simulation for those hashes: {@link InputSource#wantsHash}). The replay may
 * use any number of workers.
 *
 * <p>The replay runs under the failure policy the recording notes (it sets it on the
 * simulation) and skips the ticks the recording skipped. A recording that did not close (the
 * recording process crashed) is replayed up to its last complete tick, and the
 * {@link Result} says so ({@link Result#closedCleanly()}, {@link Result#cut()}).
 *
 * <p>On a mismatch it stops at the first diverging tick and throws a
 * {@link ReplayDivergenceException} whose message adds the component types whose values
 * differ at that tick.
 *
 * <p><b>Threading:</b> runs on the calling thread, which becomes the simulation's tick thread;
 * a simulation a {@code WorldHost} holds is refused (its pool threads tick it).
 */
public final class RunReplayer {
    private RunReplayer() {
    }

    /**
     * What a finished replay did.
     *
     * @param ticks         ticks replayed
     * @param hashesChecked recorded state hashes the replay matched
     * @param finalHash     the state hash after the last tick
     * @param nextTick      the number of the tick after the last replayed one
     * @param skippedTicks  ticks skipped (a system threw), each matching a recorded skip
     * @param closedCleanly whether the recording was closed; false when a crash cut it
     * @param cut           where and why the journal ends without a clean close, or null
     */
    public record Result(long ticks, long hashesChecked, long finalHash, long nextTick, long skippedTicks,
            boolean closedCleanly, String cut) {
    }

    /**
     * Replays the recording in {@code dir} from its starting snapshot.
     *
     * @param dir a folder a {@link RunRecorder} wrote, not null
     * @param fresh a new simulation, built as the recorded one (same seed, systems and resources),
     *     at tick 0
     * @return what the replay did; {@code closedCleanly} false when the recording was cut
     * @throws IOException if the starting snapshot is missing or empty ({@link #startSnapshot}),
     *     or the journal is missing or cannot be read: a {@link CorruptJournalException} naming
     *     the journal, the byte offset and the record, for a damaged header (before anything is
     *     restored, so {@code fresh} stays new) or a damaged record before its last (the ticks
     *     before it were replayed)
     * @throws dev.orrery.ecs.SnapshotException naming the snapshot file, if it is refused
     * @throws ReplayDivergenceException naming the first diverging tick and the differing
     *     components
     * @throws IllegalStateException if a {@code WorldHost} holds {@code fresh} (replay into a
     *     simulation that is not hosted), or as {@link Simulation#restore} refuses it
     */
    public static Result replay(Path dir, Simulation fresh) throws IOException {
        Objects.requireNonNull(dir, "recording folder");
        Objects.requireNonNull(fresh, "simulation to replay into");
        requireNotHosted(fresh);
        byte[] snapshot = startSnapshot(dir);
        try (JournalInputSource source = openJournal(dir)) { // before the restore: a bad journal leaves fresh new
            try {
                fresh.restore(snapshot);
            } catch (SnapshotException e) {
                throw new SnapshotException(dir.resolve(RunRecorder.SNAPSHOT) + ": " + e.getMessage(), e);
            }
            return replayRestored(dir, source, fresh);
        }
    }

    /**
     * Opens the journal of the recording in {@code dir}, its header checked, before anything is
     * restored: a missing or foreign journal is refused while the simulation is still new.
     */
    private static JournalInputSource openJournal(Path dir) throws IOException {
        Path file = dir.resolve(RunRecorder.JOURNAL);
        if (!Files.exists(file)) {
            throw new NoSuchFileException(file.toString(), null, "the recording folder has no input journal (a "
                    + "recorder writes " + RunRecorder.JOURNAL + " beside " + RunRecorder.SNAPSHOT + " before the first "
                    + "tick, so it was moved or deleted); copy the whole folder the recording wrote, or record the "
                    + "run again");
        }
        return JournalInputSource.openAllowingCut(file);
    }

    /**
     * The starting snapshot of the recording in {@code dir}, read whole.
     *
     * @param dir a folder a {@link RunRecorder} wrote, not null
     * @return the snapshot's bytes, not empty
     * @throws IOException with one line naming the file and what to do, where there is no
     *     recording folder, no {@value RunRecorder#SNAPSHOT} in it (or only the temporary file
     *     of a recording cut while writing it), or an empty one; a cluster store's folder (the
     *     cluster module's {@code DirectoryWorldStore}: the store, a world's folder or one of its
     *     {@code epochs/}, {@code journal/} and {@code snapshots/}) is named as one, with the
     *     tool that checks its worlds instead ({@link ClusterStoreLayout})
     */
    public static byte[] startSnapshot(Path dir) throws IOException {
        Objects.requireNonNull(dir, "recording folder");
        Path file = dir.resolve(RunRecorder.SNAPSHOT);
        if (!Files.isDirectory(dir)) {
            String where = dir.isAbsolute() ? "" : " (looked for at " + dir.toAbsolutePath() + ", relative to the "
                    + "working folder)";
            throw new NoSuchFileException(dir.toString(), null, "no recording folder there" + where + "; name the "
                    + "folder a recording wrote");
        }
        if (!Files.exists(file)) {
            if (Files.exists(dir.resolve(RunRecorder.SNAPSHOT_TEMPORARY))) {
                throw new NoSuchFileException(file.toString(), null, "the recording was cut while its starting snapshot "
                        + "was being written (only " + RunRecorder.SNAPSHOT_TEMPORARY + " is there), before its first "
                        + "tick; there is nothing to replay: record the run again");
            }
            if (ClusterStoreLayout.isClusterStore(dir)) {
                // once: "DIR/start.snapshot: the recording folder has no starting snapshot; ...", naming neither
                throw new NoSuchFileException(dir.toString(), null, ClusterStoreLayout.description()
                        + ", not a recording RunRecorder wrote, and RunReplayer "
                        + "replays RunRecorder recordings only; check the store's worlds with the cluster module's "
                        + "WorldVerifier.verify (the demo: --cluster-verify --cluster-store DIR)");
            }
            throw new NoSuchFileException(file.toString(), null, "the recording folder has no starting snapshot; "
                    + "replay a folder a recording wrote (" + RunRecorder.SNAPSHOT + ", " + RunRecorder.JOURNAL + ")");
        }
        byte[] bytes = Files.readAllBytes(file);
        if (bytes.length == 0) {
            throw new IOException(file + " is empty (0 bytes): the recording was cut before its starting snapshot "
                    + "reached the disk (recorders before this release wrote it in place), before its first tick; "
                    + "there is nothing to replay: record the run again");
        }
        return bytes;
    }

    /**
     * Replays the recording in {@code dir} from {@code snapshot}, taken by
     * {@link Simulation#snapshot()} at any tick of the recorded run; journal ticks before the
     * snapshot's tick are skipped, and the restored state is checked against the hash the
     * recording took just before it ({@link JournalInputSource#resumeAt}), so a snapshot of
     * another run is refused there, or at the next recorded hash where the recording has none
     * just before it.
     *
     * @param dir a folder a {@link RunRecorder} wrote, not null
     * @param snapshot bytes from {@link Simulation#snapshot()} taken during the recorded run
     * @param fresh a new simulation, built as the recorded one, at tick 0
     * @return what the replay did, counted from the snapshot's tick
     * @throws ReplayDivergenceException naming the first diverging tick and the differing components
     *     (the tick before the snapshot's, for a snapshot of another run)
     * @throws IllegalStateException if the journal has no tick at the snapshot's, as
     *     {@link JournalInputSource#resumeAt} says (a snapshot taken before or after the recording),
     *     or if a {@code WorldHost} holds {@code fresh} (replay into a simulation that is not hosted)
     * @throws IOException if the journal is missing or cannot be read, as {@link #replay(Path, Simulation)}
     *     says (a missing journal or a damaged header is refused before the snapshot is restored)
     */
    public static Result replay(Path dir, byte[] snapshot, Simulation fresh) throws IOException {
        Objects.requireNonNull(dir, "recording folder");
        Objects.requireNonNull(fresh, "simulation to replay into");
        requireNotHosted(fresh);
        try (JournalInputSource source = openJournal(dir)) {
            fresh.restore(snapshot);
            return replayRestored(dir, source, fresh);
        }
    }

    /**
     * Refuses a simulation a {@code WorldHost} holds, whichever thread calls (inside
     * {@code hostedWorld.call} too): a replay restores it and ticks it on the calling thread.
     */
    private static void requireNotHosted(Simulation fresh) {
        fresh.requireNotHostedAtAll("RunReplayer.replay", "whose pool threads tick it, and a replay restores the "
                + "recording's snapshot into it and ticks it on the calling thread", "replay into a new simulation "
                + "that is not hosted (built like the recorded one, at tick 0), and to host the replayed world, put it "
                + "in the world's place afterwards: hostedWorld.remove().join(), then host.add(name, replayed, hz)");
    }

    /** Replays the journal in {@code dir} into {@code fresh}, which has restored the snapshot to start from. */
    private static Result replayRestored(Path dir, JournalInputSource source, Simulation fresh) throws IOException {
        long start = fresh.currentTick();
        long ticks = 0;
        try {
            fresh.onSystemFailure(source.failurePolicy());
            try { // the ticks before the snapshot are in its state; its hash is checked against the recording's
                source.resumeAt(start, fresh.world().stateHash());
            } catch (ReplayDivergenceException e) {
                throw explain(e, dir, fresh.world());
            }
            fresh.inputs(source);
            while (source.hasNextTick()) {
                try {
                    fresh.tick(); // it hashes every tick the recording hashed (JournalInputSource.wantsHash)
                } catch (ReplayDivergenceException e) {
                    ReplayDivergenceException explained = explain(e, dir, fresh.world());
                    fresh.stopCauseDetail(explained.detail()); // what stopped it names what differs too
                    throw explained;
                }
                ticks++;
            }
            source.finish();
            return new Result(ticks, source.hashesChecked(), fresh.world().stateHash(), fresh.currentTick(),
                    fresh.skippedTicks(), source.closedCleanly(), source.cut());
        } catch (UncheckedIOException e) {
            if (e.getCause() instanceof CorruptJournalException corrupt) {
                throw corrupt; // the IOException replay declares, as when the header is damaged
            }
            throw e;
        }
    }

    private static ReplayDivergenceException explain(ReplayDivergenceException e, Path dir, World world) {
        long[] recorded = recordedColumns(dir.resolve(RunRecorder.COLUMNS), e.tick());
        if (recorded == null) {
            return e;
        }
        long[] now = world.columnHashes();
        Set<String> differ = new LinkedHashSet<>();
        List<Component<?>> columns = world.columns();
        for (int i = 0; i < Math.max(recorded.length, now.length); i++) {
            long a = i < recorded.length ? recorded[i] : 0;
            long b = i < now.length ? now[i] : 0;
            if (a != b) {
                differ.add(i < columns.size() ? columns.get(i).toString() : "column #" + i);
            }
        }
        List<String> relations = new ArrayList<>(); // pairs are in the state hash, not in any column's: a second target, children's order
        world.relations().all().forEach(r -> relations.add(r.name()));
        String detail = !differ.isEmpty() ? "components that differ: " + new ArrayList<>(differ)
                : relations.isEmpty() ? "every component's values match; the entity table (ids, generations, free list) "
                        + "or the archetype layout differs"
                : "every component's values match; the entity table (ids, generations, free list), the archetype layout "
                        + "or the pairs of a relation (" + relations + ") differ";
        return e.withDetail(detail);
    }

    private static long[] recordedColumns(Path file, long tick) {
        if (!Files.exists(file)) {
            return null;
        }
        try (InputStream raw = Files.newInputStream(file);
             DataInputStream in = new DataInputStream(new BufferedInputStream(raw))) {
            for (;;) {
                long t = in.readLong();
                int n = in.readInt();
                if (n < 0 || n > 1 << 20) {
                    return null;
                }
                long[] h = new long[n];
                for (int i = 0; i < n; i++) {
                    h[i] = in.readLong();
                }
                if (t == tick) {
                    return h;
                }
            }
        } catch (EOFException end) {
            return null;
        } catch (IOException e) {
            return null;
        }
    }
}
