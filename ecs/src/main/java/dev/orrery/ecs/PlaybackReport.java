package dev.orrery.ecs;

import dev.orrery.ecs.component.Component;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.function.IntFunction;

/**
 * What one playback (one sync point) did, or several added up: how many commands of each
 * {@link CommandKind} had each {@link CommandOutcome}, the archetype moves made, and the
 * first {@value #MAX_MESSAGES} skipped or refused commands described in words.
 * {@link World#apply(CommandBuffer)} returns one per playback; the scheduler keeps another as the
 * running total of every playback at its sync points, with {@link #add}.
 *
 * <pre>{@code
 * PlaybackReport r = world.apply(buffers);
 * long reaped = r.count(CommandKind.DESPAWN, CommandOutcome.APPLIED);
 * long late = r.count(CommandKind.SET, CommandOutcome.SKIPPED_DEAD);
 * }</pre>
 *
 * <p>Counting and noting allocate nothing: the descriptions are kept as the command's parts
 * (kind, entity, component, recording system) in slots made once per report, and turned into
 * text only when {@link #messages()} or {@link #toString()} is called.
 *
 * <p><b>Threading:</b> owned by the applying thread; the report {@code world.apply} returns is
 * valid until the next {@code apply}.
 */
public final class PlaybackReport {
    /** How many skipped or refused commands are described in {@link #messages()}. */
    public static final int MAX_MESSAGES = 16;

    private static final int KINDS = CommandKind.values().length;
    private static final CommandKind[] KIND_VALUES = CommandKind.values();
    private static final CommandOutcome[] OUTCOME_VALUES = CommandOutcome.values();

    private final long[] counts = new long[KINDS * OUTCOME_VALUES.length];
    long moves;
    private final Note[] notes = new Note[MAX_MESSAGES];
    private int noteCount;
    private final Note firstRefusal = new Note();
    private boolean refusalNoted;
    private IntFunction<String> systemNames;

    /** Creates an empty report. */
    public PlaybackReport() {
        for (int i = 0; i < notes.length; i++) {
            notes[i] = new Note();
        }
    }

    void reset() {
        java.util.Arrays.fill(counts, 0);
        moves = 0;
        noteCount = 0;
        refusalNoted = false;
    }

    /** Names systems in the descriptions (the sort key's system order to a name); {@code null} numbers them. */
    void systemNames(IntFunction<String> names) {
        systemNames = names;
    }

    /**
     * Adds {@code other}'s counts to this report, and its descriptions while there is room.
     *
     * @param other the report to add, not null; it is not changed
     */
    public void add(PlaybackReport other) {
        for (int i = 0; i < counts.length; i++) {
            counts[i] += other.counts[i];
        }
        moves += other.moves;
        for (int i = 0; i < other.noteCount && noteCount < MAX_MESSAGES; i++) {
            notes[noteCount++].copy(other.notes[i]);
        }
        if (!refusalNoted && other.refusalNoted) {
            firstRefusal.copy(other.firstRefusal);
            refusalNoted = true;
        }
        if (systemNames == null) {
            systemNames = other.systemNames;
        }
    }

    /** Counts one command of opcode {@code op} with {@code outcome}. */
    void count(int op, CommandOutcome outcome) {
        counts[CommandKind.of(op).ordinal() * OUTCOME_VALUES.length + outcome.ordinal()]++;
    }

    /**
     * Counts a skipped or refused command and keeps its description while there is room:
     * {@code reason} is one of {@link Note}'s codes, {@code key} the command's sort key,
     * {@code column} and {@code aux} (a field index) what the reason needs, {@code detail}
     * a text already made (or {@code null}).
     */
    void note(int reason, int op, long key, long entity, Component<?> column, int aux, String detail) {
        CommandOutcome outcome = Note.outcome(reason);
        if (outcome != null) {
            count(op, outcome);
        }
        if (noteCount < MAX_MESSAGES) {
            notes[noteCount++].set(reason, op, key, entity, column, aux, detail);
        }
        if (outcome == CommandOutcome.REFUSED && !refusalNoted) {
            firstRefusal.set(reason, op, key, entity, column, aux, detail);
            refusalNoted = true;
        }
    }

    /** Notes a pair command on live {@code holder} skipped because its {@code target} is dead; allocates nothing. */
    /** A removePair that found no such pair: {@code held} is how many pairs of the relation the holder holds. */
    void noteMissingPair(int op, long key, long holder, Component<?> column, long target, int held) {
        int before = noteCount;
        note(Note.REMOVE_PAIR_MISSING, op, key, holder, column, held, null);
        if (noteCount > before) { // kept (the first MAX_MESSAGES only)
            notes[before].other = target;
        }
    }

    void noteDeadTarget(int op, long key, long holder, Component<?> column, long target) {
        int before = noteCount;
        note(Note.DEAD_TARGET, op, key, holder, column, 0, null);
        if (noteCount > before) { // kept (the first MAX_MESSAGES only)
            notes[before].other = target;
        }
    }

