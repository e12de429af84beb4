package dev.orrery.demo.run;

import dev.orrery.demo.net.ServerConfig;
import dev.orrery.engine.Durability;
import java.net.InetAddress;
import java.nio.file.Path;

/**
 * What one run of the demo does; the command line's options, checked.
 *
 * @param agents  starting agents
 * @param teams   teams
 * @param ticks   ticks to run, 0 = until stopped (ignored by a replay, which runs the recording's ticks)
 * @param threads worker threads, counting the tick thread
 * @param seed    random seed
 * @param rate    ticks per second, 0 = as fast as possible
 * @param warmup  first ticks left out of the summary's tick-time figures (JIT warm-up) and
 *                reported apart; they still run and count. {@link #DEFAULT_WARMUP} unless asked;
 *                {@link #REPLAY_DEFAULT_WARMUP} for a replay's default (at most half the recording's ticks)
 * @param port    TCP port of the command server, 0 = ephemeral, -1 = no server
 * @param bind    address the server listens on
 * @param record  folder to record the run into, or null
 * @param replay  folder of a recording to replay instead of a live run, or null
 * @param trace   file to write a Chrome trace of a few ticks to, or null
 * @param dot     file to write the schedule graph (DOT) to, or null
 * @param quiet   no progress lines (the summary line is always printed)
 * @param limits  the server's limits (its address and port come from {@code bind} and {@code port})
 * @param maxEntities the world's entity cap: a client {@code SPAWN} that could pass it is refused
 *                {@code QUOTA}; 0 = the default, {@link #defaultMaxEntities} of {@code agents}
 * @param fsync   how often a recording's journal is forced to the device ({@code --fsync})
 * @param watchdogSteps report a tick still running after this many steps ({@code --watchdog}); 0 = off
 * @param explorePort the live explorer's HTTP port on 127.0.0.1 ({@code --explore}), 0 = ephemeral, -1 = none
 * @param exploreEdits whether the explorer's page may edit fields ({@code --explore-edits}); its edits are inputs
 * @param tickDeadlineSteps fail a tick still waiting for a worker's job after this many steps
 *                ({@code --tick-deadline}; the failure policy then skips or stops it); 0 = none
 */
