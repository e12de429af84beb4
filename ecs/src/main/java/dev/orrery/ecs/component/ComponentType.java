package dev.orrery.ecs.component;

import java.lang.invoke.MethodHandle;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.MethodType;
import java.lang.reflect.Constructor;
import java.lang.reflect.Method;
import java.lang.reflect.RecordComponent;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * The schema of one component type: its Java class, how it is stored, and for a value
 * component its fields in declaration order. Reflection runs once, here, at registration;
 * reading and writing field values afterwards goes through method handles typed to the
 * primitive field, so no value is boxed on the write path.
 *
 * <p>One type may back several columns (named instances), see {@link Component}.
 *
 * @param <T> the component's Java type
 */
public final class ComponentType<T> {
    private final int id;
    private final Class<T> javaClass;
    private final ComponentKind kind;
    private final String[] fieldNames;
    private final FieldType[] fieldTypes;
    // A value record's fields to and from its arrays, through handles the JIT sees as
    // constants (a hidden class per record type, see RecordAccessors); null for the others.
    private final RecordAccess access;
    private final int rowBytes;
    private final boolean[] entityRefs;
    // The @EntityRef fields and their getters ((Object) -> long), or null when the type has none:
    // the direct writes' provisional-handle check reads only these, and only for such types.
    private final int[] entityRefFields;
    private final MethodHandle[] entityRefGetters;
    // The @Range of each field, or null: read once here, checked by the world's boundary writes.
    private final FieldRange[] ranges;

    private ComponentType(int id, Class<T> javaClass, ComponentKind kind, String[] fieldNames,
                          FieldType[] fieldTypes, MethodHandle[] getters, MethodHandle constructor) {
        this.id = id;
        this.javaClass = javaClass;
        this.kind = kind;
        this.fieldNames = fieldNames;
        this.fieldTypes = fieldTypes;
        this.access = kind == ComponentKind.VALUE ? RecordAccessors.of(javaClass, fieldTypes, getters, constructor) : null;
        this.entityRefs = new boolean[fieldTypes.length];
        this.ranges = new FieldRange[fieldTypes.length];
        if (javaClass.isRecord()) {
            RecordComponent[] rcs = javaClass.getRecordComponents();
            for (int i = 0; i < rcs.length && i < entityRefs.length; i++) {
                entityRefs[i] = rcs[i].isAnnotationPresent(EntityRef.class);
                ranges[i] = rangeOf(rcs[i], fieldTypes[i], javaClass);
            }
        }
        int refs = 0;
        for (int i = 0; kind == ComponentKind.VALUE && i < entityRefs.length; i++) {
            refs += entityRefs[i] ? 1 : 0;
        }
        this.entityRefFields = refs == 0 ? null : new int[refs];
        this.entityRefGetters = refs == 0 ? null : new MethodHandle[refs];
        for (int i = 0, k = 0; refs > 0 && i < entityRefs.length; i++) {
            if (entityRefs[i]) {
                entityRefFields[k] = i;
                entityRefGetters[k++] = getters[i];
            }
        }
        int bytes = 0;
        for (FieldType t : fieldTypes) {
            bytes += t.bytes();
        }
        this.rowBytes = bytes;
    }

