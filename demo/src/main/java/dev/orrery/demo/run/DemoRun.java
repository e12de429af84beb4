package dev.orrery.demo.run;

import dev.orrery.demo.arena.Arena;
import dev.orrery.demo.arena.ArenaConfig;
import dev.orrery.demo.arena.ArenaExplorer;
import dev.orrery.demo.arena.InputCodec;
import dev.orrery.demo.net.ClientReplies;
import dev.orrery.demo.net.CommandServer;
import dev.orrery.demo.net.ServerConfig;
import dev.orrery.ecs.SnapshotException;
import dev.orrery.engine.ChromeTrace;
import dev.orrery.engine.FailurePolicy;
import dev.orrery.engine.InputPipeline;
import dev.orrery.engine.JournalInputSource;
import dev.orrery.engine.RunRecorder;
import dev.orrery.engine.RunReplayer;
import dev.orrery.engine.Simulation;
import dev.orrery.engine.journal.JournalReader;
import dev.orrery.engine.journal.JournalRecordKind;
import dev.orrery.explorer.Explorer;
import dev.orrery.explorer.ExplorerOptions;
import dev.orrery.explorer.Timeline;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Objects;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

/**
 * One run of the demo: a live arena (optionally serving clients and recording), or the
 * replay of a recording. Prints a progress line per second and returns the
 * {@link RunResult} whose {@link RunResult#summaryLine()} the command line prints last.
 *
 * <p>A live run: build the arena and spawn its agents; start the input pipeline (through a
 * {@link RunRecorder} when recording, which first writes the starting snapshot); start the
 * {@link CommandServer} if a port was given; then tick at the rate asked. After every tick
 * the tick thread answers waiting {@code GET}s; once a second it pushes a {@code STATE} line
 * to clients and prints progress. A recording folder also gets {@value #PARAMETERS}, the
 * arena's size, teams and seed, so {@code --replay} can build the same arena.
 *
 * <p><b>Threading:</b> {@link #run()} runs on the calling thread, which becomes the tick
 * thread, and returns when the run ends. {@link #stop()}, {@link #awaitStarted} and
 * {@link #port()} may be called from any thread.
 */
public final class DemoRun {
    /** The arena parameters file in a recording folder. */
    public static final String PARAMETERS = RecordingParameters.FILE;
    /** Hash the world this often while recording, so a replay checks it along the way. */
    public static final int RECORD_HASH_EVERY = 60;
    private static final long SECOND = 1_000_000_000L;
    private static final int TRACE_TICKS = 5;

    private final RunOptions options;
    private final PrintStream out;
    private final CountDownLatch started = new CountDownLatch(1);
    private volatile Simulation sim;
    // not redundant with Simulation.stop(): a stop may come before sim is published, and the replay ticks by
    // tick() to the journal's end and then idles the explorer, where no run() is in progress to read that request
    private volatile boolean stopRequested;
    private volatile boolean recording;
    private volatile int port = -1;
    private volatile int explorerPort = -1;

    /** A run with these options, printing to {@code out}. */
    public DemoRun(RunOptions options, PrintStream out) {
        this.options = Objects.requireNonNull(options, "options");
        this.out = Objects.requireNonNull(out, "out");
    }

    /** Asks the run to end after the tick in progress (it still prints its summary). Any thread. */
    public void stop() {
        stopRequested = true;
        Simulation s = sim;
        if (s != null) {
            s.stop();
        }
    }

    /** Waits until the run is ticking (and its server, if any, listening); false on time-out. */
    public boolean awaitStarted(long timeout, TimeUnit unit) throws InterruptedException {
        return started.await(timeout, unit);
    }

    /** The server's port once started, or -1 without a server. */
    public int port() {
        return port;
    }

    /**
     * Whether this run has begun writing its {@code --record} folder, and so leaves a recording
     * behind if the JVM exits before the run ends: false in a run that does not record, in a
     * replay, and before the recording's first file is written (while the agents are
     * populated). Set on the tick thread; any thread may read it.
     */
    public boolean recording() {
        return recording;
    }