    /**
     * How many commands of {@code kind} had {@code outcome}.
     *
     * @param kind the command kind
     * @param outcome the outcome
     * @return the count, 0 or more
     */
    public long count(CommandKind kind, CommandOutcome outcome) {
        return counts[kind.ordinal() * OUTCOME_VALUES.length + outcome.ordinal()];
    }

    /**
     * How many commands of any kind had {@code outcome}.
     *
     * @param outcome the outcome
     * @return the sum over every kind, 0 or more
     */
    public long count(CommandOutcome outcome) {
        long sum = 0;
        for (int k = 0; k < KINDS; k++) {
            sum += counts[k * OUTCOME_VALUES.length + outcome.ordinal()];
        }
        return sum;
    }

    /**
     * Commands applied.
     *
     * @return the commands of every kind with {@link CommandOutcome#APPLIED}, 0 or more
     */
    public long applied() {
        return count(CommandOutcome.APPLIED);
    }

    /**
     * Archetype moves made: a batch of adds and removes on one entity makes one move.
     *
     * @return the moves, 0 or more
     */
    public long moves() {
        return moves;
    }

    /**
     * Commands skipped because their entity was dead (despawned, earlier in this playback or before).
     *
     * @return the commands with {@link CommandOutcome#SKIPPED_DEAD}, 0 or more
     */
    public long skippedDead() {
        return count(CommandOutcome.SKIPPED_DEAD);
    }

    /**
     * Removes of a component the entity did not hold (no-ops).
     *
     * @return the removes with {@link CommandOutcome#NO_OP}, 0 or more
     */
    public long removedMissing() {
        return count(CommandKind.REMOVE, CommandOutcome.NO_OP);
    }

    /**
     * Commands refused as invalid (duplicate instance name, set of a missing component, unresolved handle).
     *
     * @return the commands with {@link CommandOutcome#REFUSED}, 0 or more
     */
    public long rejected() {
        return count(CommandOutcome.REFUSED);
    }

    /**
     * True when no command was skipped or refused.
     *
     * @return true when no command had {@link CommandOutcome#SKIPPED_DEAD},
     *     {@link CommandOutcome#NO_OP} or {@link CommandOutcome#REFUSED}
     */
    public boolean isClean() {
        return skippedDead() == 0 && count(CommandOutcome.NO_OP) == 0 && rejected() == 0;
    }

    /**
     * Descriptions of the first skipped or refused commands (made on each call).
     *
     * @return an unmodifiable list of at most {@value #MAX_MESSAGES} lines, in playback order;
     *     empty for a clean report
     */
    public List<String> messages() {
        List<String> out = new ArrayList<>(noteCount);
        for (int i = 0; i < noteCount; i++) {
            out.add(notes[i].describe(systemNames));
        }
        return Collections.unmodifiableList(out);
    }

    /** Whether the first refused command was recorded outside a schedule (for the refusal's wording). */
    boolean firstRefusalOutsideSchedule() {
        return refusalNoted && Note.outsideSchedule(systemNames, firstRefusal.systemOrder());
    }

    /**
     * The description of the first refused command, or {@code null} when none was refused.
     *
     * @return the description, worded as in {@link #messages()}, or {@code null}
     */
    public String firstRefusal() {
        return refusalNoted ? firstRefusal.describe(systemNames) : null;
    }

    /**
     * The system order (the sort key's top bits) of the first refused command, or -1 when none was refused.
     *
     * @return the system order, 0 or more, or -1
     */
    public int firstRefusalSystemOrder() {
        return refusalNoted ? firstRefusal.systemOrder() : -1;
    }

    @Override
    public String toString() {
        StringBuilder s = new StringBuilder("applied=").append(applied()).append(" moves=").append(moves)
                .append(" skippedDead=").append(skippedDead()).append(" removedMissing=").append(removedMissing())
                .append(" rejected=").append(rejected());
        for (CommandKind k : KIND_VALUES) {
            StringBuilder part = new StringBuilder();
            for (CommandOutcome o : OUTCOME_VALUES) {
                long n = count(k, o);
                if (n != 0) {
                    part.append(part.length() == 0 ? "" : ",").append(o.name().toLowerCase(java.util.Locale.ROOT))
                            .append('=').append(n);
                }
            }
            if (part.length() > 0) {
                s.append(' ').append(k.name().toLowerCase(java.util.Locale.ROOT)).append('{').append(part).append('}');
            }
        }
        List<String> m = messages();
        return m.isEmpty() ? s.toString() : s.append(' ').append(m).toString();
    }