    /**
     * Builds the schema of a value or tag component from a record. A record with no
     * components is a tag; otherwise every component must be a primitive.
     *
     * @throws IllegalArgumentException naming the first field whose type is not a primitive
     */
    static <T> ComponentType<T> ofRecord(int id, Class<T> type) {
        if (!type.isRecord()) {
            throw new IllegalArgumentException(type.getName() + " is not a record: declare value components as "
                    + "records of primitive fields, or register it with World.referenceComponent(" + type.getSimpleName()
                    + ".class)");
        }
        RecordComponent[] rcs = type.getRecordComponents();
        if (rcs.length == 0) {
            return new ComponentType<>(id, type, ComponentKind.TAG, new String[0], new FieldType[0], new MethodHandle[0],
                    null);
        }
        String[] names = new String[rcs.length];
        FieldType[] types = new FieldType[rcs.length];
        MethodHandle[] getters = new MethodHandle[rcs.length];
        Class<?>[] paramTypes = new Class<?>[rcs.length];
        MethodHandles.Lookup lookup = MethodHandles.lookup();
        for (int i = 0; i < rcs.length; i++) {
            RecordComponent rc = rcs[i];
            FieldType ft = FieldType.ofPrimitive(rc.getType());
            if (ft == null) {
                throw new IllegalArgumentException("component " + type.getName() + " field '" + rc.getName() + "' has type "
                        + rc.getType().getTypeName() + ", which a value component cannot hold: use boolean, byte, short, "
                        + "char, int, long, float or double, or register the type with World.referenceComponent("
                        + type.getSimpleName() + ".class) to store it as an object");
            }
            if (rc.isAnnotationPresent(EntityRef.class) && ft != FieldType.LONG) {
                throw new IllegalArgumentException("component " + type.getName() + " field '" + rc.getName()
                        + "' is marked @EntityRef but is " + rc.getType().getTypeName() + "; entity ids are long");
            }
            names[i] = rc.getName();
            types[i] = ft;
            paramTypes[i] = rc.getType();
            Method accessor = rc.getAccessor();
            try {
                accessor.setAccessible(true);
                getters[i] = lookup.unreflect(accessor).asType(MethodType.methodType(rc.getType(), Object.class));
            } catch (ReflectiveOperationException | RuntimeException e) {
                throw inaccessible(type, e);
            }
        }
        MethodHandle ctor;
        try {
            Constructor<T> c = type.getDeclaredConstructor(paramTypes);
            c.setAccessible(true);
            ctor = lookup.unreflectConstructor(c).asType(MethodType.methodType(Object.class, paramTypes));
        } catch (ReflectiveOperationException | RuntimeException e) {
            throw inaccessible(type, e);
        }
        return new ComponentType<>(id, type, ComponentKind.VALUE, names, types, getters, ctor);
    }

    /** The field's {@link Range} as a checked validator, or null when it has none. */
    private static FieldRange rangeOf(RecordComponent rc, FieldType type, Class<?> record) {
        Range r = rc.getAnnotation(Range.class);
        if (r == null) {
            return null;
        }
        String where = "component " + record.getName() + " field '" + rc.getName() + "' (@Range)";
        FieldRange range;
        try {
            range = new FieldRange(r.min(), r.max());
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException(where + ": " + e.getMessage(), e);
        }
        range.checkFits(type, where);
        return range;
    }

    /** Builds the schema of a reference component: one object slot per row. */
    static <T> ComponentType<T> ofReference(int id, Class<T> type) {
        return new ComponentType<>(id, type, ComponentKind.REFERENCE, new String[] {"value"},
                new FieldType[] {FieldType.OBJECT}, new MethodHandle[0], null);
    }

    private static IllegalArgumentException inaccessible(Class<?> type, Exception cause) {
        Module m = type.getModule();
        String pkg = type.getPackageName();
        String fix = m.isNamed() ? "module " + m.getName() + " does not open package " + pkg + " to dev.orrery.ecs: "
                + "add 'opens " + pkg + " to dev.orrery.ecs;' to the module-info.java of module " + m.getName()
                : "if it lives in a named module, open its package to dev.orrery.ecs";
        return new IllegalArgumentException("cannot access the record " + type.getName() + "; " + fix + " (" + cause
                + ")", cause);
    }

    /**
     * Dense id of this type within its world's registry.
     *
     * @return the type's id, from 0 in registration order, one per Java class in the world
     */
    public int id() {
        return id;
    }

    /**
     * The Java class of the component.
     *
     * @return the class it was registered with, never null
     */
    public Class<T> javaClass() {
        return javaClass;
    }

