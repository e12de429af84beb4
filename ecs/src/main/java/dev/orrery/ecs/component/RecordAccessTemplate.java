package dev.orrery.ecs.component;

import java.lang.constant.ConstantDescs;
import java.lang.invoke.MethodHandle;
import java.lang.invoke.MethodHandles;
import java.util.List;

/**
 * The class file {@link RecordAccessors} defines once per record type as a hidden class,
 * with that type's three composed method handles as its class data. Each hidden copy holds
 * them in {@code static final} fields, which the JIT treats as constants: it inlines the
 * getters, the casts and the array stores into {@link #write}, as if the class had been
 * written by hand for the record. This class itself is never loaded as such; only its bytes
 * are read.
 */
final class RecordAccessTemplate implements RecordAccess {
    private static final MethodHandle WRITE;
    private static final MethodHandle WRITE_BITS;
    private static final MethodHandle READ;

    static {
        try {
            @SuppressWarnings("unchecked")
            List<MethodHandle> handles = MethodHandles.classData(MethodHandles.lookup(), ConstantDescs.DEFAULT_NAME,
                    List.class);
            WRITE = handles.get(0);
            WRITE_BITS = handles.get(1);
            READ = handles.get(2);
        } catch (IllegalAccessException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    @Override
    public void write(Object value, Object[] arrays, int row) {
        try {
            WRITE.invokeExact(value, arrays, row);
        } catch (Throwable t) {
            throw RecordAccess.unchecked(t);
        }
    }

    @Override
    public void writeBits(Object value, long[] dst, int offset) {
        try {
            WRITE_BITS.invokeExact(value, dst, offset);
        } catch (Throwable t) {
            throw RecordAccess.unchecked(t);
        }
    }

    @Override
    public Object read(Object[] arrays, int row) {
        try {
            return READ.invokeExact(arrays, row);
        } catch (Throwable t) {
            throw RecordAccess.unchecked(t);
        }
    }
}
