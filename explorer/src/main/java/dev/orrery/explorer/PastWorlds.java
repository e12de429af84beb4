package dev.orrery.explorer;

import dev.orrery.ecs.World;
import dev.orrery.engine.RunRecorder;
import dev.orrery.engine.Simulation;
import dev.orrery.scheduler.internal.SchedulerInternals;
import java.io.IOException;
import java.nio.file.Files;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.Map;
import java.util.Set;
import java.util.function.Function;

/**
 * The world as it was: a replay of a {@link Timeline}'s recording on a thread of its own,
 * moved to the tick a request asks for. Forward, it ticks on from where it is; back, it
 * restores the nearest snapshot it kept on the way (the recording's start at first) into a
 * fresh simulation and replays from there. It keeps at most {@link PastSnapshots#MAX} snapshots
 * and {@link PastSnapshots#MAX_BYTES} bytes of them, spacing them wider as the run grows.
 *
 * <p>A recording replaced in the folder while the timeline follows it (another run's files copied
 * over it, or recorded again there) is not replayed on from the old one's world or snapshots:
 * each travel, before it moves and once it arrived, and each {@link #info}, asks a
 * {@link RecordingWatch} (two attribute reads, and a few kilobytes read only when the journal
 * changed: samples, which {@link #info} names in {@code replacedChecks}) and the replay's inputs ({@link RecordedInputs#rewritten}) whether the recording is still
 * the one the replay started from; if not, the replay, its snapshots and what it found (span,
 * hashes, divergence, ending) are dropped, the replay starts again from the new recording, the
 * travel is made again there, and {@link #info} says when and why ({@code replaced}).
 *
 * <p>"At tick T" is the world after tick T ran, as the live explorer shows it at the end of
 * tick T; the recording's start is "at" the tick before its first.
 *
 * <p><b>Threading:</b> requests and {@link #close} on any thread; a travel waits its turn on the replay
 * thread ({@link PastThread}: one idle ends, the next binds the tick thread), owner of the simulation
 * and the plain fields. {@link #info} reads the volatile status fields, written by that thread only,
 * without waiting: two may be of two moments.
 */
final class PastWorlds implements AutoCloseable {
    /** How long a request waits for the replay (going far takes a while). */
    static final long WAIT_MILLIS = PastThread.WAIT_MILLIS;
    /** Most targets of one relation, and holders of one pair target, an entity diff compares (and says how many more). */
    static final int MAX_TARGETS = 1000;
    /** Travels made at most for one request while the recording keeps being replaced. */
    static final int TRIES = 3;

    private final Timeline timeline;
    private final PastThread thread;
    private final Browse browse = new Browse();
    private final PastSnapshots snapshots = new PastSnapshots();
    private boolean snapshotsWork = true;
    private Simulation sim;
    /** The thread {@link #sim} ticks on: the pool's replay thread ends when idle, and a new one takes it over. */
    private Thread simThread;
    private RecordedInputs inputs;
    private volatile long first = -1;
    private volatile long at = -1;
    private volatile long furthest = -1;
    private volatile long hashesMatched;
    private volatile long divergedAt = -1;
    private volatile String divergence;
    /**
     * Where and how the journal ended when a travel last found its end; null before, and once
     * the replay went past it. One object, so a reader never pairs one travel's tick with
     * another's words; written by the replay thread only.
     */
    private volatile Ending ending;
    private volatile String problem;
    /** Set by {@link #close}: a travel under way stops at its next tick. */
    private volatile boolean closing;
    /** Where the journal ends, as last read through; a new one for a replaced recording. */
    private volatile JournalEnd journalEnd;
    /** Tells whether the folder still holds the recording the replay started from. */
    private final RecordingWatch watch;
    /** What the page says once the recording was replaced; null before. */
    private volatile String replaced;
    /** How many times the replay started again from a replaced recording (the replay thread's). */
    private int generation;

    /** The replay thread ends after {@code keepAliveMillis} idle (the explorer's: 30 s). */
    PastWorlds(Timeline timeline, long keepAliveMillis) {
        this.timeline = timeline;
        this.journalEnd = new JournalEnd(timeline.folder());
        this.watch = new RecordingWatch(timeline.folder());
        this.thread = new PastThread(keepAliveMillis, () -> {
            if (closing) { // queued before close, which may have found no room for its closeReplay
                closeReplay();
            }
        }, () -> at);
    }

