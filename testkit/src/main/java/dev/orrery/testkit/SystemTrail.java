package dev.orrery.testkit;

import dev.orrery.ecs.World;
import dev.orrery.engine.RunRecorder;
import dev.orrery.engine.Simulation;
import dev.orrery.engine.internal.EngineInternals;
import dev.orrery.engine.internal.PendingCommands;
import dev.orrery.scheduler.executor.SystemHook;
import java.io.Closeable;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import java.util.function.ToLongFunction;

/**
 * What a simulation on one worker passes through in a tick, for the kit's diagnosis: the world
 * hashed after each system, and after each sync point that applied commands (naming the
 * systems that recorded them). Two trails of the same tick compared point by point name the
 * first system, or the first system's commands, after which two runs differ.
 *
 * <p><b>Threading:</b> filled on the simulation's tick thread.
 */
final class SystemTrail implements SystemHook {
    /**
     * One point of a tick: after system {@code system}, or (when {@code recordedBy} is not null)
     * after the sync point that applied the commands of those systems; {@code hash} is the state then.
     */
    record Point(String system, List<String> recordedBy, long hash) {
    }

    /**
     * Whose commands the sync points of a tick may have applied where a run applied none, as
     * {@link PendingCommands} follows the schedule: for each point of the tick's trail, those of
     * the sync points just before it (empty at a sync point's own point, and where none falls),
     * and those of the sync point at the end of the tick. Where a trail has no sync point, the
     * run it is compared with may still have applied commands there. {@link #NONE}: not known.
     */
    record Pending(List<List<String>> before, List<String> atEnd) {
        static final Pending NONE = new Pending(List.of(), List.of());

        /** Whose commands the sync points just before point {@code i} may have applied. */
        List<String> before(int i) {
            return i < before.size() ? before.get(i) : List.of();
        }
    }

    private final List<String> names;
    private final ToLongFunction<World> hash;
    final List<Point> points = new ArrayList<>();
    /** Parallel to {@link #points}: {@link PendingCommands#before} of each system's point, empty at a sync point's. */
    private final List<List<String>> pendingAt = new ArrayList<>();
    private final PendingCommands pending;
    /**
     * The schedule's exclusive systems ({@code EngineInternals.exclusiveSystems}): their direct
     * structural calls fire observer hooks at once, whose commands are applied inside the system,
     * so a difference after one may be a hook's.
     */
    final Set<String> exclusive;

    private SystemTrail(List<String> names, ToLongFunction<World> hash, PendingCommands pending,
            Set<String> exclusive) {
        this.names = names;
        this.hash = hash;
        this.pending = pending;
        this.exclusive = exclusive;
    }

    /** A trail of {@code sim} (on one worker) from its next tick on, hashing the world with {@code hash}. */
    static SystemTrail of(Simulation sim, ToLongFunction<World> hash) {
        SystemTrail trail = new SystemTrail(sim.schedule().systemNames(), hash, EngineInternals.pendingCommands(sim),
                Set.copyOf(EngineInternals.exclusiveSystems(sim)));
        EngineInternals.afterEachSystem(sim, trail);
        return trail;
    }

    /** Forgets the points so far: call before each tick whose points are wanted alone. */
    void clear() {
        points.clear();
        pendingAt.clear();
    }

    /** Whose commands the sync points of the points so far may have applied, and the one after them. */
    Pending pending() {
        return new Pending(List.copyOf(pendingAt), pending.atEnd());
    }

    @Override
    public void after(int position, String name, boolean ran, World world) {
        pendingAt.add(pending.before(position));
        points.add(new Point(name, null, hash.applyAsLong(world)));
    }

    @Override
    public void afterSyncPoint(int[] recordedBy, int count, World world) {
        List<String> who = new ArrayList<>(count);
        for (int i = 0; i < count; i++) {
            who.add(recordedBy[i] < names.size() ? names.get(recordedBy[i]) : "#" + recordedBy[i]);
        }
        pendingAt.add(List.of());
        points.add(new Point(null, List.copyOf(who), hash.applyAsLong(world)));
    }

