package dev.orrery.engine;

import dev.orrery.ecs.SnapshotException;
import dev.orrery.ecs.SnapshotInput;
import dev.orrery.scheduler.EventKey;
import dev.orrery.scheduler.FixedTimestep;
import dev.orrery.scheduler.States;
import dev.orrery.scheduler.event.EventChannel;
import dev.orrery.scheduler.internal.SchedulerInternals;
import java.io.DataInput;
import java.io.DataOutput;
import java.io.IOException;
import java.lang.reflect.Array;
import java.util.Arrays;

/**
 * Snapshot codecs for the scheduler's flow resources, so a simulation restored from a
 * mid-run snapshot goes on exactly as the original run: an event channel's events still
 * alive (those sent in the last tick, which readers earlier in the schedule read next tick)
 * with every reader's position, a state machine's value and pending request, and a fixed
 * timestep's accumulator.
 *
 * <p>{@link SimulationBuilder#resource(dev.orrery.scheduler.ResourceKey, Object)} picks the state
 * and fixed-step codecs by the value's type; {@link SimulationBuilder#events} registers an event
 * channel's.
 *
 * <p><b>Layouts</b> (big-endian, part of the snapshot format): a fixed timestep is
 * {@code long step | long perRun | int maxSteps | long accumulated | long steps | long dropped};
 * a state machine {@code UTF current | boolean requested [UTF requested] | boolean entered}
 * (values by name, so reordering the enum keeps snapshots readable); an event channel
 * {@code long firstSeq | int runStart | int count | count events (each by the element codec)
 * | int readers | per reader UTF name, long position}.
 *
 * <p><b>Reading</b> checks every value against what the restored object will do with it, so a
 * snapshot that would fail later (a reader position past the channel's last event, a fixed
 * step that cannot advance) is refused when it is read, naming the offset: a channel holds at
 * most {@value #MAX_EVENTS} events, its run start lies within them, each reader position in
 * {@code [0, firstSeq + count]}, no reader twice; a fixed step's accumulated time lies in
 * {@code [0, step)}; a state's values are constants of its enum.
 *
 * <p><b>Threading:</b> stateless; used on the tick thread between ticks.
 */
final class FlowCodecs {
    /** The most events a channel's snapshot may hold (an event codec may write no bytes, so the bytes do not bound it). */
    static final int MAX_EVENTS = 1 << 24;

    private FlowCodecs() {
    }

    /**
     * The codec of a {@link FixedTimestep}. Reading refuses a step or a most-steps-a-run other
     * than those of {@code configured} (the restoring simulation's own timestep, which no run
     * changes): a snapshot with another is from a simulation built otherwise, and a most-steps
     * the bytes chose would let one tick run the phase up to 2^31 times.
     *
     * @param configured the restoring simulation's timestep, asked when a snapshot is read
     */
    public static ResourceCodec<FixedTimestep> fixedTimestep(java.util.function.Supplier<FixedTimestep> configured) {
        return new ResourceCodec<>() {
            @Override
            public void write(FixedTimestep v, DataOutput out) throws IOException {
                out.writeLong(v.stepUnits());
                out.writeLong(v.unitsPerRun());
                out.writeInt(v.maxStepsPerRun());
                out.writeLong(v.accumulated());
                out.writeLong(v.steps());
                out.writeLong(v.droppedSteps());
            }

            @Override
            public FixedTimestep read(DataInput in) throws IOException {
                int at = at(in);
                long step = in.readLong();
                long perRun = in.readLong();
                int maxSteps = in.readInt();
                long accumulated = in.readLong();
                long steps = in.readLong();
                long dropped = in.readLong();
                if (step <= 0 || perRun < 0 || perRun > Long.MAX_VALUE - step || maxSteps < 1) {
                    throw refuse(in, at, "a fixed timestep of step " + step + ", " + perRun + " a run and at most "
                            + maxSteps + " steps a run; the step must be above 0, what a run adds 0 or more (and "
                            + "less than " + Long.MAX_VALUE + " minus the step), the most steps at least 1");
                }
                FixedTimestep own = configured.get();
                if (own != null && (step != own.stepUnits() || maxSteps != own.maxStepsPerRun())) {
                    throw refuse(in, at, "a fixed timestep of step " + step + " and at most " + maxSteps + " steps a run, "
                            + "but this simulation's has step " + own.stepUnits() + " and at most " + own.maxStepsPerRun()
                            + "; the snapshot was written by a simulation built otherwise: build this one as the one "
                            + "that wrote it");
                }
                if (accumulated < 0 || accumulated >= step || steps < 0 || dropped < 0) {
                    throw refuse(in, at, "a fixed timestep that has accumulated " + accumulated + " of a step of " + step
                            + " and counts " + steps + " steps and " + dropped + " dropped; the accumulated time must be "
                            + "in [0, step) and the counts 0 or more");
                }
                return SchedulerInternals.restore(step, perRun, maxSteps, accumulated, steps, dropped);
            }
        };
    }