    /**
     * Thrown for what the timeline cannot show, answered with {@link #status} and its message:
     * 404 for a tick the recording does not hold, 409 for a recording the timeline's
     * simulation cannot replay (built otherwise than the recorded one, a replayed tick that
     * fails, a journal that cannot be read).
     */
    static final class Refused extends RuntimeException {
        private static final long serialVersionUID = 1L;
        /** The HTTP status to answer. */
        final int status;

        Refused(int status, String message, Throwable cause) {
            super(message, cause);
            this.status = status;
        }

        /** A tick the recording does not hold: 404. */
        static Refused notRecorded(String message) {
            return new Refused(404, message, null);
        }
    }

    /** How a replay fix reads, for every 409: the timeline's simulation must be built as the recorded one. */
    private static final String BUILD_AS_RECORDED = "; the Timeline's supplier must build the simulation as the "
            + "recorded one was built (the same components, relations, systems, resources and seed; no entities)";

    /**
     * What the timeline spans and where the replay stands, as JSON; {@code last} is the live run's
     * last tick, the span's end only when the journal cannot be read. Its span's end is the
     * journal's last complete tick: where a closed or crash-cut recording ends, and as far as a
     * live one is written. No {@code first} and {@code last} when the replay cannot start.
     * {@code replacedChecks} says how a replaced recording is looked for: by samples of its files.
     */
    String info(long last) {
        Json json = new Json().beginObject().field("available", true)
                .field("folder", String.valueOf(timeline.folder()));
        if (first < 0 || watch.replaced() != null) {
            try {
                thread.call(() -> {
                    startAgainIfReplaced();
                    ensureStarted();
                    return null;
                });
            } catch (SafePoint.Unavailable | RuntimeException e) {
                json.field("problem", String.valueOf(e.getMessage()));
            }
        }
        String endingWords = null;
        if (first >= 0) {
            Ending found = ending; // before the journal's end: that end is then where it was or further on
            JournalEnd.End end = journalEnd.end();
            Long recorded = end.last();
            if (found != null) {
                // words for the span's end as read now: a live recording may have grown past where a
                // travel found it ending (no ending then), or written its end record since (closed)
                endingWords = recorded == null ? found.words() : recorded > found.after() ? null : end.ending();
            }
            json.field("first", first - 1).field("last", Math.max(first - 1, recorded != null ? recorded
                    : Math.max(last, furthest)));
        }
        json.field("at", at).field("hashesMatched", hashesMatched).field("divergedAt", divergedAt)
                .key("snapshots").beginArray();
        snapshots.ticks().forEach(k -> json.value(k - 1));
        json.endArray();
        if (divergence != null) {
            json.field("divergence", divergence);
        }
        if (endingWords != null) {
            json.field("ending", endingWords);
        }
        if (problem != null) {
            json.field("problem", problem);
        }
        if (replaced != null) {
            json.field("replaced", replaced);
        }
        json.field("replacedChecks", RecordingWatch.CHECKS); // what no "replaced" does not prove
        return json.endObject().toString();
    }

    /** Entity {@code id} as it was at tick {@code tick}. */
    String entity(long tick, long id) throws SafePoint.Unavailable {
        return thread.call(() -> {
            World w = moveTo(tick);
            return new Json().beginObject().field("tick", tick).key("entity")
                    .raw(Views.entity(w, id, EditRules.frozen("this is tick " + tick
                            + ", the past: edit the live entity")))
                    .endObject().toString();
        });
    }

    /** Query {@code text}'s count, archetypes and page {@code page} as they were at tick {@code tick}. */
    String query(long tick, String text, int page, int size) throws SafePoint.Unavailable {
        return thread.call(() -> {
            World w = moveTo(tick);
            return new Json().beginObject().field("tick", tick).key("result").raw(browse.query(w, text, page, size))
                    .endObject().toString();
        });
    }

    /** Entity {@code id}'s fields at ticks {@code from} and {@code to}, and those that differ. */
    String diffEntity(long from, long to, long id) throws SafePoint.Unavailable {
        return thread.call(() -> {
            Both<Map<String, String>> both = both(from, to, w -> Views.fields(w, id, MAX_TARGETS));
            return PastDiffs.entity(id, from, to, both.from(), both.to());
        });
    }