    /**
     * The type's name: the class's simple name, also the default instance name.
     *
     * @return {@code javaClass().getSimpleName()}
     */
    public String name() {
        return javaClass.getSimpleName();
    }

    /**
     * How the type is stored.
     *
     * @return {@code VALUE} for a record with fields, {@code TAG} for an empty record,
     *     {@code REFERENCE} for a type registered with {@code World.referenceComponent}
     */
    public ComponentKind kind() {
        return kind;
    }

    /**
     * Number of stored fields: the record components of a value type, 1 for a reference, 0 for a tag.
     *
     * @return the number of stored fields, 0 or more
     */
    public int fieldCount() {
        return fieldTypes.length;
    }

    /**
     * The name of field {@code i} ({@code "value"} for a reference component).
     *
     * @param i the field's position in declaration order, 0 to {@code fieldCount() - 1}
     * @return the record component's name
     * @throws ArrayIndexOutOfBoundsException when {@code i} is out of that range
     */
    public String fieldName(int i) {
        return fieldNames[i];
    }

    /**
     * The storage type of field {@code i}.
     *
     * @param i the field's position in declaration order, 0 to {@code fieldCount() - 1}
     * @return the field's storage type; {@link FieldType#OBJECT} for a reference component's slot
     * @throws ArrayIndexOutOfBoundsException when {@code i} is out of that range
     */
    public FieldType fieldType(int i) {
        return fieldTypes[i];
    }

    /**
     * The field names in declaration order.
     *
     * @return an unmodifiable list, empty for a tag, {@code ["value"]} for a reference component
     */
    public List<String> fieldNames() {
        return List.of(fieldNames);
    }

    /**
     * The index of the named field.
     *
     * @param field the record component's name, case-sensitive
     * @return its position in declaration order, from 0
     * @throws IllegalArgumentException listing the fields that exist when there is none by that name
     */
    public int fieldIndex(String field) {
        for (int i = 0; i < fieldNames.length; i++) {
            if (fieldNames[i].equals(field)) {
                return i;
            }
        }
        throw new IllegalArgumentException("component " + name() + " has no field '" + field + "'; its fields are "
                + Arrays.toString(fieldNames));
    }

    /**
     * True when field {@code i} is a {@code long} marked {@link EntityRef}.
     *
     * @param i the field's position in declaration order, 0 to {@code fieldCount() - 1}
     * @return true when that field is annotated {@link EntityRef}
     * @throws ArrayIndexOutOfBoundsException when {@code i} is out of that range
     */
    public boolean isEntityRef(int i) {
        return entityRefs[i];
    }

    /**
     * True when some field is a {@code long} marked {@link EntityRef}: one field read.
     *
     * @return true when a value type has at least one {@link EntityRef} field; false for tags and
     *     reference types
     */
    public boolean hasEntityRefs() {
        return entityRefFields != null;
    }

    /**
     * The first {@link EntityRef} field of value record {@code value} that holds an id of
     * generation 0 other than {@link Entity#NULL} (a command buffer's provisional handle,
     * which no live entity has), or -1. Reads only the entity-ref fields; call it only when
     * {@link #hasEntityRefs()}.
     *
     * @param value a record of this type, not null
     * @return the position of the first such field in declaration order, or -1 when none holds a
     *     provisional handle
     */
    public int provisionalEntityRef(Object value) {
        for (int k = 0; k < entityRefGetters.length; k++) {
            long id;
            try {
                id = (long) entityRefGetters[k].invokeExact(value);
            } catch (Throwable t) {
                throw RecordAccess.unchecked(t);
            }
            if (Entity.generation(id) == 0 && id != Entity.NULL) {
                return entityRefFields[k];
            }
        }
        return -1;
    }

    /**
     * The {@link Range} declared on field {@code i}, as the validator that checks it, or
     * {@code null} when the field declares none. Read once at registration.
     *
     * @param i the field's position in declaration order, 0 to {@code fieldCount() - 1}
     * @return the range's validator, or {@code null}
     */
    public FieldValidator rangeOf(int i) {
        return ranges[i];
    }