    /** The codec of a {@link States} machine over {@code type}. */
    public static <S extends Enum<S>> ResourceCodec<States<S>> states(Class<S> type) {
        return new ResourceCodec<>() {
            @Override
            public void write(States<S> v, DataOutput out) throws IOException {
                out.writeUTF(v.current().name());
                out.writeBoolean(v.requested() != null);
                if (v.requested() != null) {
                    out.writeUTF(v.requested().name());
                }
                out.writeBoolean(v.entered());
            }

            @Override
            public States<S> read(DataInput in) throws IOException {
                S current = value(type, in);
                S requested = in.readBoolean() ? value(type, in) : null;
                return SchedulerInternals.restore(type, current, requested, in.readBoolean());
            }
        };
    }

    private static <S extends Enum<S>> S value(Class<S> type, DataInput in) throws IOException {
        int at = at(in);
        String name = in.readUTF();
        for (S s : type.getEnumConstants()) {
            if (s.name().equals(name)) {
                return s;
            }
        }
        throw refuse(in, at, "state value " + SnapshotInput.quote(name) + " is not a constant of " + type.getName());
    }

    /** The offset {@code in} reads next, where it is a snapshot's input (it always is when a simulation restores). */
    private static int at(DataInput in) {
        return in instanceof SnapshotInput s ? s.position() : -1;
    }

    /** The refusal of a value read from {@code at}: a snapshot's input names its section and that offset. */
    private static SnapshotException refuse(DataInput in, int at, String problem) {
        return in instanceof SnapshotInput s ? s.corruptAt(at, problem)
                : new SnapshotException(problem + "; the snapshot is corrupted");
    }

    /**
     * The codec of {@code key}'s {@link EventChannel}, writing each event with
     * {@code element}. The channel must have no pending job events, as between ticks.
     */
    public static <T> ResourceCodec<EventChannel<T>> events(EventKey<T> key, ResourceCodec<T> element) {
        return new ResourceCodec<>() {
            @Override
            public void write(EventChannel<T> v, DataOutput out) throws IOException {
                out.writeLong(v.firstSequence());
                out.writeInt(v.runStart());
                out.writeInt(v.size());
                for (int i = 0; i < v.size(); i++) {
                    element.write(v.get(i), out);
                }
                out.writeInt(v.readerCount());
                for (int i = 0; i < v.readerCount(); i++) {
                    out.writeUTF(v.readerName(i));
                    out.writeLong(v.readerPosition(i));
                }
            }

            @Override
            @SuppressWarnings("unchecked")
            public EventChannel<T> read(DataInput in) throws IOException {
                int at = at(in);
                long firstSeq = in.readLong();
                int runStart = in.readInt();
                int countAt = at(in);
                int count = in.readInt();
                if (firstSeq < 0 || count < 0 || count > MAX_EVENTS || firstSeq > Long.MAX_VALUE - count
                        || runStart < 0 || runStart > count) {
                    throw refuse(in, at, "event channel '" + key.name() + "' starts at sequence number " + firstSeq
                            + " with " + count + " events, the last run's from index " + runStart + "; the sequence "
                            + "number must be 0 or more, the count 0 to " + MAX_EVENTS + ", the run start 0 to the count");
                }
                // Grown as events are read, so a count the bytes cannot back allocates nothing up front.
                int remaining = in instanceof SnapshotInput s ? s.remaining() : count;
                Object[] alive = new Object[Math.min(count, remaining + 1)];
                for (int i = 0; i < count; i++) {
                    if (i == alive.length) {
                        alive = Arrays.copyOf(alive, (int) Math.min(count, 2L * alive.length + 16));
                    }
                    Object e = element.read(in);
                    if (e == null || !key.type().isInstance(e)) {
                        throw refuse(in, countAt, "event " + i + " of channel '" + key.name() + "' reads as "
                                + (e == null ? "null" : "a " + e.getClass().getName()) + ", not a "
                                + key.type().getName());
                    }
                    alive[i] = e;
                }
                int readersAt = at(in);
                int readers = in.readInt();
                if (readers < 0 || in instanceof SnapshotInput s && (long) readers * (2 + 8) > s.remaining()) {
                    throw refuse(in, readersAt, "event channel '" + key.name() + "' gives " + readers
                            + " readers, more than its bytes hold");
                }
                String[] names = new String[readers];
                long[] positions = new long[readers];
                java.util.Set<String> seen = new java.util.HashSet<>();
                for (int i = 0; i < readers; i++) {
                    int readerAt = at(in);
                    names[i] = in.readUTF();
                    positions[i] = in.readLong();
                    if (!seen.add(names[i])) {
                        throw refuse(in, readerAt, "event channel '" + key.name() + "' lists reader "
                                + SnapshotInput.quote(names[i]) + " twice");
                    }
                    if (positions[i] < 0 || positions[i] > firstSeq + count) {
                        throw refuse(in, readerAt, "reader " + SnapshotInput.quote(names[i]) + " of event channel '" + key.name()
                                + "' has read up to sequence number " + positions[i] + ", outside 0.." + (firstSeq + count)
                                + " (the channel's events run from " + firstSeq + " to " + (firstSeq + count) + ")");
                    }
                }
                T[] typed = (T[]) Arrays.copyOf(alive, count, ((T[]) Array.newInstance(key.type(), 0)).getClass());
                return EventChannel.restore(key, firstSeq, runStart, typed, names, positions);
            }
        };
    }
}