    /**
     * Ticks {@code a} (the usual run) and {@code b} (the run to explain, restored from
     * {@code snapshot} when not null; its jobs in reverse order when {@code reversed}) on one
     * worker from tick {@code from} through {@code last}, hashing the world after each system and
     * each sync point, and names the first system after which (or after whose commands) the two
     * differ; {@code null} when they agree through {@code last} (see {@link #agreed}). Closes neither.
     */
    static Diagnosis diagnose(Simulation a, Simulation b, InputScript script, long from, long last, byte[] snapshot,
            boolean reversed) {
        boolean restored = snapshot != null;
        a.inputs(new ScriptInputs(script));
        for (long k = 0; k < from; k++) {
            a.tick();
        }
        if (restored) {
            b.restore(snapshot);
        }
        b.inputs(new ScriptInputs(script));
        if (!restored && ResourceState.hash(a) != ResourceState.hash(b)) {
            return new Diagnosis(null, "the worlds differ before the first tick: SimulationFactory.create built "
                    + "two different worlds (what it spawns, or what an observer hook those spawns fired, differs)");
        }
        SystemTrail ta = SystemTrail.of(a, w -> ResourceState.hash(a));
        SystemTrail tb = SystemTrail.of(b, w -> ResourceState.hash(b));
        for (long k = from; k <= last; k++) {
            ta.clear();
            tb.clear();
            a.tick();
            b.tick();
            int i = SystemTrail.firstDifference(ta.points, tb.points);
            if (i >= 0) {
                List<Point> at = SystemTrail.syncPointSide(ta.points, tb.points, i);
                return new Diagnosis(SystemTrail.culprit(at, i), SystemTrail.describe(at, i, k, ta.exclusive)
                        + " (two runs on 1 worker" + (restored ? ", the second restored from the snapshot" : "")
                        + (reversed ? ", the second with every system's jobs in reverse order: the system's result "
                        + "follows the order its jobs ran in" : "")
                        + ", the world and every resource with a codec hashed after each system and each sync point)");
            }
            if (ResourceState.hash(a) != ResourceState.hash(b)) {
                return new Diagnosis(null, "first difference at the end of tick " + k + " (after every system and "
                        + "sync point the worlds agreed: something outside the systems changed the world)");
            }
        }
        return null;
    }

    /**
     * The diagnosis when {@code tries} pairs of diagnostic runs agreed through tick {@code last}:
     * when the run that differed ran on several workers, the difference needs them; when it ran
     * on one ({@code oneWorker}), two runs on one worker did differ, so the difference comes and
     * goes from run to run and no system can be named.
     */
    static Diagnosis agreed(long last, boolean oneWorker, int tries) {
        if (!oneWorker) {
            return new Diagnosis(null, "two runs on 1 worker agree through tick " + last + ": the difference needs "
                    + "several workers (systems touching the same data side by side, or state shared between workers)");
        }
        return new Diagnosis(null, tries + " more pairs of runs on 1 worker agree through tick " + last + ", though the "
                + "run that differed ran on 1 worker too: the difference comes and goes from run to run (a wall clock "
                + "or a Random that only sometimes changes the result, a HashMap of a few identity keys whose order "
                + "only sometimes matters), so no system could be named; the likely cause below holds, and running "
                + "the check again may name the system");
    }

    /**
     * The index of the first point where {@code a} and {@code b} differ, or -1 when they are equal.
     * A sync point is a point only where a playback applied commands, so a run that records
     * commands where the other records none has a point more: where one trail ends first, the
     * other's next point is the difference.
     */
    static int firstDifference(List<Point> a, List<Point> b) {
        for (int i = 0; i < Math.min(a.size(), b.size()); i++) {
            if (!a.get(i).equals(b.get(i))) {
                return i;
            }
        }
        return a.size() == b.size() ? -1 : Math.min(a.size(), b.size());
    }

    /**
     * The trail that tells a difference first seen at point {@code i}: the one whose point there
     * is a sync point where the other's is a system (or nothing), since only that run applied
     * commands there, and the other's next system did not make the difference; else {@code a}.
     */
    static List<Point> syncPointSide(List<Point> a, List<Point> b, int i) {
        boolean aSync = i < a.size() && a.get(i).recordedBy() != null;
        boolean bSync = i < b.size() && b.get(i).recordedBy() != null;
        return !aSync && bSync || i >= a.size() ? b : a;
    }

