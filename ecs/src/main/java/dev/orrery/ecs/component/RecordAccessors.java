package dev.orrery.ecs.component;

import java.io.IOException;
import java.io.InputStream;
import java.lang.invoke.MethodHandle;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.MethodType;
import java.util.Arrays;
import java.util.List;

/**
 * Makes the {@link RecordAccess} of a value record type from its accessor and constructor
 * handles: three composed handles, {@code (Object value, Object[] arrays, int row)void},
 * {@code (Object value, long[] dst, int offset)void} and {@code (Object[] arrays, int row)Object},
 * installed as the class data of a hidden copy of {@link RecordAccessTemplate}, so they are
 * JIT constants. A handle kept in an ordinary field is not: each call through it would cost
 * an out-of-line call with type checks (the profile of {@code world.spawn(records)} showed
 * those as a third of a spawn). Where hidden classes cannot be defined, the same handles
 * are called from an ordinary object instead: slower, never wrong.
 *
 * <p><b>Threading:</b> {@link #of} is called at component registration, by the registering
 * world's owner; the accesses are shared by every world in the JVM, so two worlds' owners may
 * call it at once for one record class. The first call makes the access while holding that
 * class's slot's monitor, and every later call reads the slot under the same monitor: one
 * access per class, and its making happens-before every caller's use. What it returns is
 * stateless.
 */
final class RecordAccessors {
    private static final MethodHandles.Lookup LOOKUP = MethodHandles.lookup();
    private static final byte[] TEMPLATE = template();
    // Argument slots a method handle may take is 255; the widest all-accessors-first writer
    // stays well below, with room for the adapters' own.
    private static final int MAX_HANDLE_SLOTS = 200;
    // One access per record class for the life of the JVM, shared by every world: a new
    // hidden class per world would give each call site a new receiver class every time a
    // world is made (tests and benchmarks make many), and the JIT would stop inlining it.
    private static final ClassValue<RecordAccess[]> BY_RECORD = new ClassValue<>() {
        @Override
        protected RecordAccess[] computeValue(Class<?> type) {
            return new RecordAccess[1];
        }
    };

    private RecordAccessors() {
    }

    /**
     * The access of record class {@code record}, whose fields have {@code types}, are read by
     * {@code getters} (each {@code (Object)field}) and which {@code constructor} builds
     * ({@code (fields...)Object}); made on the first call for the class, then shared.
     */
    static RecordAccess of(Class<?> record, FieldType[] types, MethodHandle[] getters, MethodHandle constructor) {
        RecordAccess[] slot = BY_RECORD.get(record);
        synchronized (slot) {
            if (slot[0] == null) {
                slot[0] = make(types, getters, constructor);
            }
            return slot[0];
        }
    }

    private static RecordAccess make(FieldType[] types, MethodHandle[] getters, MethodHandle constructor) {
        MethodHandle write = writer(types, getters);
        MethodHandle bits = bitsWriter(types, getters);
        MethodHandle read = reader(types, constructor);
        if (TEMPLATE != null) {
            try {
                MethodHandles.Lookup hidden = LOOKUP.defineHiddenClassWithClassData(TEMPLATE, List.of(write, bits, read),
                        true);
                return (RecordAccess) hidden.findConstructor(hidden.lookupClass(), MethodType.methodType(void.class))
                        .invoke();
            } catch (Throwable cannot) {
                // fall through to the ordinary object below
            }
        }
        return new Handles(write, bits, read);
    }

    private static byte[] template() {
        try (InputStream in = RecordAccessors.class.getResourceAsStream("RecordAccessTemplate.class")) {
            return in == null ? null : in.readAllBytes();
        } catch (IOException e) {
            return null;
        }
    }

    /**
     * {@code (Object value, Object[] arrays, int row)void}: each field into its array, at
     * {@code row}, every accessor called before the first store, so an accessor that throws
     * (a validating record) leaves the row as it was. A record too wide for one method
     * handle's arguments reads and stores field by field instead.
     */
    private static MethodHandle writer(FieldType[] types, MethodHandle[] getters) {
        MethodType shape = MethodType.methodType(void.class, Object.class, Object[].class, int.class);
        int n = types.length;
        Class<?>[] fields = new Class<?>[n];
        int slots = 2; // the arrays and the row, then one or two per field
        for (int i = 0; i < n; i++) {
            fields[i] = types[i].javaType();
            slots += fields[i] == long.class || fields[i] == double.class ? 2 : 1;
        }
        if (n == 0 || slots > MAX_HANDLE_SLOTS) {
            return fieldByFieldWriter(types, getters, shape);
        }
        // (Object[] arrays, int row, f0 .. fn-1)void: the stores, in field order
        MethodHandle all = null;
        for (int i = n - 1; i >= 0; i--) {
            MethodHandle one = MethodHandles.filterArguments(store(types[i]), 0, arrayAt(types[i], i));
            one = MethodHandles.dropArguments(one, 2, Arrays.asList(fields).subList(0, i));
            one = MethodHandles.dropArguments(one, 3 + i, Arrays.asList(fields).subList(i + 1, n));
            all = all == null ? one : MethodHandles.foldArguments(all, one);
        }
        // (Object[] arrays, int row, Object value x n)void: the accessors run before the stores
        MethodHandle read = MethodHandles.filterArguments(all, 2, getters);
        int[] order = new int[2 + n];
        order[0] = 1;
        order[1] = 2; // order[2 ..] = 0: every field reads the one record
        return MethodHandles.permuteArguments(read, shape, order);
    }