    /** The explorer's port once started, or -1 without one. */
    public int explorerPort() {
        return explorerPort;
    }

    /** Runs to the end. */
    public RunResult run() throws IOException {
        try {
            return options.replay() != null ? replay() : live();
        } finally {
            started.countDown();
        }
    }

    private RunResult live() throws IOException {
        ArenaConfig config = new ArenaConfig(options.agents(), options.teams(), options.seed());
        Arena arena = new Arena(config);
        arena.populate();
        boolean recording = options.record() != null;
        TickStats stats = new TickStats();
        long[] ticksRun = {0};
        try (Simulation s = arena.build(options.threads(), recording ? RECORD_HASH_EVERY : 0)) {
            writeDot(s);
            guard(s);
            s.onSystemFailure(FailurePolicy.SKIP_TICK); // a client must not be able to stop the server
            InputPipeline.Builder pipe = InputPipeline.builder().ringSize(8192).maxPayloadBytes(InputCodec.MAX_PAYLOAD)
                    .maxInputsPerTick(4096);
            RunRecorder recorder = null;
            InputPipeline inputs;
            if (recording) {
                recorder = startRecording(s, config, pipe);
                inputs = recorder.inputs();
            } else {
                inputs = pipe.build();
                s.inputs(inputs);
            }
            CommandInputs sink = new CommandInputs(inputs, arena.writes(), s.world().entityCount(), options.entityCap());
            CommandServer server = null;
            Explorer explorer = null;
            try {
                if (options.port() >= 0) {
                    server = CommandServer.start(options.limits().withBindAddress(options.bind())
                            .withPort(options.port()), sink);
                    port = server.port();
                    arena.replies(server);
                    out.println("server: listening on " + server.address().getAddress().getHostAddress() + ":"
                            + server.port() + " (protocol: demo/PROTOCOL.md)");
                    ServerConfig c = server.config();
                    out.println("server: limits max_connections=" + c.maxConnections() + " per_address="
                            + c.maxConnectionsPerAddress() + " hello_timeout=" + c.helloTimeout().toMillis() + "ms"
                            + " idle_timeout=" + c.idleTimeout().toMillis() + "ms client_rate=" + c.clientRate()
                            + "/s client_burst=" + c.clientBurst() + " max_spawn=" + c.maxSpawnCount() + " spawn_budget="
                            + c.spawnBudget() + " max_entities=" + options.entityCap());
                }
                out.println("arena: agents=" + config.agents() + " teams=" + config.teams() + " side="
                        + (int) config.side() + " threads=" + options.threads() + " seed=" + options.seed() + " rate="
                        + (options.rate() == 0 ? "max" : options.rate() + "/s")
                        + (recording ? " recording=" + options.record() + " fsync=" + options.fsync() : ""));
                ClientReplies replies = server != null ? server : ClientReplies.discarding();
                if (options.explorePort() >= 0) {
                    ArenaExplorer view = new ArenaExplorer(arena, inputs, s::currentTick);
                    arena.replies(view.replies(replies));
                    explorer = explore(s, view, options.exploreEdits(), recording ? timeline(options.record(), config)
                            : null);
                }
                CommandServer srv = server;
                Progress progress = new Progress(s, arena, stats, sink);
                Tracing tracing = new Tracing(s, options.warmup());
                sim = s;
                started.countDown();
                if (!stopRequested) {
                    long first = s.currentTick();
                    s.run(options.ticks(), options.rate(), (tick, nanos) -> {
                        ticksRun[0]++;
                        if (tick - first >= options.warmup()) {
                            stats.record(nanos);
                        } else {
                            stats.recordWarmup(nanos);
                        }
                        tracing.after(tick);
                        sink.ticked(s.world().entityCount(), arena.stats().spawnedByClients());
                        sink.answerGets(arena, replies);
                        if (progress.due()) {
                            if (srv != null) {
                                srv.broadcastState(tick, s.world().entityCount(), arena.summary());
                            }
                            progress.print();
                        }
                    });
                }
                tracing.finish();
                if (srv != null) {
                    out.println("server: " + srv.counters().line());
                }
            } finally {
                if (explorer != null) {
                    explorer.close();
                }
                if (server != null) {
                    server.close();
                }
                if (recorder != null) {
                    recorder.close();
                } else {
                    inputs.close();
                }
            }
            return result(ticksRun[0], s, stats);
        }
    }

