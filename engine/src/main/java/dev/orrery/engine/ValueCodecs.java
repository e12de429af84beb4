package dev.orrery.engine;

import java.io.DataInput;
import java.io.DataOutput;
import java.io.IOException;
import java.lang.invoke.MethodHandle;
import java.lang.invoke.MethodHandles;
import java.lang.reflect.RecordComponent;
import java.util.HashMap;
import java.util.Map;

/**
 * Snapshot codecs made from a type itself, for values a simulation carries through snapshots
 * without being told how: the events of a channel the schedule made. A type qualifies when it
 * is a primitive's box, a {@code String}, an enum (by name, so reordering it keeps snapshots
 * readable) or a record whose components all qualify; anything else has no derived codec and
 * needs one registered ({@code SimulationBuilder.events}).
 *
 * <p><b>Layout</b> (big-endian): a box or a primitive component as {@code DataOutput} writes
 * it; a {@code String} or an enum as {@code boolean present | UTF}; a record as its components
 * in declaration order, behind a {@code boolean present} when it is a component of another.
 * Part of the snapshot format.
 *
 * <p><b>Threading:</b> codecs are immutable; made and used on the tick thread.
 */
final class ValueCodecs {
    private ValueCodecs() {
    }

    /** A codec for values of {@code type}, or {@code null} when the type does not qualify. */
    @SuppressWarnings("unchecked")
    static <T> ResourceCodec<T> of(Class<T> type) {
        Field f = field(type, new HashMap<>());
        if (f == null) {
            return null;
        }
        return new ResourceCodec<>() {
            @Override
            public void write(T value, DataOutput out) throws IOException {
                f.write(value, out);
            }

            @Override
            public T read(DataInput in) throws IOException {
                return (T) f.read(in);
            }
        };
    }

    /** How one value of a type is written and read. */
    private interface Field {
        void write(Object value, DataOutput out) throws IOException;

        Object read(DataInput in) throws IOException;
    }

    private static Field field(Class<?> type, Map<Class<?>, Boolean> visiting) {
        Field primitive = primitive(type);
        if (primitive != null) {
            return primitive;
        }
        if (type == String.class) {
            return nullable(new Field() {
                @Override
                public void write(Object v, DataOutput out) throws IOException {
                    out.writeUTF((String) v);
                }

                @Override
                public Object read(DataInput in) throws IOException {
                    return in.readUTF();
                }
            });
        }
        if (type.isEnum()) {
            return nullable(enumField(type));
        }
        if (type.isRecord() && visiting.put(type, Boolean.TRUE) == null) {
            try {
                Field record = recordField(type, visiting);
                return record == null ? null : nullable(record); // a component none can write: no codec at all
            } finally {
                visiting.remove(type);
            }
        }
        return null;
    }

    @SuppressWarnings({"unchecked", "rawtypes"})
    private static Field enumField(Class<?> type) {
        return new Field() {
            @Override
            public void write(Object v, DataOutput out) throws IOException {
                out.writeUTF(((Enum<?>) v).name());
            }

            @Override
            public Object read(DataInput in) throws IOException {
                String name = in.readUTF();
                try {
                    return Enum.valueOf((Class) type, name);
                } catch (IllegalArgumentException e) {
                    throw new IOException("'" + name + "' in the snapshot is not a constant of " + type.getName(), e);
                }
            }
        };
    }

    private static Field recordField(Class<?> type, Map<Class<?>, Boolean> visiting) {
        RecordComponent[] rcs = type.getRecordComponents();
        Field[] fields = new Field[rcs.length];
        MethodHandle[] getters = new MethodHandle[rcs.length];
        Class<?>[] types = new Class<?>[rcs.length];
        MethodHandles.Lookup lookup = MethodHandles.lookup();
        MethodHandle ctor;
        try {
            for (int i = 0; i < rcs.length; i++) {
                types[i] = rcs[i].getType();
                fields[i] = types[i].isPrimitive() ? primitive(types[i]) : field(types[i], visiting);
                if (fields[i] == null) {
                    return null;
                }
                var accessor = rcs[i].getAccessor();
                accessor.setAccessible(true);
                getters[i] = lookup.unreflect(accessor);
            }
            var c = type.getDeclaredConstructor(types);
            c.setAccessible(true);
            ctor = lookup.unreflectConstructor(c);
        } catch (ReflectiveOperationException | RuntimeException e) {
            return null; // not readable here: the user registers a codec
        }
        return new Field() {
            @Override
            public void write(Object v, DataOutput out) throws IOException {
                for (int i = 0; i < fields.length; i++) {
                    fields[i].write(invoke(getters[i], v), out);
                }
            }

            @Override
            public Object read(DataInput in) throws IOException {
                Object[] args = new Object[fields.length];
                for (int i = 0; i < fields.length; i++) {
                    args[i] = fields[i].read(in);
                }
                try {
                    return ctor.invokeWithArguments(args);
                } catch (Throwable t) {
                    throw new IOException("rebuilding a " + type.getSimpleName() + " from the snapshot failed: " + t, t);
                }
            }
        };
    }

    private static Object invoke(MethodHandle getter, Object target) throws IOException {
        try {
            return getter.invoke(target);
        } catch (Throwable t) {
            throw new IOException("reading a record component failed: " + t, t);
        }
    }

    private static Field nullable(Field f) {
        return new Field() {
            @Override
            public void write(Object v, DataOutput out) throws IOException {
                out.writeBoolean(v != null);
                if (v != null) {
                    f.write(v, out);
                }
            }

            @Override
            public Object read(DataInput in) throws IOException {
                return in.readBoolean() ? f.read(in) : null;
            }
        };
    }

    /** A primitive or its box (boxes are non-null: a null box cannot be written). */
    private static Field primitive(Class<?> t) {
        if (t == int.class || t == Integer.class) {
            return of(v -> ((Integer) v), DataOutput::writeInt, DataInput::readInt);
        }
        if (t == long.class || t == Long.class) {
            return of(v -> ((Long) v), DataOutput::writeLong, DataInput::readLong);
        }
        if (t == float.class || t == Float.class) {
            return of(v -> ((Float) v), DataOutput::writeFloat, DataInput::readFloat);
        }
        if (t == double.class || t == Double.class) {
            return of(v -> ((Double) v), DataOutput::writeDouble, DataInput::readDouble);
        }
        if (t == boolean.class || t == Boolean.class) {
            return of(v -> ((Boolean) v), DataOutput::writeBoolean, DataInput::readBoolean);
        }
        if (t == byte.class || t == Byte.class) {
            return of(v -> ((Byte) v), (out, b) -> out.writeByte(b), DataInput::readByte);
        }
        if (t == short.class || t == Short.class) {
            return of(v -> ((Short) v), (out, s) -> out.writeShort(s), DataInput::readShort);
        }
        if (t == char.class || t == Character.class) {
            return of(v -> ((Character) v), (out, c) -> out.writeChar(c), DataInput::readChar);
        }
        return null;
    }

    private interface Writer<V> {
        void write(DataOutput out, V v) throws IOException;
    }

    private interface Reader<V> {
        V read(DataInput in) throws IOException;
    }

    private static <V> Field of(java.util.function.Function<Object, V> cast, Writer<V> w, Reader<V> r) {
        return new Field() {
            @Override
            public void write(Object v, DataOutput out) throws IOException {
                w.write(out, cast.apply(v));
            }

            @Override
            public Object read(DataInput in) throws IOException {
                return r.read(in);
            }
        };
    }
}
