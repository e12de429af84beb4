package dev.orrery.ecs.component;

import java.util.Arrays;
import java.util.Objects;

/**
 * A world's write rules per field: each field's {@link Range} (from its component type) and
 * the {@link FieldValidator}s registered for it, checked by the world's boundary writes (see
 * {@link Range} for which calls those are). A field with no rule costs one array look-up.
 *
 * <p><b>Threading:</b> register on the world's owning thread during set-up; checks run on
 * the thread that writes, after that set-up has been handed over.
 */
public final class FieldRules {
    private FieldValidator[][] byColumn = new FieldValidator[0][];

    /** No validators yet; annotation ranges are always checked. */
    public FieldRules() {
    }

    /**
     * Adds {@code validator} to {@code field}'s rules, after the ones it has.
     *
     * @param field the field the rule guards, a column of this rules' world; not null
     * @param validator the rule, not null; it runs after the field's {@code @Range} and the
     *     validators added before it
     * @throws IllegalArgumentException if the validator is a range and the field is not
     *     numeric, or an integral field's range holds no whole number
     * @throws NullPointerException if either argument is null
     */
    public void add(Field field, FieldValidator validator) {
        Objects.requireNonNull(field, "field");
        Objects.requireNonNull(validator, "validator");
        if (validator instanceof FieldRange r) {
            r.checkFits(field.type(), "field " + field);
        }
        int col = field.component().id();
        if (col >= byColumn.length) {
            byColumn = Arrays.copyOf(byColumn, col + 1);
        }
        FieldValidator[] row = byColumn[col];
        if (row == null) {
            row = new FieldValidator[field.component().type().fieldCount()];
            byColumn[col] = row;
        }
        FieldValidator old = row[field.index()];
        row[field.index()] = old == null ? validator : old.and(validator);
    }

    /**
     * Checks a write of {@code bits} into {@code field} of {@code entity}: the field's range,
     * then its validators.
     *
     * @param entity the entity written, named in the refusal
     * @param field the field written
     * @param bits the new value's bits, as {@link FieldType#bits} gives them
     * @throws InvalidFieldValueException naming the entity, field, value and rule, when refused
     */
    public void check(long entity, Field field, long bits) {
        FieldValidator range = field.component().type().rangeOf(field.index());
        String no = range == null ? null : range.check(entity, field, bits);
        if (no == null) {
            int col = field.component().id();
            FieldValidator[] row = col < byColumn.length ? byColumn[col] : null;
            FieldValidator v = row == null ? null : row[field.index()];
            no = v == null ? null : v.check(entity, field, bits);
        }
        if (no != null) {
            // a char as its number: the ranges speak of numbers, and most chars do not print
            String value = field.type() == FieldType.CHAR ? Long.toString(bits) : String.valueOf(field.type().boxBits(bits));
            throw new InvalidFieldValueException(entity, field, value, no);
        }
    }
}