    /** {@code --record}: the parameters, then the recorder; a folder that cannot be written is named with the option. */
    private RunRecorder startRecording(Simulation s, ArenaConfig config, InputPipeline.Builder pipe)
            throws IOException {
        Path dir = options.record();
        recording = true; // from its first file on, a stop that cuts the run short leaves the folder as a crash does
        try {
            RecordingParameters.write(dir, config);
            return RunRecorder.start(s, dir, pipe, options.fsync());
        } catch (java.nio.file.FileSystemException e) {
            throw RecordingFolder.cannotRecord(dir, e);
        }
    }

    private RunResult replay() throws IOException {
        Path dir = options.replay();
        RecordingFolder.check(dir);
        ArenaConfig config = RecordingParameters.read(dir);
        Arena arena = new Arena(config);
        TickStats stats = new TickStats();
        try (Simulation s = arena.build(options.threads(), RECORD_HASH_EVERY);
             JournalInputSource source = JournalInputSource.openAllowingCut(dir.resolve(RunRecorder.JOURNAL))) {
            writeDot(s);
            guard(s);
            s.onSystemFailure(source.failurePolicy()); // as recorded, so the same ticks are skipped
            Path snapshot = dir.resolve(RunRecorder.SNAPSHOT);
            byte[] start = RunReplayer.startSnapshot(dir);
            try {
                RecordingParameters.checkSeed(dir.resolve(PARAMETERS).toString(), config, snapshot.toString(),
                        Simulation.snapshotSeed(start));
                s.restore(start);
            } catch (SnapshotException e) {
                throw new SnapshotException(snapshot + ": " + e.getMessage(), e);
            }
            RecordingParameters.checkAgainst(dir.resolve(PARAMETERS).toString(), config, snapshot.toString(),
                    s.resources().get(Arena.CONFIG));
            out.println("replay: " + dir + " agents=" + config.agents() + " teams=" + config.teams() + " seed="
                    + config.seed() + " threads=" + options.threads() + " from tick " + s.currentTick());
            if (source.hasNextTick() && source.nextTick() != s.currentTick()) {
                throw new IOException("journal in " + dir + " starts at tick " + source.nextTick()
                        + " but its snapshot is at tick " + s.currentTick() + "; the folder mixes two recordings");
            }
            s.inputs(source);
            Explorer explorer = options.explorePort() >= 0
                    ? explore(s, new ArenaExplorer(arena, null, s::currentTick), false, timeline(dir, config)) : null;
            sim = s;
            started.countDown();
            Progress progress = new Progress(s, arena, stats, null);
            // The default warm-up (half the recording, at most DEFAULT_WARMUP) is needed before the
            // first tick: each tick's time goes to the warm-up or to the summary as it runs, and the
            // trace starts at a tick chosen from it (Tracing). The source reads one tick ahead only,
            // so the journal's length is counted first, as far as it can change the warm-up.
            long warmup = options.warmup() == RunOptions.REPLAY_DEFAULT_WARMUP
                    ? RunOptions.defaultWarmup(Math.max(1, recordedTicks(dir.resolve(RunRecorder.JOURNAL),
                            2 * RunOptions.DEFAULT_WARMUP)))
                    : options.warmup();
            Tracing tracing = new Tracing(s, warmup);
            long ticksRun = 0;
            boolean replayedAll; // not stopped before the journal's end (a page left open afterwards does not count)
            try {
                while (source.hasNextTick() && !stopRequested) {
                    long t0 = System.nanoTime();
                    long tick = s.tick();
                    if (ticksRun++ >= warmup) {
                        stats.record(System.nanoTime() - t0);
                    } else {
                        stats.recordWarmup(System.nanoTime() - t0);
                    }
                    tracing.after(tick);
                    if (progress.due()) {
                        progress.print();
                    }
                }
                tracing.finish();
                replayedAll = !stopRequested;
                if (replayedAll) {
                    source.finish();
                }
                if (explorer != null && !stopRequested) {
                    // the replay is over; the page stays live, its timeline over the whole recording, until stopped
                    out.println("replay: done after tick " + (s.currentTick() - 1) + "; the explorer still serves "
                            + explorer.url() + " (its timeline spans the recording); stop with Ctrl-C for the summary");
                    while (!stopRequested) {
                        explorer.idle(java.time.Duration.ofMillis(200));
                    }
                }
            } finally { // a replay that diverges still lets go of the explorer's port, as the live run does
                if (explorer != null) {
                    explorer.close();
                }
            }
            out.println("replay: " + source.hashesChecked() + " recorded hashes matched"
                    + (s.skippedTicks() > 0 ? ", " + s.skippedTicks() + " skipped ticks matched" : ""));
            RunResult result = result(ticksRun, s, stats);
            if (replayedAll && !source.closedCleanly()) {
                throw new RecordingCutException("recording ends at tick " + s.currentTick()
                        + " without a clean close; replayed " + ticksRun + " ticks, " + source.hashesChecked()
                        + " recorded hashes matched", result);
            }
            return result;
        }
    }