    /** Query {@code text}'s matches at ticks {@code from} and {@code to}: counts, and what came and went. */
    String diffQuery(long from, long to, String text) throws SafePoint.Unavailable {
        return thread.call(() -> {
            Both<Set<Long>> both = both(from, to, w -> PastDiffs.ids(w, text));
            return PastDiffs.query(text, from, to, both.from(), both.to());
        });
    }

    /** What {@code read} found in the world at two ticks, of one recording. */
    private record Both<T>(T from, T to) {
    }

    /**
     * Reads the replayed world at {@code from}, then at {@code to}; again from {@code from} when
     * the recording was replaced between the two, so both are of the same one.
     */
    private <T> Both<T> both(long from, long to, Function<World, T> read) {
        for (int tries = 1; ; tries++) {
            T a = read.apply(moveTo(from));
            int of = generation;
            T b = read.apply(moveTo(to));
            if (of == generation) {
                return new Both<>(a, b);
            }
            if (tries == TRIES) {
                throw replacedTooOften(tries);
            }
        }
    }

    /** A journal's end as a travel found it: its last complete tick, and how it ends there. */
    private record Ending(long after, String words) {
    }

    // ---- the replay thread

    private void ensureStarted() {
        if (first >= 0) {
            return;
        }
        try {
            watch.baseline(); // before reading: what changes after is seen by the next check
            byte[] start = Files.readAllBytes(timeline.folder().resolve(RunRecorder.SNAPSHOT));
            restore(start);
            first = sim.currentTick();
            at = first - 1;
            snapshots.keep(sim.currentTick(), start);
        } catch (IOException e) {
            throw new Refused(409, "the recording in " + timeline.folder() + " cannot be read: " + e.getMessage(), e);
        }
    }

    /**
     * The replayed world after tick {@code tick}, of the recording in the folder now: started again
     * from it when it was replaced before the travel, or while the travel replayed (then the travel
     * is made again, at most {@link #TRIES} times).
     */
    private World moveTo(long tick) {
        for (int tries = 1; ; tries++) {
            startAgainIfReplaced();
            World w = null;
            Refused refused = null;
            try {
                w = travel(tick);
            } catch (Refused e) {
                refused = e;
            }
            if (closing || !startAgainIfReplaced()) {
                if (refused != null) {
                    throw refused;
                }
                return w;
            }
            if (tries == TRIES) {
                throw replacedTooOften(tries);
            }
        }
    }

    private Refused replacedTooOften(int tries) {
        return new Refused(503, "the recording in " + timeline.folder() + " was replaced " + tries + " times while the "
                + "timeline replayed it; retry once it is left alone", null);
    }

    /**
     * Drops the replay, its snapshots and what it found, when the folder no longer holds the
     * recording it started from (the next travel starts again from the one there now); true if so.
     */
    private boolean startAgainIfReplaced() {
        if (first < 0) {
            return false; // nothing started from it
        }
        String why = watch.replaced();
        if (why == null && inputs != null && inputs.rewritten()) {
            why = RunRecorder.JOURNAL + " no longer holds the records the replay read";
        }
        if (why == null) {
            return false;
        }
        replaced = "the recording in " + timeline.folder() + " was replaced at "
                + Instant.now().truncatedTo(ChronoUnit.SECONDS) + " (" + why + "); the timeline starts again from "
                + "the new one";
        closeReplay();
        snapshots.clear();
        snapshotsWork = true;
        journalEnd = new JournalEnd(timeline.folder());
        first = -1;
        at = -1;
        furthest = -1;
        hashesMatched = 0;
        divergedAt = -1;
        divergence = null;
        ending = null;
        problem = null;
        generation++;
        return true;
    }

