package dev.orrery.testkit;

import dev.orrery.engine.RunRecorder;
import dev.orrery.engine.journal.JournalReader;
import dev.orrery.engine.journal.JournalTick;
import java.io.BufferedInputStream;
import java.io.DataInputStream;
import java.io.EOFException;
import java.io.IOException;
import java.io.InputStream;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Compares two recordings of a game (from two machines, or from two versions of the game)
 * from the command line: the first tick whose inputs differ, the first tick one skipped and the
 * other ran, or both skipped for different systems ({@code FailurePolicy.SKIP_TICK}; the journals
 * keep the system's name, not what it threw; a cut journal's last tick may have lost its note),
 * the first tick whose state hash differs, the first system after which the worlds differ and
 * the components whose values differ at that tick, and, given the game's code, the entities and fields and the resources
 * with a codec that differ at the end of the recordings (by name; without the game too, as the bytes each codec
 * wrote). The hashes after each system cover
 * the world only, so for a resource that differs the system named may be a later one than the
 * writer (the first to carry it into the world); the output says so.
 *
 * <pre>
 * java -cp examples/target/orrery-examples.jar:my-game.jar dev.orrery.testkit.CompareRecordings [--game CLASS] run-a run-b
 * </pre>
 *
 * <p>The system and the component names come from the {@code systems.hashes} file that
 * {@link GoldenRecording#record} writes; a plain {@link RunRecorder} folder gives the tick and
 * the components by number. {@code --game} names a class on the class path that implements
 * {@link SimulationFactory} with a public no-argument constructor: with it, the two
 * recordings' end snapshots ({@code end.snapshot}) are restored into the game and compared
 * entity by entity and field by field. The recordings hold the resources at their end only:
 * where they end on different ticks, one holds no end snapshot (a plain {@link RunRecorder}
 * folder) or one cannot be read, a line says the resources were not compared, and why (for a
 * file that cannot be read, which, what the reader said, and what to do).
 *
 * <p>The recordings hold the world's hash after each system and after each sync point that
 * applied commands, naming the systems that recorded them, so a difference in the commands a
 * system recorded (applied at a later sync point, or in an observer hook they fired) is laid
 * at that system, with or without the game, even when only one version of the game recorded
 * them. Recordings from an older kit (format {@code ORRSYSH1}) hold no hash after a sync
 * point: for them the system is named from a diagnostic re-run, each recording re-run with
 * the game on one worker from its start snapshot with its inputs, hashing the world after
 * each system and after each sync point, as {@link DeterminismCheck} and
 * {@link GoldenRecording} do.
 *
 * <p>Exit status 0 when the recordings agree on every tick both hold, 1 when they differ, 2 on
 * a usage error (a {@code --game} class whose {@code create} returns null, a simulation on
 * another worker count than the 1 it is asked for, or a world it returned before among them) or
 * a file that cannot be read (one line, no stack trace); 2 too, the report printed and one line
 * on standard error, where no tick both recordings hold has a state hash (a game built with
 * {@code hashEvery(0)} journals none) and nothing else tells them apart: their states were not
 * compared, so they are not called the same.
 */
public final class CompareRecordings {
    private static final String USAGE = "compare-recordings: usage: CompareRecordings [--game CLASS] "
            + "<recording-folder-a> <recording-folder-b>";
    private static final String HELP = """
            Usage: CompareRecordings [--game CLASS] <recording-folder-a> <recording-folder-b>

            Compares two recordings of a game (folders RunRecorder or GoldenRecording.record wrote):
            the first tick whose inputs differ, the first tick skipped by one only or for different
            systems (FailurePolicy.SKIP_TICK), the first tick whose state hash differs, the first
            system after which the worlds differ (systems.hashes, from GoldenRecording.record) and
            the components whose values differ at that tick, and the resources (with a codec) that
            differ in the end snapshots, by name (where the recordings end on different ticks, or
            one holds no end.snapshot or one cannot be read, a line says they were not compared).

              --game CLASS   a SimulationFactory on the class path (public no-argument constructor):
                             the recordings' end snapshots are restored into it and compared entity
                             by entity and field by field, and resources value by value; recordings from an older kit, whose
                             systems.hashes holds no hash after a sync point, are re-run with it on
                             one worker to tell a system from the commands an earlier system recorded
              -h, --help     this text

            Exit status: 0 the recordings agree on every tick both hold, 1 they differ,
            2 a usage error (a --game class whose create returns null, builds on another
            worker count than it is asked for, or returns a world again among them) or a
            file that cannot be read (one line on standard error); 2 also where no tick
            both hold has a state hash (a game built with hashEvery(0)) and nothing else
            differs: the states were not compared.
            """;

    private CompareRecordings() {
    }

    /**
     * Runs the comparison; see the class comment for the arguments and the exit status.
     *
     * @param args the command line, as the class comment's usage gives it
     */
    public static void main(String[] args) {
        System.exit(run(args, System.out, System.err));
    }

    /** The comparison with its output and its exit status, for tests. */
    static int run(String[] args, PrintStream out, PrintStream err) {
        List<String> folders = new ArrayList<>();
        String game = null;
        for (int i = 0; i < args.length; i++) {
            if (args[i].equals("--help") || args[i].equals("-h")) {
                out.print(HELP);
                return 0;
            }
            if (args[i].equals("--game")) {
                if (i + 1 == args.length) {
                    err.println(USAGE + " (--game needs a class name)");
                    return 2;
                }
                game = args[++i];
            } else if (args[i].startsWith("-")) {
                err.println(USAGE + " (unknown option " + args[i] + ")");
                return 2;
            } else {
                folders.add(args[i]);
            }
        }
        if (folders.size() != 2) {
            StringBuilder given = new StringBuilder();
            for (String f : folders) {
                given.append(given.length() == 0 ? "'" : " '").append(f).append('\'');
            }
            err.println("compare-recordings: give two recording folders, not "
                    + (folders.isEmpty() ? "none" : folders.size() + " (" + given + ")") + "; "
                    + USAGE.substring("compare-recordings: ".length()));
            return 2;
        }
        try {
            SimulationFactory factory = game == null ? null : checked(factory(game));
            Recording a = Recording.read(Path.of(folders.get(0)));
            Recording b = Recording.read(Path.of(folders.get(1)));
            return compare(a, b, factory, out, err);
        } catch (IOException | IllegalArgumentException e) {
            err.println("compare-recordings: " + e.getMessage());
            return 2;
        } catch (FactoryRefusedException e) { // the game given is at fault, as for a class that is no factory
            err.println("compare-recordings: --game " + game + ": " + e.getMessage());
            return 2;
        }
    }

    /**
     * The {@code --game} class's factory, every call refused as {@link FactoryCall#checked} refuses it
     * (null, another worker count, a world returned again): the re-runs and the end snapshots.
     */
    private static SimulationFactory checked(SimulationFactory factory) {
        return FactoryCall.checked(factory, "CompareRecordings --game", workers -> "the recordings cannot be re-run or "
                + "their end snapshots restored on 1 worker (the comparison runs the game on 1 worker)", built -> "leave "
                + "--game out (the tick, the system and the components still come from the recordings)");
    }

    private static SimulationFactory factory(String name) {
        Object made;
        try {
            made = Class.forName(name).getDeclaredConstructor().newInstance();
        } catch (ClassNotFoundException e) {
            throw new IllegalArgumentException("--game " + name + ": no such class on the class path; add the game's jar "
                    + "to -cp");
        } catch (ReflectiveOperationException | RuntimeException e) {
            throw new IllegalArgumentException("--game " + name + ": cannot make one with a public no-argument "
                    + "constructor (" + e + ")");
        }
        if (!(made instanceof SimulationFactory f)) {
            throw new IllegalArgumentException("--game " + name + " does not implement " + SimulationFactory.class.getName());
        }
        return f;
    }

    private static int compare(Recording a, Recording b, SimulationFactory game, PrintStream out, PrintStream err) {
        long both = a.hashes.keySet().stream().filter(b.hashes::containsKey).count();
        out.println("recordings:");
        out.println("  a: " + a.describe());
        out.println("  b: " + b.describe());
        if (a.inputs.size() != b.inputs.size()) {
            out.println("note: the recordings hold different numbers of ticks (" + a.inputs.size() + " against "
                    + b.inputs.size() + "); only the ticks both hold are compared");
        }
        long firstInput = -1;
        for (int t = 0; t < Math.min(a.inputs.size(), b.inputs.size()); t++) {
            if (!a.inputs.get(t).equals(b.inputs.get(t))) {
                firstInput = t;
                break;
            }
        }
        long firstHash = -1;
        for (long t : new ArrayList<>(a.hashes.keySet())) {
            Long hb = b.hashes.get(t);
            if (hb != null && !hb.equals(a.hashes.get(t))) {
                firstHash = t;
                break;
            }
        }
        out.println(firstInput < 0 ? "inputs: the same on every tick both hold"
                : "inputs: first differ at tick " + firstInput + " (" + a.inputs.get((int) firstInput) + " against "
                        + b.inputs.get((int) firstInput) + ")");
        SystemHashes.namesDiffer(a.systems, b.systems).ifPresent(out::println);
        long lostA = RunSkips.noteLost(a.journalCut, a.lastTick, a.skips, a.hashes);
        long lostB = RunSkips.noteLost(b.journalCut, b.lastTick, b.skips, b.hashes);
        long firstSkip = RunSkips.firstDifference(a.skips, b.skips, Math.min(a.lastTick, b.lastTick), lostA, lostB);
        if (!a.skips.isEmpty() || !b.skips.isEmpty()) { // a game under FailurePolicy.SKIP_TICK
            out.println(RunSkips.line(a.skips, b.skips, firstSkip, lostA, lostB));
        }
        if (firstHash < 0) {
            String unhashed = both > 0 ? null : "no tick both hold has a state hash (" + a.hashes.size() + " of a's "
                    + a.inputs.size() + " ticks, " + b.hashes.size() + " of b's " + b.inputs.size() + ")"
                    + (a.hashes.isEmpty() && !a.inputs.isEmpty() || b.hashes.isEmpty() && !b.inputs.isEmpty() ? ": a "
                    + "game built with hashEvery(0) journals none; build it with hashEvery(1), the default, and record "
                    + "again" : "");
            out.println(unhashed != null ? "state: not compared: " + unhashed
                    : "state: the same hash on every tick both hold (" + both + " hashed ticks)");
            boolean differ = ResourceState.atEnd(a.dir, b.dir, a.lastTick, b.lastTick, game, out);
            if (firstSkip >= 0 && (firstInput < 0 || firstSkip < firstInput)) {
                out.println(RunSkips.cause(a.skips, b.skips, firstSkip));
            } else if (differ && firstInput < 0) {
                out.println("cause: the same inputs gave different resources; the worlds agree");
            }
            if (firstInput < 0 && firstSkip < 0 && !differ && unhashed != null) { // nothing told them apart, or alike
                err.println("compare-recordings: the recordings' states were not compared: " + unhashed);
                return 2;
            }
            return firstInput < 0 && firstSkip < 0 && !differ ? 0 : 1;
        }
        out.printf("state: first differs at tick %d (hash %016x against %016x)%n", firstHash, a.hashes.get(firstHash),
                b.hashes.get(firstHash));
        boolean named = system(a, b, firstHash, game, out);
        components(a, b, firstHash, out);
        if (game != null) {
            EndSnapshots.entities(a.dir, b.dir, game, named, out);
        } else {
            Boolean listed = ResourceState.bytesAtEnd(a.dir, b.dir, "tick " + a.lastTick + (a.lastTick == b.lastTick ? ""
                    : " against " + b.lastTick), out);
            String advice = Boolean.TRUE.equals(listed) ? (named ? "look at the systems that write the resources "
                    + "above; " : "") + "give --game to see both values" : listed == null ? "the resources were not "
                    + "compared (above)" : "no resource with a codec differs at the end";
            if (named || Boolean.TRUE.equals(listed)) {
                out.println("note: " + (named ? ResourceState.WORLD_ONLY_HASHES + "; " : "") + advice);
            }
        }
        out.println(firstInput >= 0 && firstInput <= firstHash ? "cause: the inputs differ first; the recordings are "
                + "of different runs" : "cause: the same inputs gave different states");
        return 1;
    }

    /** Prints the system line; returns whether it names a system from the hashes of the world after each system. */
    private static boolean system(Recording a, Recording b, long tick, SimulationFactory game, PrintStream out) {
        if (a.systems == null || b.systems == null) {
            out.println("system: not known (record with GoldenRecording.record to have systems.hashes written)");
            return false;
        }
        long[] ha = a.systems.ticks.get(tick);
        long[] hb = b.systems.ticks.get(tick);
        if (ha == null || hb == null) {
            out.println("system: not known (systems.hashes holds no tick " + tick + ")");
            return false;
        }
        List<SystemTrail.Point> pa = a.systems.points == null ? null : a.systems.points.get(tick);
        List<SystemTrail.Point> pb = b.systems.points == null ? null : b.systems.points.get(tick);
        String[] culprit = new String[1];
        String recorded = pa == null || pb == null ? null : SystemTrail.between(pa, pb, tick, Set.of(), culprit);
        if (recorded != null) {
            out.println("system: " + recorded + " (the hashes both recordings hold after each system and after each "
                    + "sync point)");
            return true;
        }
        String rerun = game == null ? null : rerun(a, b, tick, ha, hb, game);
        if (rerun != null) {
            out.println("system: " + rerun);
            return true;
        }
        int i = SystemHashes.firstDifference(ha, hb);
        String unknown = game == null ? "; give --game to have a re-run name the system whose commands differ"
                : "; the re-runs with --game did not tell which (they failed, or do not differ where the recordings do: "
                        + "is --game the game that made them?)";
        if (i < 0) {
            out.println("system: every system left the same world; the structural changes applied at a sync point "
                    + "differ" + unknown);
        } else {
            String na = i < a.systems.systems.size() ? a.systems.systems.get(i) : "#" + i;
            String nb = i < b.systems.systems.size() ? b.systems.systems.get(i) : "#" + i;
            out.println("system: first difference after system '" + na + "'"
                    + (na.equals(nb) ? "" : " (the other recording's system there is '" + nb + "')")
                    + ", or in commands applied at a sync point before it (the recordings hold no hash after a sync "
                    + "point" + unknown + ")");
        }
        return true;
    }

    /**
     * The difference at {@code tick} as a diagnostic re-run tells it: both recordings re-run with
     * the game on one worker (their start snapshots, their inputs), the world hashed after each
     * system and after each sync point ({@link SystemTrail}). When the two re-runs differ there,
     * their trails name the point; when they agree (the recordings are of two versions of the
     * game, or of two machines), a re-run that reproduces its recording's hashes after each
     * system tells where the sync points fell and whose commands they applied, against the
     * other recording's hashes. Null when neither tells (the game does not replay a recording).
     */
    private static String rerun(Recording a, Recording b, long tick, long[] ha, long[] hb, SimulationFactory game) {
        SystemTrail.Traced ra;
        SystemTrail.Traced rb;
        try {
            ra = SystemTrail.trace(game, a.dir, tick);
            rb = SystemTrail.trace(game, b.dir, tick);
        } catch (IOException | RuntimeException e) {
            if (e instanceof RuntimeException r) {
                FactoryRefusedException.rethrowIfRefusal(r); // the game given is at fault, not the recordings
            }
            return null;
        }
        List<SystemTrail.Point> ta = ra.points();
        List<SystemTrail.Point> tb = rb.points();
        Set<String> exclusive = ra.exclusive(); // the same game re-runs both: one schedule
        int i = SystemTrail.firstDifference(ta, tb);
        if (i >= 0 && tellsRecorded(ta, tb, i, ha, hb)) {
            return SystemTrail.describe(SystemTrail.syncPointSide(ta, tb, i), i, tick, exclusive) + " (both recordings re-run with --game on one worker, the world "
                    + "hashed after each system and after each sync point)";
        }
        boolean aAsRecorded = SystemTrail.againstRecorded(ta, ha, tick, false, new ArrayList<>(),
                SystemTrail.Pending.NONE, exclusive, new String[1]) == null;
        boolean bAsRecorded = SystemTrail.againstRecorded(tb, hb, tick, false, new ArrayList<>(),
                SystemTrail.Pending.NONE, exclusive, new String[1]) == null;
        String[] culprit = new String[1];
        String found = aAsRecorded ? SystemTrail.againstRecorded(ta, hb, tick, true, new ArrayList<>(), ra.pending(),
                exclusive, culprit) : null;
        if (found != null) {
            return found + " (the first recording re-run with --game on one worker, against the second's hashes after "
                    + "each system; a sync point only the second's version of the game had is not seen: give that version "
                    + "to --game to see it)";
        }
        found = bAsRecorded ? SystemTrail.againstRecorded(tb, ha, tick, true, new ArrayList<>(), rb.pending(),
                exclusive, culprit) : null;
        return found == null ? null : found + " (the second recording re-run with --game on one worker, against the "
                + "first's hashes after each system; a sync point only the first's version of the game had is not seen: "
                + "give that version to --game to see it)";
    }

    /**
     * Whether two re-run trails that first differ at point {@code i} tell what the recordings
     * hold: before {@code i} each agrees with its recording's hashes after each system, and the
     * recordings first differ after the first system at or after {@code i} (nowhere, when no
     * system follows it in the tick). A game that differs from run to run (a static counter, the
     * wall clock) differs again in the re-runs, though not by the same values.
     */
    private static boolean tellsRecorded(List<SystemTrail.Point> ta, List<SystemTrail.Point> tb, int i, long[] ha,
            long[] hb) {
        int k = 0;
        for (int p = 0; p < i; p++) {
            if (ta.get(p).recordedBy() == null) {
                if (k >= Math.min(ha.length, hb.length) || ha[k] != ta.get(p).hash() || hb[k] != tb.get(p).hash()) {
                    return false;
                }
                k++;
            }
        }
        boolean systemFollows = ta.subList(i, ta.size()).stream().anyMatch(p -> p.recordedBy() == null);
        int j = SystemHashes.firstDifference(ha, hb);
        return systemFollows ? j == k : j < 0;
    }

    private static void components(Recording a, Recording b, long tick, PrintStream out) {
        long[] ca = a.columns.get(tick);
        long[] cb = b.columns.get(tick);
        if (ca == null || cb == null) {
            return;
        }
        List<String> differ = new ArrayList<>();
        List<String> names = a.systems != null ? a.systems.components : List.of();
        for (int i = 0; i < Math.max(ca.length, cb.length); i++) {
            if ((i < ca.length ? ca[i] : 0) != (i < cb.length ? cb[i] : 0)) {
                differ.add(i < names.size() ? names.get(i) : "column #" + i);
            }
        }
        out.println(differ.isEmpty() ? "components: every column's values agree; the entity table, the archetype "
                + "layout or a relation's pairs differ" : "components: " + differ + " differ"); // pairs: in no column's hash
    }

    /** What a recording folder holds that the comparison reads. */
    private static final class Recording {
        final Path dir;
        final Map<Long, Long> hashes = new LinkedHashMap<>();
        final List<String> inputs = new ArrayList<>();
        final Map<Long, long[]> columns = new LinkedHashMap<>();
        /** The ticks the journal notes skipped, with the system that failed. */
        final Map<Long, String> skips = new LinkedHashMap<>();
        SystemHashes systems;
        long lastTick = Long.MIN_VALUE;
        String journalCut;
        boolean columnsCut;

        private Recording(Path dir) {
            this.dir = dir;
        }

        static Recording read(Path dir) throws IOException {
            Recording r = new Recording(dir);
            if (!Files.isDirectory(dir)) {
                throw new IOException((Files.exists(dir) ? dir + " is a file, not a folder" : "no folder " + dir
                        + (dir.isAbsolute() ? "" : " (looked for at " + dir.toAbsolutePath() + ")")) + "; give a folder RunRecorder wrote");
            }
            Path journal = dir.resolve(RunRecorder.JOURNAL);
            if (!Files.isRegularFile(journal)) {
                throw new IOException(dir + " holds no " + RunRecorder.JOURNAL + ": give a folder RunRecorder wrote");
            }
            try (JournalReader reader = JournalReader.openAllowingCut(journal)) {
                JournalTick tick = new JournalTick();
                while (reader.nextTick(tick)) {
                    r.inputs.add(tick.inputs().size() + " inputs " + Long.toHexString(JournalInputs.contentHash(tick)));
                    r.lastTick = tick.tick();
                    if (tick.hasHash()) {
                        r.hashes.put(tick.tick(), tick.stateHash());
                    }
                    if (tick.skipped()) {
                        r.skips.put(tick.tick(), tick.skippedSystem());
                    }
                }
                r.journalCut = reader.cut();
            }
            r.systems = SystemHashes.readIfPresent(dir);
            Path cols = dir.resolve(RunRecorder.COLUMNS);
            if (Files.isRegularFile(cols)) {
                try (InputStream raw = Files.newInputStream(cols);
                     BufferedInputStream buffered = new BufferedInputStream(raw);
                     DataInputStream in = new DataInputStream(buffered)) {
                    for (;;) {
                        buffered.mark(1);
                        if (buffered.read() < 0) {
                            break; // the log ends with the recording, between two records
                        }
                        buffered.reset();
                        long t = in.readLong();
                        int n = in.readInt();
                        if (n < 0 || n > 1 << 16) {
                            throw new IOException(cols + ": a tick lists " + n + " columns, more than the 65536 a world "
                                    + "may register; the file is damaged");
                        }
                        long[] h = new long[n];
                        for (int i = 0; i < n; i++) {
                            h[i] = in.readLong();
                        }
                        r.columns.put(t, h);
                    }
                } catch (EOFException partWay) {
                    r.columnsCut = true; // a crash cut the log inside a record: the ticks before it still count
                }
            }
            return r;
        }

        /** Its folder, ticks, hashed ticks and any cut, for the report's first lines. */
        String describe() {
            StringBuilder b = new StringBuilder().append(dir).append(": ");
            b.append(inputs.isEmpty() ? "no tick" : inputs.size() + (inputs.size() == 1 ? " tick" : " ticks") + " (to tick "
                    + lastTick + ")").append(", ").append(hashes.size()).append(" with a state hash");
            if (journalCut != null) {
                b.append("; the journal is cut short (").append(journalCut).append(")");
            }
            if (columnsCut) {
                b.append("; ").append(RunRecorder.COLUMNS).append(" ends part-way through a record");
            }
            return b.toString();
        }
    }
}