    /**
     * The complete ticks the journal at {@code journal} holds (up to a cut), counted no further
     * than {@code enough} (a longer journal is not read to its end), for the default warm-up of
     * its replay; 0 when it cannot be read, which the replay itself then reports.
     */
    private static long recordedTicks(Path journal, long enough) {
        try (JournalReader r = JournalReader.openAllowingCut(journal)) {
            long ticks = 0;
            while (ticks < enough && r.nextRecord()) {
                if (r.kind() == JournalRecordKind.TICK_END) {
                    ticks++;
                }
            }
            return ticks;
        } catch (IOException | RuntimeException e) {
            return 0;
        }
    }

    /**
     * Attaches the live explorer on 127.0.0.1 (edits handed to {@code view} when on, a timeline
     * over the recording when there is one) and says where.
     */
    private Explorer explore(Simulation s, ArenaExplorer view, boolean edits, Timeline timeline) throws IOException {
        ExplorerOptions o = ExplorerOptions.loopback(options.explorePort()).withMap(view).withEdits(edits ? view : null)
                .withTimeline(timeline);
        Explorer explorer;
        try {
            explorer = Explorer.attach(s, o);
        } catch (IOException e) {
            throw new IOException("--explore " + options.explorePort() + ": cannot serve the explorer on 127.0.0.1:"
                    + options.explorePort() + " (" + e.getMessage() + "); pick a free port, or 0 to let the system "
                    + "pick one", e);
        }
        explorerPort = explorer.port();
        out.println("explorer: " + explorer.url() + " (edits " + (edits ? "on: each is a client SET, journaled when "
                + "recording" : "off") + (timeline != null ? "; timeline over " + timeline.folder() : "") + ")");
        return explorer;
    }

    /**
     * The explorer's timeline over the recording in {@code dir}: it replays in arenas built as
     * this run's, on one worker (the live run keeps the others).
     */
    private static Timeline timeline(Path dir, ArenaConfig config) {
        return Timeline.ofRecording(dir, () -> new Arena(config).build(1, RECORD_HASH_EVERY));
    }

    /**
     * Reports a skipped tick (the first failure of each system, then only counts) and a tick
     * that overran the watchdog, as progress lines.
     */
    private void guard(Simulation s) {
        s.failureListener((tick, failure, first) -> {
            if (first) {
                out.println("skipped: tick=" + tick + " " + failure.getMessage()
                        + " (later failures of system '" + failure.system() + "' are only counted)");
            }
        });
        s.tickDeadline(options.tickDeadlineSteps());
        s.watchdog(options.watchdogSteps(), (tick, elapsed, system, job) -> out.println("watchdog: tick=" + tick
                + " running " + elapsed / 1_000_000 + " ms" + (system.isEmpty() ? "" : " in system '" + system + "'")
                + ", " + job));
    }