    /**
     * The system a difference first seen at point {@code i} of {@code points} is to be laid at:
     * the system itself, or the only system whose commands the sync point applied; null when
     * several systems' commands were applied there.
     */
    static String culprit(List<Point> points, int i) {
        Point p = points.get(i);
        if (p.recordedBy() == null) {
            return p.system();
        }
        return p.recordedBy().size() == 1 ? p.recordedBy().get(0) : null;
    }

    /**
     * A re-run of the recording in {@code dir} with {@code game} on one worker, from its start
     * snapshot with its journal's inputs, hashing the world with {@link World#stateHash}: how
     * the kit's diagnoses replay a recording system by system. {@code game} is the caller's
     * checked factory ({@link FactoryCall#checked}), so a factory that misbehaves here is refused
     * as the caller's own runs refuse it.
     */
    static Rerun rerun(SimulationFactory game, Path dir) throws IOException {
        Simulation sim = game.create(1, false);
        try {
            JournalInputs inputs = new JournalInputs(dir.resolve(RunRecorder.JOURNAL));
            try {
                sim.restore(Files.readAllBytes(dir.resolve(RunRecorder.SNAPSHOT)));
                sim.inputs(inputs);
                return new Rerun(sim, inputs, of(sim, World::stateHash));
            } catch (Throwable e) {
                closeAfter(inputs, e);
                throw e;
            }
        } catch (Throwable e) {
            closeAfter(sim, e);
            throw e;
        }
    }

    /**
     * What a re-run of the recording in {@code dir} ({@link #rerun}) passes through in
     * {@code tick}: its points, whose commands the sync points of that tick may apply, and the
     * game's exclusive systems.
     */
    record Traced(List<Point> points, Pending pending, Set<String> exclusive) {
    }

    /** Re-runs the recording in {@code dir} with {@code game} through {@code tick}: that tick's {@link Traced}. */
    static Traced trace(SimulationFactory game, Path dir, long tick) throws IOException {
        try (Rerun rerun = rerun(game, dir)) {
            List<Point> points = List.of();
            Pending pending = Pending.NONE;
            while (rerun.simulation().currentTick() <= tick) {
                points = rerun.tick();
                pending = rerun.pending();
            }
            return new Traced(List.copyOf(points), pending, rerun.exclusive());
        }
    }

    private static void closeAfter(AutoCloseable c, Throwable failure) {
        try {
            c.close();
        } catch (Exception suppressed) {
            failure.addSuppressed(suppressed);
        }
    }

    /**
     * How a person reads a difference first seen at point {@code i} of {@code points}, in tick
     * {@code tick}; {@code exclusive}: the game's exclusive systems (empty where not known).
     */
    static String describe(List<Point> points, int i, long tick, Set<String> exclusive) {
        Point p = points.get(i);
        if (p.recordedBy() == null) {
            return afterSystem(p.system(), tick, exclusive);
        }
        String next = null;
        for (int k = i + 1; k < points.size() && next == null; k++) {
            next = points.get(k).system();
        }
        List<String> who = p.recordedBy();
        if (who.size() == 1 && who.get(0).equals(next)) { // an exclusive system: its commands are applied as it ends
            return "first difference after exclusive system '" + next + "' at tick " + tick + " (what it changed, the "
                    + "commands it recorded, or an observer hook (world.observe) those commands fired)";
        }
        String where = next == null ? "at the end of tick " + tick : "before system '" + next + "' at tick " + tick;
        return "first difference when the commands of " + names(who) + " were applied (the sync point " + where
                + "; the world as the systems left it still agreed): the commands " + (who.size() == 1 ? "it" : "they")
                + COMMANDS_DIFFER;
    }

