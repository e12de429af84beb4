package dev.orrery.engine;

import dev.orrery.ecs.World;
import dev.orrery.ecs.internal.EcsInternals;
import dev.orrery.engine.journal.JournalWriter;
import java.io.BufferedOutputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.util.Objects;

/**
 * Records a run so {@link RunReplayer} can replay it bit for bit: the simulation's starting
 * snapshot ({@value #SNAPSHOT}), the input journal with a state hash every hashed tick
 * ({@value #JOURNAL}), and per-component hashes at those ticks ({@value #COLUMNS}), which
 * let a diverging replay name the component types that differ. The snapshot is written
 * whole under a temporary name and then renamed, before the journal is created, so a
 * recording cut by a crash has either its complete starting snapshot or none.
 *
 * <pre>{@code
 * try (RunRecorder rec = RunRecorder.start(sim, dir, InputPipeline.builder().ringSize(4096))) {
 *     server.onCommand(c -> rec.inputs().tryPublish(c.client(), c.type(), c.payload(), 0, c.payload().length));
 *     sim.run(1000, 60.0);   // inputs published meanwhile, from any thread, are journaled with their tick
 * }
 * }</pre>
 *
 * <p><b>Threading:</b> start and close on the tick thread (close also on any thread once the
 * tick thread has terminated: see {@link #close()}); {@link #inputs()} accepts publishes from
 * any thread (see {@link InputPipeline}).
 */
public final class RunRecorder implements AutoCloseable {
    /** The starting snapshot's file name in the recording folder. */
    public static final String SNAPSHOT = "start.snapshot";
    /**
     * The name the starting snapshot is written under before it is renamed to {@value #SNAPSHOT};
     * found in a folder, it means the recording was cut before its snapshot was complete.
     */
    public static final String SNAPSHOT_TEMPORARY = "start.snapshot.tmp";
    /** The input journal's file name. */
    public static final String JOURNAL = "inputs.journal";
    /** The per-component hash log's file name. */
    public static final String COLUMNS = "columns.hashes";

    private final Simulation sim;
    private final InputPipeline pipeline;
    private final DataOutputStream columns;
    /** The last tick's per-component hashes, reused for the next (written to {@code columns} at once). */
    private long[] columnHashes;
    /** The input source and hash listener the simulation had before, handed back by {@link #close()}. */
    private final InputSource before;
    private final Simulation.HashListener listenerBefore;
    /** Set by the first {@link #close()}: a second one must not hand back what a later recorder set. */
    private boolean closed;

    private RunRecorder(Simulation sim, InputPipeline pipeline, DataOutputStream columns) {
        this.sim = sim;
        this.pipeline = pipeline;
        this.columns = columns;
        this.before = sim.inputSource();
        this.listenerBefore = sim.hashListenerSet();
    }

    /**
     * Writes the starting snapshot into {@code dir} (created if missing; existing recording
     * files are refused) atomically (a temporary file, then a rename, so a crash leaves it
     * complete or absent, never empty or cut), then feeds {@code sim} from a new input pipeline built from
     * {@code pipeline} that journals every tick.
     *
     * @param sim an open simulation between ticks, not recorded already
     * @param dir the recording folder, created if missing; it must hold no earlier recording
     * @param pipeline the builder of the input pipeline to record through (its recorder is set
     *     here)
     * @return the recorder; publish inputs to {@link #inputs()}, and close it to end the recording
     * @throws java.nio.file.FileAlreadyExistsException (an {@code IOException}) naming the file,
     *     if the folder already holds a recording's snapshot, journal or hash log; nothing is
     *     written then
     * @throws IOException if the folder cannot be written
     * @throws IllegalStateException if {@code sim} is closed, ticking, or recorded already, or its
     *     input pipeline holds inputs no tick has taken, as
     *     {@link #start(Simulation, Path, InputPipeline.Builder, Durability)} says
     */
    public static RunRecorder start(Simulation sim, Path dir, InputPipeline.Builder pipeline) throws IOException {
        return start(sim, dir, pipeline, Durability.NONE);
    }