    /**
     * A replay of a recording that was not closed cleanly: every complete tick was replayed
     * and every recorded hash matched; the command line prints the message as its one error
     * line and exits with {@code Main.EXIT_RECORDING_CUT}.
     */
    public static final class RecordingCutException extends IOException {
        private static final long serialVersionUID = 1L;
        private final transient RunResult result;

        RecordingCutException(String message, RunResult result) {
            super(message);
            this.result = result;
        }

        /** What the replay of the complete ticks gave. */
        public RunResult result() {
            return result;
        }
    }

    /** Prints the warm-up figures apart, then returns the summary of the steady state. */
    private RunResult result(long ticks, Simulation s, TickStats stats) {
        if (stats.warmupCount() > 0) {
            boolean allWarmup = stats.count() == 0;
            out.println("warmup: " + stats.warmupFigures() + (allWarmup
                    ? " (the run ended within its warm-up, so the summary's figures include it)"
                    : " (left out of the summary's figures; --warmup sets how many ticks)"));
            if (allWarmup) {
                stats.foldWarmupIn();
            }
        }
        return new RunResult(ticks, s.world().entityCount(), stats.totalMillis(50), stats.totalMillis(99),
                stats.totalMaxMillis(), s.world().stateHash());
    }

    private void writeDot(Simulation s) throws IOException {
        if (options.dot() != null) {
            Files.writeString(options.dot(), s.schedule().toDot(), StandardCharsets.UTF_8);
            out.println("dot: schedule graph written to " + options.dot());
        }
    }

    /** Prints one progress line a second. Tick thread. */
    private final class Progress {
        private final Simulation s;
        private final Arena arena;
        private final TickStats stats;
        private final CommandInputs sink;
        private long lastPrint = System.nanoTime();
        private long lastAccepted;

        Progress(Simulation s, Arena arena, TickStats stats, CommandInputs sink) {
            this.s = s;
            this.arena = arena;
            this.stats = stats;
            this.sink = sink;
        }

        boolean due() {
            return System.nanoTime() - lastPrint >= SECOND;
        }

        void print() {
            long now = System.nanoTime();
            long accepted = sink == null ? 0 : sink.acceptedCount();
            double perSecond = (accepted - lastAccepted) * 1e9 / Math.max(1, now - lastPrint);
            lastAccepted = accepted;
            lastPrint = now;
            if (!options.quiet()) {
                out.printf(java.util.Locale.ROOT, "tick=%d entities=%d agents=%d inputs_per_s=%.0f %s%n",
                        s.currentTick(), s.world().entityCount(), arena.agentCount(), perSecond, stats.takeInterval());
            } else {
                stats.takeInterval();
            }
        }
    }

    /**
     * Traces {@value #TRACE_TICKS} ticks once the JIT has warmed up: from tick 60 or the end of
     * {@code --warmup}, whichever is later, but no later than half the run. Tick thread.
     */
    private final class Tracing {
        private final Simulation s;
        private final ChromeTrace trace;
        private final long from;

        Tracing(Simulation s, long warmup) {
            this.s = s;
            this.trace = options.trace() == null ? null : s.newTrace(4096);
            long ticks = options.replay() != null || options.ticks() == 0 ? 0 : options.ticks();
            long settled = Math.max(60, warmup);
            long start = ticks == 0 ? settled : Math.min(settled, ticks / 2);
            this.from = s.currentTick() + start;
            if (trace != null && start == 0) {
                s.trace(trace);
            }
        }

        void after(long tick) {
            if (trace == null) {
                return;
            }
            if (tick + 1 == from) {
                s.trace(trace);
            } else if (tick + 1 == from + TRACE_TICKS) {
                s.trace(null);
            }
        }

        void finish() throws IOException {
            if (trace != null) {
                s.trace(null);
                trace.write(options.trace());
                out.println("trace: " + trace.jobCount() + " jobs of up to " + TRACE_TICKS + " ticks written to "
                        + options.trace() + " (open in chrome://tracing or ui.perfetto.dev)");
            }
        }
    }
}
