package dev.orrery.testkit;

/**
 * The kit's refusal of what a game's {@link SimulationFactory} returned (null, a simulation on
 * another worker count, a world an earlier call returned, a world holding entities when asked
 * for an empty one): an {@link IllegalStateException} whose message names the call and the fix,
 * of its own type so that a diagnosis, which reports what its own runs throw as part of a
 * {@link DeterminismFailure}, lets it through to the caller instead, as every entry point
 * refuses it.
 *
 * <p><b>Threading:</b> immutable once thrown.
 */
final class FactoryRefusedException extends IllegalStateException {
    private static final long serialVersionUID = 1L;

    FactoryRefusedException(String message) {
        super(message);
    }

    FactoryRefusedException(String message, Throwable cause) {
        super(message, cause);
    }

    /** Rethrows {@code e} when it is a refusal of the factory, for a diagnosis's catch of what its runs throw. */
    static void rethrowIfRefusal(RuntimeException e) {
        if (e instanceof FactoryRefusedException refusal) {
            throw refusal;
        }
    }
}