    /** One described command, kept as its parts; a fixed slot reused by every playback. */
    static final class Note {
        static final int DEAD = 0;
        static final int REMOVE_MISSING = 1;
        static final int NAME_TAKEN = 2;
        static final int SET_MISSING = 3;
        static final int EARLY_HANDLE = 4;
        /** An entity reference naming a spawn not yet applied: stored as null, counted nowhere (the write applies). */
        static final int UNRESOLVED_REFERENCE = 5;
        /** A pair the relation store refused (a cycle, or an entity as its own target); detail says which. */
        static final int PAIR_REFUSED = 6;
        /** A generation-0 id no buffer of the playback issued (Entity.NULL, or a made-up id). */
        static final int NOT_A_HANDLE = 7;
        /** A pair command whose holder lives but whose target is dead: entity is the holder, other the target. */
        static final int DEAD_TARGET = 8;
        /**
         * A removePair of a pair the living holder does not hold, towards a living target: entity is
         * the holder, other the target, aux how many pairs of the relation the holder holds.
         */
        static final int REMOVE_PAIR_MISSING = 9;

        private int reason;
        private int op;
        private long key;
        private long entity;
        private Component<?> column;
        private int aux;
        private String detail;
        private long other;

        static CommandOutcome outcome(int reason) {
            switch (reason) {
                case DEAD, DEAD_TARGET: return CommandOutcome.SKIPPED_DEAD;
                case REMOVE_MISSING, REMOVE_PAIR_MISSING: return CommandOutcome.NO_OP;
                case UNRESOLVED_REFERENCE: return null;
                default: return CommandOutcome.REFUSED;
            }
        }

        void set(int reason, int op, long key, long entity, Component<?> column, int aux, String detail) {
            this.reason = reason;
            this.op = op;
            this.key = key;
            this.entity = entity;
            this.column = column;
            this.aux = aux;
            this.detail = detail;
            this.other = 0;
        }

        void copy(Note o) {
            set(o.reason, o.op, o.key, o.entity, o.column, o.aux, o.detail);
            other = o.other;
        }

        int systemOrder() {
            return CommandBuffer.systemOrder(key);
        }

        String describe(IntFunction<String> names) {
            String e = dev.orrery.ecs.component.Entity.toString(entity);
            String what;
            switch (reason) {
                case DEAD:
                    what = CommandKind.of(op).name().toLowerCase(java.util.Locale.ROOT)
                            + (column == null ? "" : " " + column) + " on dead entity " + e + " skipped";
                    break;
                case DEAD_TARGET:
                    what = CommandKind.of(op).name().toLowerCase(java.util.Locale.ROOT) + " " + column + " on " + e
                            + " skipped: its target " + dev.orrery.ecs.component.Entity.toString(other) + " is dead";
                    break;
                case REMOVE_MISSING:
                    what = "remove " + column + " from " + e + ": the entity does not hold it";
                    break;
                case REMOVE_PAIR_MISSING:
                    what = "remove pair (" + column.name() + ", " + dev.orrery.ecs.component.Entity.toString(other)
                            + ") from " + e + ": the entity holds no such pair (" + (aux == 0 ? "it holds no "
                            + column.name() + " pair" : "it holds " + aux + " other " + column.name() + " pair"
                            + (aux == 1 ? "" : "s")) + ")";
                    break;
                case NAME_TAKEN:
                    what = "add " + column + " to " + e + " refused: " + detail;
                    break;
                case PAIR_REFUSED:
                    what = detail;
                    break;
                case SET_MISSING:
                    what = "set " + column + " on " + e + " refused: the entity does not hold it; add it instead";
                    break;
                case EARLY_HANDLE:
                    what = CommandKind.of(op).name().toLowerCase(java.util.Locale.ROOT)
                            + (column == null ? "" : " " + column) + " on provisional handle " + e
                            + " refused: used before its spawn was applied; commands using a spawned handle must "
                            + "sort after the spawn (same or later system)";
                    break;
                case NOT_A_HANDLE:
                    what = CommandKind.of(op).name().toLowerCase(java.util.Locale.ROOT)
                            + (column == null ? "" : " " + column) + " on " + e + " refused: "
                            + (entity == dev.orrery.ecs.component.Entity.NULL ? "Entity.NULL is not an entity" : e
                            + " is not a handle spawn() returned (generation 0, and no spawn of the buffers applied "
                            + "together issued it)") + "; record commands with ids world.spawn(...) or commands.spawn() "
                            + "returned";
                    break;
                default:
                    what = "entity reference " + e + " in " + column + "." + column.type().fieldName(aux)
                            + " names a spawn not yet applied; stored as Entity.NULL";
                    break;
            }
            return what + " (recorded by " + systemName(names, systemOrder()) + ")";
        }

        static String systemName(IntFunction<String> names, int order) {
            if (outsideSchedule(names, order)) {
                return "code outside a schedule, applied with world.apply";
            }
            String name = names == null ? null : names.apply(order);
            return name == null ? "system #" + order + " in schedule order, or code outside a schedule"
                    : "system '" + name + "'";
        }

        /**
         * Whether a command was recorded outside a schedule: no system names were given (a
         * schedule's sync point always gives them) and its key has system order 0, which only a
         * schedule's playback sets otherwise.
         */
        static boolean outsideSchedule(IntFunction<String> names, int order) {
            return names == null && order == 0;
        }
    }
}