    /**
     * Bytes one row of this type takes in a chunk.
     *
     * @return the sum of {@link FieldType#bytes()} over the fields: 0 for a tag, 4 for a reference
     *     component
     */
    public int rowBytes() {
        return rowBytes;
    }

    /**
     * Writes {@code value}'s fields into row {@code row} of {@code arrays} (one array per
     * field). Value components are unpacked field by field without boxing; a reference
     * component stores the object itself; a tag writes nothing.
     *
     * @param value a record of this type, or the object itself for a reference component
     * @param arrays the field arrays, one per field in declaration order, each of the field's type
     *     (as {@link #newArrays} makes them)
     * @param row the row to write, 0 to the arrays' length minus 1
     */
    public void write(Object value, Object[] arrays, int row) {
        if (kind == ComponentKind.REFERENCE) {
            ((Object[]) arrays[0])[row] = value;
            return;
        }
        if (kind == ComponentKind.TAG) {
            return;
        }
        access.write(value, arrays, row);
    }

    /**
     * Writes the raw bits of each field of value record {@code value} into
     * {@code dst[offset .. offset + fieldCount())}, without boxing or allocating (command
     * buffers record payloads this way). Not for reference components.
     *
     * @param value a record of this type; a tag's or a reference's writes nothing
     * @param dst the array that receives one {@code long} per field, in declaration order
     * @param offset where the first field's bits go in {@code dst}
     */
    public void writeBits(Object value, long[] dst, int offset) {
        if (access != null) { // a tag or a reference has no field bits
            access.writeBits(value, dst, offset);
        }
    }

    /**
     * The raw bits of each field of {@code value} (see {@link FieldType#bits}); used to fill
     * many rows with one value. Not for reference components.
     *
     * @param value a record of this type
     * @return a new array, one entry per field in declaration order; empty for a tag
     */
    public long[] bitsOf(Object value) {
        long[] out = new long[fieldTypes.length];
        Object[] one = new Object[fieldTypes.length];
        for (int i = 0; i < one.length; i++) {
            one[i] = fieldTypes[i].newArray(1);
        }
        write(value, one, 0);
        for (int i = 0; i < one.length; i++) {
            out[i] = fieldTypes[i].bits(one[i], 0);
        }
        return out;
    }

    /**
     * Builds a record from row {@code row} of {@code arrays}: a new object (cold paths only;
     * hot loops read the field arrays directly). A reference component returns the stored
     * object; a tag returns {@code null}.
     *
     * @param arrays the field arrays, one per field in declaration order
     * @param row the row to read, 0 to the arrays' length minus 1
     * @return a new record, the stored object for a reference component, or {@code null} for a tag
     */
    @SuppressWarnings("unchecked")
    public T read(Object[] arrays, int row) {
        if (kind == ComponentKind.REFERENCE) {
            return (T) ((Object[]) arrays[0])[row];
        }
        if (kind == ComponentKind.TAG) {
            return null;
        }
        return (T) access.read(arrays, row);
    }

    /**
     * A new set of zeroed field arrays of {@code capacity} rows, one per field.
     *
     * @param capacity the rows each array holds, 0 or more
     * @return one new array per field in declaration order ({@code int[]} for an {@code INT} field,
     *     {@code Object[]} for a reference component); empty for a tag
     */
    public Object[] newArrays(int capacity) {
        Object[] arrays = new Object[fieldTypes.length];
        for (int i = 0; i < arrays.length; i++) {
            arrays[i] = fieldTypes[i].newArray(capacity);
        }
        return arrays;
    }

    /** Field names for messages. */
    List<String> describeFields() {
        List<String> out = new ArrayList<>();
        for (int i = 0; i < fieldNames.length; i++) {
            out.add(fieldTypes[i].javaType().getSimpleName() + " " + fieldNames[i]);
        }
        return out;
    }

    @Override
    public String toString() {
        return name() + describeFields();
    }
}
