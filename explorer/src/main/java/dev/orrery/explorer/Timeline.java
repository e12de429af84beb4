package dev.orrery.explorer;

import dev.orrery.engine.RunRecorder;
import dev.orrery.engine.Simulation;
import dev.orrery.engine.journal.ClusterStoreLayout;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Objects;
import java.util.function.Supplier;

/**
 * Where the explorer travels back from: a recording made by {@link RunRecorder} (live, still
 * being written, or finished), and how to build a simulation to replay it in. Given to
 * {@link ExplorerOptions#withTimeline}, it lets the page pick an earlier tick and inspect the
 * world as it was after that tick (an entity, a query's matches), and diff an entity or a
 * query between two ticks.
 *
 * <p>The explorer replays on a thread of its own, never the tick thread: it restores the
 * recording's starting snapshot into a fresh simulation, replays the journal forward to the
 * tick asked for, and keeps snapshots on the way, so a later jump back restores from the
 * nearest one. The replayed state hashes are checked against the recorded ones where the
 * recording has them, and the skipped ticks against the recorded skips; a mismatch is
 * reported, not hidden. A recording replaced in the folder while the explorer follows it
 * (another run's files copied over it, or recorded again there) is looked for by checks that
 * sample its files, at each travel and each {@code /api/timeline}: the start snapshot's
 * attributes, and the journal's file and length and, when it changed, its first and its last
 * checked few kilobytes. Once found, the timeline starts again from the new one, saying so;
 * a journal rewritten in place only between those bytes goes unseen, where the recorded
 * hashes still show a divergence ({@code /api/timeline} says what is compared, in
 * {@code replacedChecks}).
 *
 * <pre>{@code
 * Timeline past = Timeline.ofRecording(dir, () -> buildMySimulation(1));   // one worker: cores for the live run
 * Explorer explorer = Explorer.attach(sim, ExplorerOptions.loopback(8080).withTimeline(past));
 * }</pre>
 *
 * <p><b>Threading:</b> immutable; {@link #ofRecording} on any thread. The supplier is called
 * on the explorer's replay thread, which becomes the tick thread of the simulation it returns.
 */
public final class Timeline {
    private final Path folder;
    private final Supplier<Simulation> fresh;

    private Timeline(Path folder, Supplier<Simulation> fresh) {
        this.folder = folder;
        this.fresh = fresh;
    }

    /**
     * The recording in {@code folder} ({@value RunRecorder#SNAPSHOT} and
     * {@value RunRecorder#JOURNAL}), replayed in simulations that {@code fresh} builds: each a
     * new one, built as the recorded one was (the same systems, resources and seed; its world
     * with the components registered and no entities), as for {@code RunReplayer.replay}.
     *
     * @param folder the recording's folder, as {@code RunRecorder.start} wrote it; not null
     * @param fresh builds a new simulation on each call, built as the recorded one; not null
     * @return the timeline, for {@link ExplorerOptions#withTimeline}
     * @throws IllegalArgumentException when the folder holds no recording (yet); a cluster
     *     store's folder (the cluster module's {@code DirectoryWorldStore}: the store, a world's
     *     folder or one of its {@code epochs/}, {@code journal/} and {@code snapshots/}) is named
     *     as one, with the tool that checks its worlds instead
     * @throws NullPointerException if {@code folder} or {@code fresh} is null
     */
    public static Timeline ofRecording(Path folder, Supplier<Simulation> fresh) {
        Objects.requireNonNull(folder, "folder");
        Objects.requireNonNull(fresh, "fresh");
        if (!Files.isRegularFile(folder.resolve(RunRecorder.SNAPSHOT))) {
            if (ClusterStoreLayout.isClusterStore(folder)) { // the engine's rule, as RunReplayer's
                // once: "it has no start.snapshot; start the RunRecorder before attaching ...", naming neither
                throw new IllegalArgumentException("no recording in " + folder + ": this is "
                        + ClusterStoreLayout.description() + ", not a RunRecorder recording, and a "
                        + "timeline replays RunRecorder recordings only; check the store's worlds with the cluster "
                        + "module's WorldVerifier.verify (the demo: --cluster-verify --cluster-store DIR)");
            }
            throw new IllegalArgumentException("no recording in " + folder + ": it has no " + RunRecorder.SNAPSHOT
                    + "; start the RunRecorder before attaching the explorer with a timeline");
        }
        return new Timeline(folder, fresh);
    }

    /**
     * The recording's folder.
     *
     * @return the folder given to {@link #ofRecording}
     */
    public Path folder() {
        return folder;
    }

    Supplier<Simulation> fresh() {
        return fresh;
    }

    @Override
    public String toString() {
        return "timeline over the recording in " + folder;
    }
}
