package dev.orrery.engine;

/**
 * Where a simulation stands, read in one piece from any thread by
 * {@link Simulation#progress()}: the number of the next tick to run, and the last state hash
 * with the tick whose state it is. The three were true together at one instant: never a
 * tick number of one tick beside a hash of another.
 *
 * <p>With {@code hashEvery(1)} (the default) {@code hashedTick} is {@code nextTick - 1}, or
 * {@code nextTick - 2} for the moment between a tick's systems and its hash; with
 * {@code hashEvery(n)} it lags by up to {@code n} ticks.
 *
 * @param nextTick the next tick to run, as {@link Simulation#currentTick()}
 * @param hashedTick the tick after which {@code hash} was taken, below {@code nextTick}; -1
 *     before the first hashed tick
 * @param hash the world's state hash after tick {@code hashedTick}, as
 *     {@link Simulation#lastHash()}; 0 before the first hashed tick
 */
public record TickProgress(long nextTick, long hashedTick, long hash) {
    /**
     * Whether a tick has been hashed yet (else {@code hashedTick} is -1 and {@code hash} 0).
     *
     * @return true when {@code hashedTick} is 0 or more
     */
    public boolean hashed() {
        return hashedTick >= 0;
    }
}
