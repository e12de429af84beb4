package dev.orrery.engine;

import dev.orrery.scheduler.EventKey;
import dev.orrery.scheduler.FixedTimestep;
import dev.orrery.scheduler.States;
import dev.orrery.scheduler.event.EventChannel;
import dev.orrery.scheduler.internal.SchedulerInternals;
import java.io.DataInput;
import java.io.DataOutput;
import java.io.IOException;
import java.lang.reflect.Array;

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
 * <p><b>Threading:</b> stateless; used on the tick thread between ticks.
 */
final class FlowCodecs {
    private FlowCodecs() {
    }

    /** The codec of a {@link FixedTimestep}. */
    public static ResourceCodec<FixedTimestep> fixedTimestep() {
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
                return SchedulerInternals.restore(in.readLong(), in.readLong(), in.readInt(), in.readLong(), in.readLong(),
                        in.readLong());
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
                S current = value(type, in.readUTF());
                S requested = in.readBoolean() ? value(type, in.readUTF()) : null;
                return SchedulerInternals.restore(type, current, requested, in.readBoolean());
            }
        };
    }

    private static <S extends Enum<S>> S value(Class<S> type, String name) throws IOException {
        try {
            return Enum.valueOf(type, name);
        } catch (IllegalArgumentException e) {
            throw new IOException("state value '" + name + "' in the snapshot is not a constant of " + type.getName(), e);
        }
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
                long firstSeq = in.readLong();
                int runStart = in.readInt();
                T[] alive = (T[]) Array.newInstance(key.type(), in.readInt());
                for (int i = 0; i < alive.length; i++) {
                    alive[i] = element.read(in);
                }
                String[] names = new String[in.readInt()];
                long[] positions = new long[names.length];
                for (int i = 0; i < names.length; i++) {
                    names[i] = in.readUTF();
                    positions[i] = in.readLong();
                }
                try {
                    return EventChannel.restore(key, firstSeq, runStart, alive, names, positions);
                } catch (IllegalArgumentException e) {
                    throw new IOException(e.getMessage(), e);
                }
            }
        };
    }
}
