package dev.orrery.explorer;

import dev.orrery.engine.RunRecorder;
import dev.orrery.engine.Simulation;
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
 * (another run's files copied over it, or recorded again there) is noticed by cheap checks
 * of its files, and the timeline starts again from the new one, saying so.
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
     * @throws IllegalArgumentException when the folder holds no recording (yet)
     */
    public static Timeline ofRecording(Path folder, Supplier<Simulation> fresh) {
        Objects.requireNonNull(folder, "folder");
        Objects.requireNonNull(fresh, "fresh");
        if (!Files.isRegularFile(folder.resolve(RunRecorder.SNAPSHOT))) {
            throw new IllegalArgumentException("no recording in " + folder + ": it has no " + RunRecorder.SNAPSHOT
                    + "; start the RunRecorder before attaching the explorer with a timeline");
        }
        return new Timeline(folder, fresh);
    }

    /** The recording's folder. */
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