    /** The replayed world after tick {@code tick}, moved there from where it stands or from a snapshot. */
    private World travel(long tick) {
        ensureStarted();
        if (tick < first - 1) {
            throw Refused.notRecorded("tick " + tick + " is before the recording, which starts after tick " + (first - 1));
        }
        if (tick == Long.MAX_VALUE) { // no tick after it: tick + 1 would wrap to the most negative
            throw Refused.notRecorded("tick " + tick + " is not in the recording: no run gets that far");
        }
        JournalEnd.End end = journalEnd.end(); // its tick and words from one read
        Long journalLast = end.last();
        if (journalLast != null && tick > Math.max(journalLast, first - 1)) {
            // refused from where the journal ends, not by replaying to it: that could chase a live run for minutes
            Ending found = new Ending(Math.max(journalLast, first - 1), end.ending());
            ending = found;
            throw Refused.notRecorded("tick " + tick + " is not in the recording: it holds ticks up to "
                    + found.after() + ", and " + found.words());
        }
        long next = tick + 1;
        if (sim == null || next < sim.currentTick()) { // none: a replayed tick failed, or a restore
            restore(snapshots.floor(next).getValue());
        }
        while (sim.currentTick() < next) {
            if (closing) { // a stopped demo waits for close before its summary: do not make it wait out a travel
                throw new Refused(503, "the explorer is closing; the timeline stopped its replay at tick " + at, null);
            }
            long t = sim.currentTick();
            boolean recorded;
            try {
                recorded = inputs.has(t);
            } catch (IOException e) {
                throw new Refused(409, "the journal in " + timeline.folder() + " cannot be read past tick " + (t - 1)
                        + ": " + e.getMessage(), e);
            }
            if (!recorded) {
                Ending found = new Ending(t - 1, inputs.ending());
                ending = found;
                throw Refused.notRecorded("tick " + tick + " is not in the recording: it holds ticks up to " + (t - 1)
                        + ", and " + found.words());
            }
            try {
                if (simThread != Thread.currentThread()) { // the old one's last task happens-before (the pool's lock)
                    sim.bindTickThread();
                    simThread = Thread.currentThread();
                }
                sim.tick();
            } catch (RuntimeException e) {
                closeReplay(); // left inside the failed tick: the next travel restores a snapshot
                String why = "the replay's tick " + t + " failed where the recorded run went on: " + e.getMessage();
                if (divergedAt < 0) {
                    divergence = why;
                    divergedAt = t;
                }
                throw new Refused(409, "the timeline cannot show tick " + tick + ": " + why + BUILD_AS_RECORDED, e);
            }
            at = sim.currentTick() - 1;
            Ending found = ending;
            if (found != null && at > found.after()) {
                ending = null; // a live recording grew past where it ended
            }
            inputs.checkSkipped(at);
            furthest = Math.max(furthest, at);
            hashesMatched = Math.max(hashesMatched, inputs.hashesMatched());
            if (inputs.divergedAt() >= 0 && divergedAt < 0) {
                divergence = inputs.divergence();
                divergedAt = inputs.divergedAt();
            }
            if (snapshotsWork && snapshots.due(sim.currentTick())) {
                try {
                    snapshots.keep(sim.currentTick(), sim.snapshot());
                } catch (RuntimeException e) {
                    snapshotsWork = false; // no snapshot of it can be taken: every jump back replays from the start
                    problem = "jumps back replay from the start: " + e.getMessage();
                }
            }
        }
        return sim.world();
    }

    private void restore(byte[] snapshot) {
        closeReplay();
        Simulation s;
        try {
            s = timeline.fresh().get();
        } catch (RuntimeException e) {
            throw new Refused(409, "the Timeline's supplier failed building a simulation to replay in: " + e, e);
        }
        if (s == null) {
            throw new Refused(409, "the Timeline's supplier returned no simulation" + BUILD_AS_RECORDED, null);
        }
        try {
            s.restore(snapshot);
            RecordedInputs in = new RecordedInputs(timeline.folder().resolve(RunRecorder.JOURNAL), s.currentTick());
            s.inputs(in);
            s.onSystemFailure(in.failurePolicy());
            // a recorded skip replays as a skip: not the live run failing again, so not logged (a
            // skip in one and not the other is a divergence, reported on the page)
            s.failureListener((tick, failure, first) -> { });
            sim = s;
            simThread = Thread.currentThread();
            inputs = in;
            at = s.currentTick() - 1;
        } catch (IOException | RuntimeException e) {
            s.close();
            throw new Refused(409, "the recording in " + timeline.folder() + " cannot be replayed: " + e.getMessage()
                    + BUILD_AS_RECORDED, e);
        }
    }

    private void closeReplay() {
        if (sim != null) {
            sim.close();
            sim = null;
        }
        if (inputs != null) {
            try {
                inputs.close();
            } catch (IOException ignored) {
                // a reader of a file: nothing to flush
            }
            inputs = null;
        }
    }

    /** Stops the replay: a travel under way ends at its next tick (its request gets 503), then the thread ends. */
    @Override
    public void close() {
        closing = true;
        thread.close(this::closeReplay); // queued travels close it as they end
    }
}
