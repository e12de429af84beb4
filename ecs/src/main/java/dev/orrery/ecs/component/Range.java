package dev.orrery.ecs.component;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * Declares the inclusive range of values a numeric field of a value component accepts from
 * a <em>boundary write</em>: {@code record Agent(@Range(min = 0, max = 63) int squad) {}}. It is
 * read once, when the record is registered ({@link ComponentType#rangeOf}); a write outside it
 * through {@code World.setProperty}, the world's by-id field setters ({@code setBits},
 * {@code setInt}, {@code setLong}, {@code setFloat}, {@code setDouble}) or a
 * {@code PropertyHandle}'s setters is refused with an {@link InvalidFieldValueException} and
 * changes nothing. Trusted in-engine writes are not checked: chunk arrays in systems, by-id
 * writes in jobs, command-buffer playback, spawns, {@code World.set} of a whole record,
 * snapshot restore and {@code World.unvalidated()}. A range states what outside input may
 * write; the systems may take a field beyond it (a damage system takes {@code hp} below 0).
 *
 * <p>Which values are in range:
 * <ul>
 *   <li>{@code byte}, {@code short}, {@code char}, {@code int}, {@code long}: whole numbers
 *       from {@code ceil(min)} to {@code floor(max)}, compared exactly (a {@code long} bound
 *       past 2<sup>53</sup> is the nearest {@code double} the annotation can hold).</li>
 *   <li>{@code float}: the bounds are rounded to {@code float} first, so
 *       {@code @Range(min = 0.05)} admits {@code 0.05f}; {@code double}: compared as given.</li>
 *   <li>NaN is never in a range. An infinity is in it only where that side of the range is
 *       open (the default bound is infinite): {@code @Range(min = 0)} admits
 *       {@code +Infinity}, {@code @Range(min = 0, max = 100)} does not.</li>
 * </ul>
 *
 * <p>Registration refuses a range on a {@code boolean} field, a NaN bound, {@code min > max},
 * and an integral range with no whole number in it, naming the record and the field. For a
 * rule an annotation cannot say (a bound known only at run time, a live-entity id) register
 * a {@link FieldValidator} with {@code World.validator(field, validator)}; see
 * {@link FieldValidator#range} for a range built at run time.
 */
@Documented
@Retention(RetentionPolicy.RUNTIME)
@Target({ElementType.RECORD_COMPONENT, ElementType.FIELD, ElementType.PARAMETER, ElementType.METHOD})
public @interface Range {
    /**
     * The smallest value allowed (inclusive); unbounded below by default.
     *
     * @return the lower bound, inclusive; a whole number is needed for an integral field
     */
    double min() default Double.NEGATIVE_INFINITY;

    /**
     * The largest value allowed (inclusive); unbounded above by default.
     *
     * @return the upper bound, inclusive, not below {@link #min()}
     */
    double max() default Double.POSITIVE_INFINITY;
}
