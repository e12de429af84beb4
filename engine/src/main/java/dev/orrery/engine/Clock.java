package dev.orrery.engine;

/**
 * The simulation clock, a resource ({@link Simulation#CLOCK}): the number of the tick being
 * run and the fixed time step. Systems read it; only the simulation advances it, between
 * ticks.
 *
 * <p><b>Threading:</b> written by the tick thread between ticks, read by jobs during a
 * tick (the executor's job hand-off orders the two).
 */
public final class Clock {
    private final double stepSeconds;
    private long tick;

    /**
     * A clock at tick 0 with a fixed step of {@code stepSeconds}.
     *
     * @param stepSeconds the step in seconds, positive and finite ({@code 1.0 / 60} for 60 Hz)
     * @throws IllegalArgumentException naming the value when it is 0, negative, NaN or infinite
     */
    public Clock(double stepSeconds) {
        if (!(stepSeconds > 0) || Double.isInfinite(stepSeconds)) {
            throw new IllegalArgumentException("time step must be a positive number of seconds, got " + stepSeconds);
        }
        this.stepSeconds = stepSeconds;
    }

    /**
     * The tick being run (during a tick), or the last one run (between ticks); the next to run is
     * {@code Simulation.currentTick()}.
     *
     * @return the tick number, 0 before the first tick
     */
    public long tick() {
        return tick;
    }

    /**
     * The fixed time step in seconds.
     *
     * @return the step, positive, fixed for the clock's life
     */
    public double stepSeconds() {
        return stepSeconds;
    }

    /**
     * The fixed time step as a {@code float}, for float columns.
     *
     * @return {@code (float) stepSeconds()}
     */
    public float dt() {
        return (float) stepSeconds;
    }

    /**
     * Simulated seconds since tick 0.
     *
     * @return {@code tick() * stepSeconds()}
     */
    public double elapsedSeconds() {
        return tick * stepSeconds;
    }

    void set(long tick) {
        this.tick = tick;
    }
}