    /**
     * As {@link #start(Simulation, Path, InputPipeline.Builder)}, with the journal forced to
     * the device as {@code durability} says (how many ticks a power loss can take; see
     * {@link Durability}). The journal notes the simulation's failure policy. The per-component
     * hash log is only a diagnostic and is not forced.
     *
     * <p>While the recording runs, the simulation reads only the recorder's pipeline: the
     * source it had before (the pipeline it was built with, say) is not drained, and what is
     * published to it waits there until {@link #close()} hands the simulation back to it.
     *
     * <p>The journal notes the simulation's failure policy, so it may not change until the
     * recorder closes ({@link Simulation#onSystemFailure} refuses).
     *
     * @param sim an open simulation between ticks, not recorded already
     * @param dir the recording folder, created if missing; it must hold no earlier recording
     * @param pipeline the builder of the input pipeline to record through (its recorder is set
     *     here)
     * @param durability how often the journal is forced to the device, not null
     *     ({@link Durability#NONE}: forced only by a clean close)
     * @return the recorder; publish inputs to {@link #inputs()}, and close it to end the recording
     * @throws java.nio.file.FileAlreadyExistsException (an {@code IOException}) naming the file,
     *     if the folder already holds a recording's snapshot, journal or hash log; nothing is
     *     written then
     * @throws IOException if the folder cannot be written
     * @throws IllegalStateException if {@code sim} is closed, if called from inside one of its
     *     ticks (a system, a run condition or an observer hook: call it between ticks), if
     *     another {@code RunRecorder} records it (close that one first), or if the input pipeline it reads
     *     now holds inputs no tick has taken yet (the recording would neither apply nor
     *     journal them: tick once more first); nothing is written then
     */
    public static RunRecorder start(Simulation sim, Path dir, InputPipeline.Builder pipeline, Durability durability)
            throws IOException {
        Objects.requireNonNull(sim, "simulation");
        Objects.requireNonNull(dir, "recording folder");
        Objects.requireNonNull(pipeline, "input pipeline builder");
        Objects.requireNonNull(durability, "durability");
        sim.requireOpen(); // before the folder is made: a closed simulation records nothing
        sim.requireNotHosted("RunRecorder.start()"); // a hosted one: on its tick thread, through hostedWorld.call
        sim.requireBetweenTicks("RunRecorder.start()"); // else snapshot() refuses, naming a call the user never made
        if (sim.recordedPolicy != null) { // set from start to close: another recorder records it now
            throw new IllegalStateException("a RunRecorder already records this simulation; close it before starting "
                    + "another (a second one would take the next ticks' inputs from the first one's journal, which "
                    + "could then not be replayed); nothing was written to " + dir);
        }
        if (sim.inputSource() instanceof InputPipeline own && !own.isClosed() && own.pendingCount() > 0) {
            throw new IllegalStateException("the simulation's input pipeline holds " + own.pendingCount() + " input(s) "
                    + "no tick has taken yet, and a recording reads only its own pipeline, so they would be neither "
                    + "applied nor journaled; tick once more before RunRecorder.start, and publish to "
                    + "recorder.inputs() while recording");
        }
        Files.createDirectories(dir);
        for (String f : new String[] {SNAPSHOT, JOURNAL, COLUMNS}) {
            if (Files.exists(dir.resolve(f))) {
                // the JDK's type for a file that is already there, as the test kit's GoldenRecording refuses it
                throw new FileAlreadyExistsException(dir.resolve(f).toString(), null, "recording folder " + dir
                        + " already holds " + f + "; record into an empty folder so no earlier run is overwritten");
            }
        }
        writeAtomically(dir, SNAPSHOT, sim.snapshot(), durability.mode() != Durability.Mode.NONE);
        OutputStream out = Files.newOutputStream(dir.resolve(COLUMNS), StandardOpenOption.CREATE_NEW);
        DataOutputStream columns = new DataOutputStream(new BufferedOutputStream(out));
        JournalWriter journal = null;
        InputPipeline p;
        try {
            journal = JournalWriter.create(dir.resolve(JOURNAL), sim.failurePolicy(), durability);
            p = pipeline.recorder(journal).build();
        } catch (IOException | RuntimeException e) {
            // nothing will write the hash log or the journal: close them rather than leave their handles open
            if (journal != null) {
                try {
                    journal.abandon();
                } catch (IOException | RuntimeException suppressed) {
                    e.addSuppressed(suppressed);
                }
            }
            try {
                columns.close();
            } catch (IOException suppressed) {
                e.addSuppressed(suppressed);
            }
            throw e;
        }
        RunRecorder rec = new RunRecorder(sim, p, columns);
        sim.inputs(p);
        sim.recordedPolicy = sim.failurePolicy(); // the journal's header notes it; a replay runs under it
        Simulation.HashListener chained = rec.listenerBefore;
        sim.hashListener(chained == null ? rec::logColumns : (t, h, w) -> {
            rec.logColumns(t, h, w);
            chained.hashed(t, h, w);
        });
        return rec;
    }