public record RunOptions(int agents, int teams, long ticks, int threads, long seed, double rate, long warmup, int port,
        InetAddress bind, Path record, Path replay, Path trace, Path dot, boolean quiet, ServerConfig limits,
        long maxEntities, Durability fsync, double watchdogSteps, int explorePort, boolean exploreEdits,
        double tickDeadlineSteps) {

    /** The options with no tick deadline. */
    public RunOptions(int agents, int teams, long ticks, int threads, long seed, double rate, long warmup, int port,
            InetAddress bind, Path record, Path replay, Path trace, Path dot, boolean quiet, ServerConfig limits,
            long maxEntities, Durability fsync, double watchdogSteps, int explorePort, boolean exploreEdits) {
        this(agents, teams, ticks, threads, seed, rate, warmup, port, bind, record, replay, trace, dot, quiet, limits,
                maxEntities, fsync, watchdogSteps, explorePort, exploreEdits, 0);
    }

    /** The options without the explorer. */
    public RunOptions(int agents, int teams, long ticks, int threads, long seed, double rate, long warmup, int port,
            InetAddress bind, Path record, Path replay, Path trace, Path dot, boolean quiet, ServerConfig limits,
            long maxEntities, Durability fsync, double watchdogSteps) {
        this(agents, teams, ticks, threads, seed, rate, warmup, port, bind, record, replay, trace, dot, quiet, limits,
                maxEntities, fsync, watchdogSteps, -1, false);
    }

    /** These options with the explorer on port {@code port} (0 = ephemeral), edits on or off. */
    public RunOptions withExplorer(int port, boolean edits) {
        return new RunOptions(agents, teams, ticks, threads, seed, rate, warmup, this.port, bind, record, replay, trace,
                dot, quiet, limits, maxEntities, fsync, watchdogSteps, port, edits, tickDeadlineSteps);
    }

    /** These options with a tick deadline of {@code steps} time steps (0 = none; see {@code --tick-deadline}). */
    public RunOptions withTickDeadline(double steps) {
        return new RunOptions(agents, teams, ticks, threads, seed, rate, warmup, port, bind, record, replay, trace,
                dot, quiet, limits, maxEntities, fsync, watchdogSteps, explorePort, exploreEdits, steps);
    }

    /**
     * The time step the arena runs at (the engine's default, 60 ticks a second), in seconds: the
     * step {@code --watchdog} and {@code --tick-deadline} count in.
     */
    static final double STEP_SECONDS = 1.0 / 60.0;

    /** The default of {@code --watchdog}: a tick still running after 10 steps (167 ms at 60 Hz) is reported. */
    public static final double DEFAULT_WATCHDOG_STEPS = 10;

    /** The options with the server's default limits and the default entity cap. */
    public RunOptions(int agents, int teams, long ticks, int threads, long seed, double rate, long warmup, int port,
            InetAddress bind, Path record, Path replay, Path trace, Path dot, boolean quiet) {
        this(agents, teams, ticks, threads, seed, rate, warmup, port, bind, record, replay, trace, dot, quiet,
                ServerConfig.defaults(), 0);
    }

    /** The options with the default durability ({@code --fsync=interval}, 1 s) and watchdog (10 steps). */
    public RunOptions(int agents, int teams, long ticks, int threads, long seed, double rate, long warmup, int port,
            InetAddress bind, Path record, Path replay, Path trace, Path dot, boolean quiet, ServerConfig limits,
            long maxEntities) {
        this(agents, teams, ticks, threads, seed, rate, warmup, port, bind, record, replay, trace, dot, quiet, limits,
                maxEntities, Durability.interval(Durability.DEFAULT_INTERVAL), DEFAULT_WATCHDOG_STEPS);
    }

    /**
     * Whether {@code steps} is positive but reads as 0 ns at {@link #STEP_SECONDS}, as the engine
     * reads a watchdog limit or a tick deadline (which it refuses then): checked here first, so
     * the line names the option and nothing has run ({@code EngineRefusedFlagsTest} keeps the two
     * rules the same).
     */
    private static boolean underANanosecond(double steps) {
        return steps > 0 && (long) (steps * STEP_SECONDS * 1e9) == 0;
    }

    /** The warm-up ticks of a run that does not say: two seconds at 60 ticks a second. */
    public static final long DEFAULT_WARMUP = 120;

    /**
     * The {@code warmup} of a replay that was given no {@code --warmup}: {@link #defaultWarmup} of
     * the recording's ticks, which only the replay reads.
     */
    public static final long REPLAY_DEFAULT_WARMUP = -1;

    /** The default warm-up for a run of {@code ticks} (0 = until stopped): at most half the run. */
    public static long defaultWarmup(long ticks) {
        return ticks == 0 ? DEFAULT_WARMUP : Math.min(DEFAULT_WARMUP, ticks / 2);
    }

    /** The default entity cap: room for the starting agents twice over, plus 100 000. */
    public static long defaultMaxEntities(int agents) {
        return 2L * agents + 100_000;
    }

    /** The entity cap this run enforces: {@link #maxEntities} or its default. */
    public long entityCap() {
        return maxEntities == 0 ? defaultMaxEntities(agents) : maxEntities;
    }

    /** Checks the values; each message names the option and its range. */
    public RunOptions {
        if (agents < 1 || agents > 10_000_000) {
            throw new IllegalArgumentException("--agents must be 1 to 10000000; got " + agents);
        }
        if (teams < 2 || teams > 8) {
            throw new IllegalArgumentException("--teams must be 2 to 8; got " + teams);
        }
        if (ticks < 0) {
            throw new IllegalArgumentException("--ticks must be 0 (until stopped) or more; got " + ticks);
        }
        if (threads < 1 || threads > 256) {
            throw new IllegalArgumentException("--threads must be 1 to 256; got " + threads);
        }
        if (!(rate >= 0) || rate > 10_000) {
            throw new IllegalArgumentException("--rate must be 0 (as fast as possible) to 10000 ticks/s; got " + rate);
        }
        if (warmup < 0 && !(warmup == REPLAY_DEFAULT_WARMUP && replay != null)) {
            throw new IllegalArgumentException("--warmup must be 0 or more ticks; got " + warmup);
        }
        if (port < -1 || port > 65_535) {
            throw new IllegalArgumentException("--port must be 0 (ephemeral) to 65535; got " + port);
        }
        if (record != null && replay != null) {
            throw new IllegalArgumentException("--record and --replay cannot be used together; replay a recording, "
                    + "then record a new run");
        }
        java.util.Objects.requireNonNull(limits, "limits");
        java.util.Objects.requireNonNull(fsync, "fsync");
        if (!(watchdogSteps >= 0) || watchdogSteps == Double.POSITIVE_INFINITY) {
            throw new IllegalArgumentException("--watchdog must be 0 (off) or a positive number of steps; got "
                    + watchdogSteps);
        }
        if (underANanosecond(watchdogSteps)) {
            throw new IllegalArgumentException("--watchdog " + watchdogSteps + " is less than a nanosecond at 60 ticks "
                    + "a second, which would report every tick as an overrun; give it in steps, such as --watchdog 10 "
                    + "(the default, 167 ms), or --watchdog 0 to turn it off");
        }
        if (!(tickDeadlineSteps >= 0) || tickDeadlineSteps == Double.POSITIVE_INFINITY) {
            throw new IllegalArgumentException("--tick-deadline must be 0 (none) or a positive number of steps; got "
                    + tickDeadlineSteps);
        }
        if (underANanosecond(tickDeadlineSteps)) {
            throw new IllegalArgumentException("--tick-deadline " + tickDeadlineSteps + " is less than a nanosecond at 60 "
                    + "ticks a second, which would mean no deadline at all; give it in steps, well above --watchdog, "
                    + "such as --tick-deadline 600 (ten seconds), or --tick-deadline 0 for none");
        }
        if (maxEntities < 0 || maxEntities > 0 && maxEntities < agents) {
            throw new IllegalArgumentException("--max-entities must be 0 (the default, 2 x --agents + 100000) or at least "
                    + "--agents (" + agents + "); got " + maxEntities);
        }
        if (explorePort < -1 || explorePort > 65_535) {
            throw new IllegalArgumentException("--explore must be 0 (ephemeral) to 65535; got " + explorePort);
        }
        if (exploreEdits && (explorePort < 0 || replay != null)) {
            throw new IllegalArgumentException("--explore-edits needs --explore PORT and a live run (a replay takes no "
                    + "inputs)");
        }
        if (replay != null && port >= 0) {
            throw new IllegalArgumentException("--replay runs without clients; drop --port");
        }
    }
}