    /**
     * Compares the tick's trail in {@code points} with the hashes recorded after each system
     * ({@code was}, in a recording's {@link SystemHashes} of the older format {@code ORRSYSH1}),
     * which hold no hash after a sync point. Returns how a person reads the first difference,
     * putting the system it is laid at
     * (null when the recording cannot tell which of two) in {@code culprit[0]}, or null when
     * the recorded hashes agree; {@code diverged}: this is the tick whose end state the
     * recording's journal found different, so agreeing hashes put the difference at the sync
     * points after the last system. {@code applied} carries, from one tick to the next, whose
     * commands the sync points since the last agreeing system applied. {@code pending}
     * ({@link #pending()} of the trail) names the systems whose commands the sync points before
     * each point, and the one at the end of the tick, may apply: where this run applied none
     * there, the recorded run may have, so a difference first seen after a system is not laid at
     * it alone, and one first seen at the end of the tick is laid at those commands.
     * {@code exclusive}: the game's exclusive systems.
     */
    static String againstRecorded(List<Point> points, long[] was, long tick, boolean diverged, List<String> applied,
            Pending pending, Set<String> exclusive, String[] culprit) {
        int seen = 0;
        for (int i = 0; i < points.size(); i++) {
            Point p = points.get(i);
            if (p.recordedBy() != null) {
                applied.addAll(p.recordedBy());
                continue;
            }
            if (seen >= was.length) {
                return null;
            }
            if (was[seen++] != p.hash()) {
                List<String> unseen = applied.isEmpty() ? pending.before(i) : List.of();
                if (!unseen.isEmpty()) {
                    culprit[0] = null;
                    return afterSystem(p.system(), tick, exclusive) + ", or in the commands of " + names(unseen) + " applied at the "
                            + "sync point before it in the recorded run, where this run applied none (or an observer "
                            + "hook they fired): the recording holds no hash between the two";
                }
                if (applied.isEmpty() || applied.equals(List.of(p.system()))) {
                    culprit[0] = p.system();
                    return afterSystem(p.system(), tick, exclusive);
                }
                culprit[0] = null;
                return afterSystem(p.system(), tick, exclusive) + ", or in the commands of " + names(applied) + " applied at the sync point before it (or an observer hook they fired): the "
                        + "recording holds no hash between the two";
            }
            applied.clear();
        }
        if (!diverged) {
            return null;
        }
        if (applied.isEmpty()) {
            List<String> unseen = pending.atEnd();
            if (unseen.isEmpty()) {
                return null;
            }
            culprit[0] = unseen.size() == 1 ? unseen.get(0) : null;
            return "first difference at the end of tick " + tick + ", in the commands of " + names(unseen) + " applied at "
                    + "the sync point after the last system in the recorded run, where this run applied none (the world "
                    + "agreed with the recording after every system): the commands" + COMMANDS_DIFFER;
        }
        culprit[0] = applied.size() == 1 ? applied.get(0) : null;
        return "first difference when the commands of " + names(applied) + " were applied at the end of tick " + tick
                + " (the world agreed with the recording after every system): the commands" + COMMANDS_DIFFER;
    }

    /**
     * Compares two tick's points that each hold a hash after every system and after every sync
     * point (two re-runs, or a recording's {@link SystemHashes} of format {@code ORRSYSH2} and a
     * re-run, or two recordings), which may come from two versions of the game whose systems
     * recorded commands at different sync points. The points are matched system by system; the
     * sync points between two systems are compared one by one while both sides have the same,
     * and where they part (one version's system recorded commands the other's did not) the
     * world each side left after the last of them is compared. Returns how a person reads the
     * first difference, putting the system it is laid at (null when the commands of several
     * were applied together) in {@code culprit[0]}; null when the points agree as far as both go.
     * {@code exclusive}: the game's exclusive systems (empty where not known).
     */
    static String between(List<Point> a, List<Point> b, long tick, Set<String> exclusive, String[] culprit) {
        int i = 0;
        int j = 0;
        for (;;) {
            int ea = syncPointsFrom(a, i);
            int eb = syncPointsFrom(b, j);
            int k = 0;
            while (i + k < ea && j + k < eb && a.get(i + k).equals(b.get(j + k))) {
                k++;
            }
            if ((i + k < ea || j + k < eb) && !sameWorldAfter(a, ea, b, eb)) {
                List<String> who = new ArrayList<>();
                a.subList(i + k, ea).forEach(p -> who.addAll(p.recordedBy()));
                b.subList(j + k, eb).forEach(p -> who.addAll(p.recordedBy()));
                List<Point> side = i + k < ea ? a : b;
                int at = side == a ? i + k : j + k;
                List<Point> view = new ArrayList<>(side);
                view.set(at, new Point(null, List.copyOf(new LinkedHashSet<>(who)), 0));
                culprit[0] = culprit(view, at);
                return describe(view, at, tick, exclusive);
            }
            i = ea;
            j = eb;
            if (i >= a.size() || j >= b.size()) {
                return null;
            }
            Point pa = a.get(i++);
            Point pb = b.get(j++);
            if (pa.hash() != pb.hash()) {
                culprit[0] = pa.system();
                return afterSystem(pa.system(), tick, exclusive)
                        + (pa.system().equals(pb.system()) ? "" : " (the other's system there is '" + pb.system() + "')");
            }
        }
    }

