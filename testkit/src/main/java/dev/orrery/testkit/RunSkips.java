package dev.orrery.testkit;

import dev.orrery.engine.journal.JournalReader;
import dev.orrery.engine.journal.JournalTick;
import dev.orrery.engine.journal.SkipComparison;
import dev.orrery.scheduler.SystemFailedException;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.util.Map;
import java.util.Objects;
import java.util.TreeSet;

/**
 * The ticks the reference run of a {@link DeterminismCheck} skipped ({@code FailurePolicy.SKIP_TICK})
 * and what failed in each, against which every other run's skips are compared: a run must skip
 * the same ticks, because the same system (or sync point) threw the same class of exception. A
 * phase runs to its end whichever of its systems throws, so two runs where different systems
 * threw may leave the same state hash though they behaved otherwise; the hashes alone miss it.
 *
 * <p><b>Threading:</b> the check's calling thread.
 */
final class RunSkips {
    /** Why a run's systems may throw otherwise than the reference's, and the fix. */
    static final String ADVICE = "the game's systems throw differently from run to run (FailurePolicy.SKIP_TICK skips "
            + "the tick, so the runs behaved otherwise even where their states agree): a system's failure depends on "
            + "the worker count, the batch size, the order jobs run in, or state outside the world (a static field, "
            + "wall-clock time, a shared random generator); make each system fail the same way on the same state";

    private final SystemFailedException[] reference;

    RunSkips(long ticks) {
        this.reference = new SystemFailedException[(int) ticks];
    }

    /** Notes what skipped the reference's tick {@code t} ({@code inputs} just ran it). */
    void reference(long t, ScriptInputs inputs) {
        reference[(int) t] = inputs.skipped();
    }

    /** The system that skipped the reference's tick {@code t}, or null. */
    String system(long t) {
        SystemFailedException r = reference[(int) t];
        return r == null ? null : r.system();
    }

    /**
     * How a run's skip of tick {@code t} ({@code run}: what skipped it, or null) differs from the
     * reference's, or null when it does not: same system, same class of exception thrown.
     */
    String against(long t, SystemFailedException run) {
        SystemFailedException ref = reference[(int) t];
        if (ref == null && run == null) {
            return null;
        }
        if (ref != null && run != null && ref.system().equals(run.system())
                && className(ref.getCause()).equals(className(run.getCause()))) {
            return null;
        }
        return "the reference " + (ref == null ? "ran the tick" : "skipped the tick because " + what(ref))
                + " but this run " + (run == null ? "ran it" : "skipped it because " + what(run));
    }

    /**
     * The first tick whose skip note in the recorded run's {@code journal} differs from the
     * reference's skip (the journal keeps the system's name cut to 1 024 bytes, and no
     * exception, so the name is compared cut); null when none differs.
     */
    Mismatch againstJournal(Path journal) {
        try (JournalReader reader = JournalReader.openAllowingCut(journal)) {
            JournalTick tick = new JournalTick();
            while (reader.nextTick(tick)) {
                long t = tick.tick();
                if (t < 0 || t >= reference.length) {
                    continue;
                }
                SystemFailedException ref = reference[(int) t];
                String recorded = tick.skippedSystem();
                boolean same = ref == null ? recorded == null
                        : recorded != null && SkipComparison.sameSystem(recorded, ref.system());
                if (!same) {
                    return new Mismatch(t, "the reference " + (ref == null ? "ran the tick"
                            : "skipped the tick because " + what(ref)) + " but the recorded run "
                            + (recorded == null ? "ran it" : "skipped it because " + SkipComparison.failed(recorded)
                                    + " (its journal keeps the name only)"));
                }
            }
            return null;
        } catch (IOException e) {
            throw new UncheckedIOException("reading " + journal + " failed", e);
        }
    }