    /**
     * Writes {@code bytes} to {@code dir/name} so that the file is either absent or complete,
     * whenever the process dies: into {@code name.tmp} first (one a crash left behind is
     * overwritten), then renamed. With {@code force} the file is forced to the device before
     * the rename and the folder after it (the journal is worthless after a power loss without
     * its snapshot).
     */
    static void writeAtomically(Path dir, String name, byte[] bytes, boolean force) throws IOException {
        Path tmp = dir.resolve(name + ".tmp");
        try (FileChannel ch = FileChannel.open(tmp, StandardOpenOption.CREATE,
                StandardOpenOption.TRUNCATE_EXISTING, StandardOpenOption.WRITE)) {
            ByteBuffer buffer = ByteBuffer.wrap(bytes);
            while (buffer.hasRemaining()) {
                ch.write(buffer);
            }
            if (force) {
                ch.force(true);
            }
        }
        try {
            Files.move(tmp, dir.resolve(name), StandardCopyOption.ATOMIC_MOVE);
        } catch (IOException e) {
            Files.deleteIfExists(tmp);
            throw e;
        }
        if (force) {
            try (FileChannel folder = FileChannel.open(dir,
                    StandardOpenOption.READ)) {
                folder.force(true); // the rename itself, durable
            } catch (IOException | UnsupportedOperationException notOnThisSystem) {
                // some systems (Windows) cannot open a folder; the rename is as durable as they make it
            }
        }
    }

    private void logColumns(long tick, long hash, World world) {
        long[] h = EcsInternals.columnHashes(world, columnHashes); // the world's kept hashers: no allocation once warm
        columnHashes = h;
        try {
            columns.writeLong(tick);
            columns.writeInt(h.length);
            for (long v : h) {
                columns.writeLong(v);
            }
        } catch (IOException e) {
            throw new UncheckedIOException("writing per-component hashes of tick " + tick + " failed", e);
        }
    }

    /**
     * Where inputs are published while recording.
     *
     * @return the recording's pipeline, the one the simulation reads until {@link #close()}
     */
    public InputPipeline inputs() {
        return pipeline;
    }

    /**
     * Closes the journal (writing its end record) and the hash log, and hands the simulation
     * back to the input source and hash listener it had before {@link #start} (unless another
     * source was put meanwhile), so it can go on ticking unrecorded. Idempotent: a second call
     * does nothing, so it leaves a recorder started after the first call recording.
     *
     * <p>For a simulation on a {@code WorldHost}, close it inside {@code hostedWorld.call}, or
     * once the world left the host (after {@code remove()} or {@code done()} completed and
     * {@code bindTickThread()}, or after the host's {@code close()}), on the thread that took it
     * back; the host never closes it, and
     * its journal thread runs until this is called. Closed after its simulation, it still ends
     * the recording cleanly.
     *
     * <p><b>Threading:</b> the simulation's tick thread, between ticks; or any thread once the
     * tick thread has terminated: {@code sim.stop(); loop.join(); recorder.close();
     * sim.close();} (the two closes in either order) needs no {@code bindTickThread()}. The
     * loop thread's end happens-before the {@code isAlive()} that sees it ended (JLS 17.4.4), so
     * this thread takes the simulation over as {@code Simulation.bindTickThread()} would, and
     * the recording's pipeline with it. A tick thread that lives on (a pool's, idle after
     * {@code Future.get}) may tick again: close on it, or call {@code bindTickThread()} here
     * first once it has stopped ticking.
     *
     * @throws IllegalStateException if a {@code WorldHost} holds the simulation and this is not
     *     its tick thread's turn, or if the simulation is open and this is not its tick thread
     *     (bound by its first tick or {@code bindTickThread()}) while that thread is alive,
     *     naming the threads and the fix; the recorder is left recording, so the close that
     *     comes from the right thread ends it
     */
    @Override
    public void close() throws IOException {
        if (closed) {
            return;
        }
        // before anything changes: a refused close must leave the recorder whole, to be closed later
        sim.requireNotHosted("RunRecorder.close()");
        sim.requireTickThreadWhileOpen("RunRecorder.close()", "closing swaps the input source and hash listener "
                + "that its ticks read on plain memory; stop() the run and close the recorder on the tick thread "
                + "after run() returns, or stop() it and join() that thread before closing here (a tick thread that "
                + "has terminated hands the simulation over); a thread that lives on (a pool's) hands it over with "
                + "bindTickThread() on this one once it has stopped ticking (nothing was changed: the recorder still "
                + "records)");
        closed = true;
        sim.recordedPolicy = null;
        sim.hashListener(listenerBefore);
        if (sim.inputSource() == pipeline) {
            sim.inputs(before);
        }
        try {
            pipeline.close();
        } finally {
            columns.close();
        }
    }
}
