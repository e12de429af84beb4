package dev.orrery.engine.journal;

import dev.orrery.engine.CorruptJournalException;

/**
 * The order rules of the journal's records, kept once for the writer and the reader: each
 * tick is its inputs with sequences 0, 1, 2, ..., then its tick end carrying their count,
 * then at most one skipped-tick note, then at most one state hash; ticks increase; the journal ends only between ticks.
 *
 * <p>Each method checks whether a record may come next. If it may, the method advances the
 * state and returns {@code null}; if not, it leaves the state as it was and returns the
 * problem as a sentence fragment, which {@link JournalWriter} reports as a misuse
 * ({@code IllegalStateException}) and {@link JournalReader} as a damaged file
 * ({@link CorruptJournalException}).
 *
 * <p><b>Threading:</b> one thread, that of its writer or reader.
 */
final class TickFraming {
    private boolean anyEnded;
    private long lastEnded = Long.MIN_VALUE;
    private int openInputs;
    private long openTick;
    private boolean hashSeen;
    private boolean skipSeen;

    /** A copy of this state, for a {@link JournalMark} to resume from. */
    TickFraming copy() {
        TickFraming c = new TickFraming();
        c.set(this);
        return c;
    }

    /** Makes this state {@code other}'s (a reader keeps the state where its last tick began so). */
    void set(TickFraming other) {
        anyEnded = other.anyEnded;
        lastEnded = other.lastEnded;
        openInputs = other.openInputs;
        openTick = other.openTick;
        hashSeen = other.hashSeen;
        skipSeen = other.skipSeen;
    }

    /**
     * Notes that nothing more of the last tick ended may follow (no skip note, no hash): a reader
     * resumed at a mark taken between ticks stands where the next tick's first record was, so a
     * record of the tick before there means the file is not the one the mark was taken in.
     */
    void lastTickOver() {
        hashSeen = true;
        skipSeen = true;
    }

    /** Whether no tick has inputs without their tick end: the next record may begin a tick. */
    boolean noOpenInputs() {
        return openInputs == 0;
    }

    /**
     * Whether nothing more of any tick can follow: no record yet, or the last tick's hash (a
     * tick's last record) was the last record. After a tick's end or skip note its hash may still
     * come, so that is not known there.
     */
    boolean betweenTicks() {
        return openInputs == 0 && (!anyEnded || hashSeen);
    }

    /** Checks an {@code INPUT} record of {@code tick} numbered {@code sequence}. */
    String input(long tick, int sequence) {
        if (outOfOrder(tick)) {
            return "input of tick " + tick + " arrives after " + (openInputs > 0 ? "inputs of tick " + openTick
                    + " without their tick end" : "tick " + lastEnded + " ended") + "; ticks must increase and end "
                    + "in order";
        }
        if (sequence != openInputs) {
            return "input sequence " + sequence + " of tick " + tick + " where " + openInputs
                    + " was expected; sequences run 0, 1, 2 within a tick";
        }
        openTick = tick;
        openInputs++;
        return null;
    }

    /** Checks a {@code TICK_END} record of {@code tick} that counts {@code inputCount} inputs. */
    String tickEnd(long tick, int inputCount) {
        if (outOfOrder(tick)) {
            return "end of tick " + tick + " after " + (openInputs > 0 ? "inputs of tick " + openTick
                    : "tick " + lastEnded + " ended") + "; ticks must increase and end in order";
        }
        if (inputCount != openInputs) {
            return "tick " + tick + " ends with a count of " + inputCount + " inputs but " + openInputs
                    + " were recorded for it";
        }
        anyEnded = true;
        lastEnded = tick;
        openInputs = 0;
        hashSeen = false;
        skipSeen = false;
        return null;
    }

    /** Checks a {@code TICK_SKIPPED} record of {@code tick}: after its end, before its hash, once. */
    String tickSkipped(long tick) {
        if (!anyEnded || tick != lastEnded || openInputs > 0 || hashSeen || skipSeen) {
            return "skipped-tick note for tick " + tick + " must follow that tick's end, before its hash, once "
                    + "(last tick ended: " + lastEndedText() + ")";
        }
        skipSeen = true;
        return null;
    }

    /** Checks a {@code TICK_HASH} record of {@code tick}. */
    String tickHash(long tick) {
        if (!anyEnded || tick != lastEnded || openInputs > 0 || hashSeen) {
            return "state hash for tick " + tick + " must directly follow that tick's end, once (last tick ended: "
                    + lastEndedText() + ")";
        }
        hashSeen = true;
        return null;
    }

    /** Checks that the journal may end here: no tick has inputs without their tick end. */
    String end() {
        if (openInputs > 0) {
            return "the journal ends with " + openInputs + " inputs of tick " + openTick + " but no tick end";
        }
        return null;
    }

    /** The last tick ended, or {@link Long#MIN_VALUE} before any (the {@code END} record's tick). */
    long lastEnded() {
        return lastEnded;
    }

    /** The last tick ended, or "none", for messages. */
    String lastEndedText() {
        return anyEnded ? Long.toString(lastEnded) : "none";
    }

    private boolean outOfOrder(long tick) {
        return openInputs > 0 ? tick != openTick : anyEnded && tick <= lastEnded;
    }
}