    /**
     * The first tick up to {@code last} whose skip notes differ in two recordings' journals
     * ({@code a} and {@code b}: tick to the system that failed, as the journals keep it), or -1:
     * one skipped and the other ran it, or both skipped it because different systems failed.
     * {@code unknownA} and {@code unknownB} are each journal's tick whose note is not known
     * ({@link #noteLost}), {@link Long#MIN_VALUE} for none: where that journal holds no note, the
     * tick is not compared.
     */
    static long firstDifference(Map<Long, String> a, Map<Long, String> b, long last, long unknownA, long unknownB) {
        TreeSet<Long> ticks = new TreeSet<>(a.keySet());
        ticks.addAll(b.keySet());
        for (long t : ticks) {
            if (t <= last && !Objects.equals(a.get(t), b.get(t)) && !lost(a, t, unknownA) && !lost(b, t, unknownB)) {
                return t;
            }
        }
        return -1;
    }

    /**
     * The tick of a journal cut short ({@code cut} not null) whose skip note the crash may have
     * lost: its last tick ({@code lastTick}) when the journal holds neither a note nor a hash for
     * it (a tick's note follows its tick end and precedes its hash); else {@link Long#MIN_VALUE}.
     * A replay lets that tick pass too ({@code JournalInputSource}).
     */
    static long noteLost(String cut, long lastTick, Map<Long, String> skips, Map<Long, Long> hashes) {
        return cut != null && !skips.containsKey(lastTick) && !hashes.containsKey(lastTick) ? lastTick
                : Long.MIN_VALUE;
    }

    /** Whether {@code notes} holds no note for {@code t} because {@code t} is its journal's {@code unknown} tick. */
    private static boolean lost(Map<Long, String> notes, long t, long unknown) {
        return t == unknown && !notes.containsKey(t);
    }

    /**
     * CompareRecordings' skips line for two recordings' notes whose first difference is at
     * {@code first} (-1: none), counting the ticks both skipped; {@code unknownA} and
     * {@code unknownB} as for {@link #firstDifference}, named where the other journal noted that
     * tick skipped.
     */
    static String line(Map<Long, String> a, Map<Long, String> b, long first, long unknownA, long unknownB) {
        String line = first < 0 ? "skips: the same systems skipped the same ticks (" + a.keySet().stream()
                .filter(b::containsKey).count() + " skipped)"
                : "skips: first differ at tick " + first + " (a: " + note(a.get(first)) + "; b: " + note(b.get(first))
                        + ")";
        for (long t : new long[] {unknownA, unknownB}) {
            if (t != Long.MIN_VALUE && (lost(a, t, unknownA) && b.containsKey(t) || lost(b, t, unknownB)
                    && a.containsKey(t))) {
                return line + "; tick " + t + ", the last of a journal cut short, is not compared: the crash may have "
                        + "lost its skip note";
            }
        }
        return line;
    }

    /**
     * CompareRecordings' cause line where the states agree but the skips first differ at
     * {@code first}: both skipped it for different systems, or one skipped it and the other ran it.
     */
    static String cause(Map<Long, String> a, Map<Long, String> b, long first) {
        return a.containsKey(first) && b.containsKey(first)
                ? "cause: the same inputs skipped ticks for different systems (FailurePolicy.SKIP_TICK): the game's "
                        + "systems throw differently in the two runs, though the states agree (a phase runs to its end "
                        + "whichever of its systems throws)"
                : "cause: with the same inputs, one recording skipped tick " + first + " and the other ran it "
                        + "(FailurePolicy.SKIP_TICK): a system threw in one run only, though the states agree (what the "
                        + "failed tick left undone changed nothing the hashes cover)";
    }

    private static String note(String system) {
        return system == null ? "ran the tick" : "skipped it, " + SkipComparison.failed(system);
    }

    /** A tick whose skips differ, and how. */
    record Mismatch(long tick, String text) {
    }

    /** "system 'x' threw (its exception)", or "the sync point ... failed (...)". */
    private static String what(SystemFailedException f) {
        return SkipComparison.failed(f.system()) + " (" + (f.getCause() != null ? f.getCause() : f.getMessage()) + ")";
    }

    private static String className(Throwable t) {
        return t == null ? "" : t.getClass().getName();
    }
}
