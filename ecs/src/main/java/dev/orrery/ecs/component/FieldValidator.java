package dev.orrery.ecs.component;

import java.util.Objects;
import java.util.function.DoublePredicate;
import java.util.function.LongPredicate;

/**
 * A rule for the values a boundary write may put into one field, for what a {@link Range}
 * annotation cannot say: a bound known only at run time (a team index below the configured
 * team count) or a rule over the world (an entity id that must be live). Registered with
 * {@code World.validator(field, validator)}; checked by the same calls as {@link Range} (see
 * there), after the field's range.
 *
 * <p>The value comes as the field's raw bits ({@link FieldType#bits}): the value itself for
 * the integral types ({@code char} zero-extended, {@code boolean} 0 or 1), the
 * {@code floatToRawIntBits}/{@code doubleToRawLongBits} pattern for {@code float} and
 * {@code double}. {@link #ofLongs} and {@link #ofDoubles} decode them for you.
 *
 * <pre>{@code
 * world.validator(agent.field("team"), FieldValidator.range(0, teams - 1));
 * world.validator(shot.field("victim"),
 *         FieldValidator.ofLongs("0 or a live entity", v -> v == 0 || world.isAlive(v)));
 * }</pre>
 *
 * <p><b>Threading:</b> called on the thread that writes, which for the world is its owning
 * thread; a validator that reads the world relies on that.
 */
@FunctionalInterface
public interface FieldValidator {
    /**
     * Checks one write.
     *
     * @param entity the entity written
     * @param field  the field written
     * @param bits   the value, as raw bits
     * @return {@code null} when the write is allowed, else the rule it breaks, in words that
     *     finish "the field takes ..." ({@code "0 or a live entity"}); it goes into the
     *     exception's message. Return a constant: a refusal should not need to allocate.
     */
    String check(long entity, Field field, long bits);

    /**
     * A validator that allows what both this and {@code other} allow; the first refusal wins.
     *
     * @param other the validator checked after this one, not null
     * @return a new validator; it answers this validator's rule when both refuse
     */
    default FieldValidator and(FieldValidator other) {
        Objects.requireNonNull(other, "other");
        return (entity, field, bits) -> {
            String no = check(entity, field, bits);
            return no != null ? no : other.check(entity, field, bits);
        };
    }

    /**
     * The inclusive range {@code [min, max]}, with exactly the rules of {@link Range} (whole
     * numbers for integral fields, bounds rounded to {@code float} for a {@code float} field,
     * NaN refused, infinities only on an open side); for ranges known at run time.
     *
     * @param min the smallest value allowed, inclusive; {@code -Infinity} for no lower bound
     * @param max the largest value allowed, inclusive; {@code +Infinity} for no upper bound
     * @return a validator that refuses values outside {@code [min, max]}
     * @throws IllegalArgumentException if a bound is NaN or {@code min > max}
     */
    static FieldValidator range(double min, double max) {
        return new FieldRange(min, max);
    }

    /**
     * A rule over the value of an integral or {@code boolean} field, read as a {@code long}.
     *
     * @param rule    what the field takes, for the refusal's message
     * @param allowed true for values the field takes
     * @return a validator that refuses the values {@code allowed} is false for, with {@code rule}
     */
    static FieldValidator ofLongs(String rule, LongPredicate allowed) {
        Objects.requireNonNull(rule, "rule");
        Objects.requireNonNull(allowed, "allowed");
        return (entity, field, bits) -> allowed.test(bits) ? null : rule;
    }

    /**
     * A rule over the value of a numeric field, read as a {@code double} ({@code float} and
     * {@code double} fields decoded from their bits, integral ones converted).
     *
     * @param rule    what the field takes, for the refusal's message
     * @param allowed true for values the field takes
     * @return a validator that refuses the values {@code allowed} is false for, with {@code rule}
     */
    static FieldValidator ofDoubles(String rule, DoublePredicate allowed) {
        Objects.requireNonNull(rule, "rule");
        Objects.requireNonNull(allowed, "allowed");
        return (entity, field, bits) -> allowed.test(FieldRange.asDouble(field.type(), bits)) ? null : rule;
    }
}