    /** {@link #writer} for a record too wide for one handle: each field read, then stored, in turn. */
    private static MethodHandle fieldByFieldWriter(FieldType[] types, MethodHandle[] getters, MethodType shape) {
        MethodHandle all = null;
        for (int i = types.length - 1; i >= 0; i--) {
            // (array, row, value)void, then (Object[] arrays, row, Object record)void
            MethodHandle one = MethodHandles.filterArguments(store(types[i]), 0, arrayAt(types[i], i));
            one = MethodHandles.filterArguments(one, 2, getters[i]);
            one = MethodHandles.permuteArguments(one, shape, 1, 2, 0);
            all = all == null ? one : MethodHandles.foldArguments(all, one);
        }
        return all;
    }

    /** {@code (T[] array, int row, T value)void} for a field of {@code type}. */
    private static MethodHandle store(FieldType type) {
        return MethodHandles.arrayElementSetter(type.newArray(0).getClass());
    }

    /** {@code (Object[] arrays)T[]}: the array of field {@code i}, cast to its type. */
    private static MethodHandle arrayAt(FieldType type, int i) {
        Class<?> arrayClass = type.newArray(0).getClass();
        return MethodHandles.insertArguments(MethodHandles.arrayElementGetter(Object[].class), 1, i)
                .asType(MethodType.methodType(arrayClass, Object[].class));
    }

    /** {@code (Object value, long[] dst, int offset)void}: each field's raw bits into {@code dst[offset + i]}. */
    private static MethodHandle bitsWriter(FieldType[] types, MethodHandle[] getters) {
        MethodType shape = MethodType.methodType(void.class, Object.class, long[].class, int.class);
        MethodHandle store = MethodHandles.arrayElementSetter(long[].class); // (long[], int, long)void
        MethodHandle plus;
        try {
            plus = LOOKUP.findStatic(RecordAccessors.class, "plus", MethodType.methodType(int.class, int.class, int.class));
        } catch (ReflectiveOperationException e) {
            throw new IllegalStateException(e);
        }
        MethodHandle all = null;
        for (int i = types.length - 1; i >= 0; i--) {
            MethodHandle bitsOf = MethodHandles.filterReturnValue(getters[i], toBits(types[i])); // (Object)long
            MethodHandle one = MethodHandles.filterArguments(store, 1, MethodHandles.insertArguments(plus, 1, i));
            one = MethodHandles.filterArguments(one, 2, bitsOf); // (long[], int offset, Object)void
            one = MethodHandles.permuteArguments(one, shape, 1, 2, 0);
            all = all == null ? one : MethodHandles.foldArguments(all, one);
        }
        return all;
    }

    /** {@code (field)long}: the field's raw bits, as {@link FieldType#bits} reads them back. */
    private static MethodHandle toBits(FieldType type) {
        try {
            switch (type) {
                case BOOLEAN:
                    return LOOKUP.findStatic(RecordAccessors.class, "bits", MethodType.methodType(long.class, boolean.class));
                case FLOAT:
                    return LOOKUP.findStatic(Float.class, "floatToRawIntBits", MethodType.methodType(int.class, float.class))
                            .asType(MethodType.methodType(long.class, float.class));
                case DOUBLE:
                    return LOOKUP.findStatic(Double.class, "doubleToRawLongBits",
                            MethodType.methodType(long.class, double.class));
                case OBJECT:
                    throw new IllegalStateException("value field of type OBJECT");
                default: // byte, short, int and long widen with their sign; char without
                    return MethodHandles.identity(long.class).asType(MethodType.methodType(long.class, type.javaType()));
            }
        } catch (ReflectiveOperationException e) {
            throw new IllegalStateException(e);
        }
    }

    /** {@code (Object[] arrays, int row)Object}: a new record from row {@code row}. */
    private static MethodHandle reader(FieldType[] types, MethodHandle constructor) {
        MethodHandle element = MethodHandles.arrayElementGetter(Object[].class);
        MethodHandle all = constructor; // (f0, .., fn-1)Object
        for (int i = types.length - 1; i >= 0; i--) {
            Class<?> arrayClass = types[i].newArray(0).getClass();
            MethodHandle arrayAt = MethodHandles.insertArguments(element, 1, i)
                    .asType(MethodType.methodType(arrayClass, Object[].class));
            MethodHandle load = MethodHandles.filterArguments(MethodHandles.arrayElementGetter(arrayClass), 0, arrayAt);
            all = MethodHandles.collectArguments(all, i, load); // field i becomes (Object[] arrays, int row)
        }
        int[] order = new int[types.length * 2];
        for (int i = 0; i < types.length; i++) {
            order[2 * i] = 0;
            order[2 * i + 1] = 1;
        }
        return MethodHandles.permuteArguments(all, MethodType.methodType(Object.class, Object[].class, int.class), order);
    }

    private static int plus(int a, int b) {
        return a + b;
    }

    private static long bits(boolean b) {
        return b ? 1L : 0L;
    }

    /** The same handles behind an ordinary object, where no hidden class could be defined. */
    private static final class Handles implements RecordAccess {
        private final MethodHandle write;
        private final MethodHandle bits;
        private final MethodHandle read;

        Handles(MethodHandle write, MethodHandle bits, MethodHandle read) {
            this.write = write;
            this.bits = bits;
            this.read = read;
        }

        @Override
        public void write(Object value, Object[] arrays, int row) {
            try {
                write.invokeExact(value, arrays, row);
            } catch (Throwable t) {
                throw RecordAccess.unchecked(t);
            }
        }

        @Override
        public void writeBits(Object value, long[] dst, int offset) {
            try {
                bits.invokeExact(value, dst, offset);
            } catch (Throwable t) {
                throw RecordAccess.unchecked(t);
            }
        }

        @Override
        public Object read(Object[] arrays, int row) {
            try {
                return read.invokeExact(arrays, row);
            } catch (Throwable t) {
                throw RecordAccess.unchecked(t);
            }
        }
    }
}