    /** The index of the first point at or after {@code from} that is not a sync point's. */
    private static int syncPointsFrom(List<Point> points, int from) {
        int i = from;
        while (i < points.size() && points.get(i).recordedBy() != null) {
            i++;
        }
        return i;
    }

    /**
     * Whether the sync points of {@code a} and {@code b} between the same two systems, ending
     * before {@code ea} and {@code eb}, left the same world: the hash after the last of each, or
     * after the system before them where a side has none (unknown before the first system of a
     * tick: then not the same).
     */
    private static boolean sameWorldAfter(List<Point> a, int ea, List<Point> b, int eb) {
        if (ea == 0 || eb == 0) {
            return false;
        }
        return a.get(ea - 1).hash() == b.get(eb - 1).hash();
    }

    /** What the commands applied at a sync point may have done, ending a sentence "...: the commands [it]". */
    private static final String COMMANDS_DIFFER = " recorded (spawn, despawn, add, remove, set) differ, or an observer "
            + "hook (world.observe) those commands fired does something that differs";

    /**
     * "first difference after system 'x' at tick n"; after an exclusive system, whose direct
     * structural calls fire observer hooks that record and apply their commands before it ends,
     * naming those hooks beside what it changed.
     */
    private static String afterSystem(String system, long tick, Set<String> exclusive) {
        if (exclusive.contains(system)) {
            return "first difference after exclusive system '" + system + "' at tick " + tick + " (what it changed, or "
                    + "an observer hook (world.observe) its changes fired, with the commands the hook recorded)";
        }
        return "first difference after system '" + system + "' at tick " + tick;
    }

    /** "system 'a'" or "systems 'a', 'b'", each system once, in the order first seen. */
    private static String names(List<String> systems) {
        List<String> distinct = new ArrayList<>(new LinkedHashSet<>(systems));
        return (distinct.size() == 1 ? "system '" : "systems '") + String.join("', '", distinct) + "'";
    }

    /**
     * A recording re-run on one worker with a trail attached ({@link #rerun}); {@link #tick}
     * runs its next tick and returns that tick's points. Closing it closes the simulation and
     * the journal.
     *
     * <p><b>Threading:</b> one thread, the one that made it.
     */
    static final class Rerun implements Closeable {
        private final Simulation sim;
        private final JournalInputs inputs;
        private final SystemTrail trail;

        private Rerun(Simulation sim, JournalInputs inputs, SystemTrail trail) {
            this.sim = sim;
            this.inputs = inputs;
            this.trail = trail;
        }

        /** Whose commands the sync points of the last tick's points, and the one after them, may apply. */
        Pending pending() {
            return trail.pending();
        }

        /** The game's exclusive systems. */
        Set<String> exclusive() {
            return trail.exclusive;
        }

        /** The re-run's simulation (its world, its next tick). */
        Simulation simulation() {
            return sim;
        }

        /** Runs the next tick; the returned points (live, cleared by the next call) are that tick's. */
        List<Point> tick() {
            trail.clear();
            sim.tick();
            return trail.points;
        }

        @Override
        public void close() throws IOException {
            try {
                inputs.close();
            } finally {
                sim.close();
            }
        }
    }
}
