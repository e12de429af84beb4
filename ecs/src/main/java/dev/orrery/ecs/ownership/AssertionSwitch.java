package dev.orrery.ecs.ownership;

/**
 * The rule Orrery's debug checks follow (strict command playback, the scheduler's checked
 * mode): on when Java assertions are enabled, as in every test run, unless a system property
 * forces it on or off. One place, so the checks cannot drift apart.
 *
 * <p><b>Threading:</b> stateless; call from any thread (callers read it once, into a
 * constant).
 */
public final class AssertionSwitch {
    private AssertionSwitch() {
    }

    /**
     * Whether the check named by {@code property} is on: the property's value when it is set,
     * else true exactly when assertions are enabled (for this package: {@code -ea} on the
     * whole class path, or on {@code dev.orrery...}).
     *
     * @throws IllegalArgumentException if the property is set to anything but {@code true} or
     *         {@code false} (any case), naming the property, the value and the default; read
     *         into a constant, it fails that class's initialisation
     */
    @SuppressWarnings({"AssertWithSideEffects", "java:S3346"})
    public static boolean enabled(String property) {
        Boolean forced = TuningProperty.forcedBoolean(property, "on under -ea, off without");
        if (forced != null) {
            return forced;
        }
        boolean assertions = false;
        assert assertions = true; // deliberately a side effect: true exactly when -ea is on
        return assertions;
    }
}
