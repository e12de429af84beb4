package dev.orrery.ecs.ownership;

import java.util.Locale;

/**
 * Reads Orrery's {@code -Dorrery.*} system properties strictly: an unset property gives its
 * default; a set one must be well formed and in range, or the read throws an
 * {@link IllegalArgumentException} naming the property, the value given, what is accepted and
 * the default. A user who sets a tuning property wants it to take effect, so a typo
 * ({@code =abc}, {@code =maybe}) or a value out of range ({@code =-5}) fails the first use
 * instead of being ignored or clamped without a word. Each reader reads its property once
 * (into a constant, or when the object that uses it is built), so the failure comes at that
 * class's initialisation or at that build.
 *
 * <p><b>Threading:</b> stateless; call from any thread.
 */
public final class TuningProperty {
    private TuningProperty() {
    }

    /**
     * A {@code long} property.
     *
     * @param property     the property's name, for example {@code orrery.batch.targetJobNanos}
     * @param defaultValue the value when the property is unset; must lie in {@code [min, max]}
     * @param min          the smallest accepted value
     * @param max          the largest accepted value
     * @return the default, or the property's value
     * @throws IllegalArgumentException if the property is set to anything but a decimal whole
     *         number from {@code min} to {@code max} (surrounding blanks are allowed)
     */
    public static long longValue(String property, long defaultValue, long min, long max) {
        if (defaultValue < min || defaultValue > max) {
            throw new IllegalArgumentException(property + ": default " + defaultValue + " is outside its range "
                    + min + " to " + max);
        }
        String raw = System.getProperty(property);
        if (raw == null) {
            return defaultValue;
        }
        long value;
        try {
            value = Long.parseLong(raw.trim());
        } catch (NumberFormatException e) {
            throw refused(property, raw, "a whole number from " + min + " to " + max, Long.toString(defaultValue));
        }
        if (value < min || value > max) {
            throw refused(property, raw, "a whole number from " + min + " to " + max, Long.toString(defaultValue));
        }
        return value;
    }

    /**
     * An {@code int} property; as {@link #longValue}.
     *
     * @throws IllegalArgumentException if the property is set to anything but a decimal whole
     *         number from {@code min} to {@code max}
     */
    public static int intValue(String property, int defaultValue, int min, int max) {
        return (int) longValue(property, defaultValue, min, max);
    }

    /**
     * A {@code boolean} property.
     *
     * @param property     the property's name
     * @param defaultValue the value when the property is unset
     * @return the default, or the property's value
     * @throws IllegalArgumentException if the property is set to anything but {@code true} or
     *         {@code false} (any case, surrounding blanks allowed)
     */
    public static boolean booleanValue(String property, boolean defaultValue) {
        Boolean forced = forcedBoolean(property, Boolean.toString(defaultValue));
        return forced == null ? defaultValue : forced;
    }

    /**
     * A {@code boolean} property whose default is worked out by the caller, as
     * {@link AssertionSwitch} does from {@code -ea}.
     *
     * @param property    the property's name
     * @param defaultText the default as the error message should name it, for example
     *                    {@code "on under -ea, off without"}
     * @return null when the property is unset, else its value
     * @throws IllegalArgumentException if the property is set to anything but {@code true} or
     *         {@code false} (any case, surrounding blanks allowed)
     */
    public static Boolean forcedBoolean(String property, String defaultText) {
        String raw = System.getProperty(property);
        if (raw == null) {
            return null;
        }
        switch (raw.trim().toLowerCase(Locale.ROOT)) {
            case "true":
                return Boolean.TRUE;
            case "false":
                return Boolean.FALSE;
            default:
                throw refused(property, raw, "true or false", defaultText);
        }
    }

    private static IllegalArgumentException refused(String property, String raw, String accepted, String defaultText) {
        return new IllegalArgumentException("-D" + property + "='" + raw + "' is not accepted: give " + accepted
                + ", or leave the property unset for its default (" + defaultText + ")");
    }
}
