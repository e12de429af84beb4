package dev.orrery.ecs;


/**
 * Thrown when observer hooks keep recording commands that fire more hooks beyond the depth
 * limit ({@link ChangeTracker#MAX_CASCADE_DEPTH} rounds). The message names the chain: the
 * first event of each round (hook kind, component, entity). The changes applied so far stay;
 * the commands of the last round are dropped, so the world is consistent.
 */
public final class ObserverCascadeException extends RuntimeException {
    private static final long serialVersionUID = 1L;

    /** A cascade error with its message. */
    public ObserverCascadeException(String message) {
        super(message);
    }
}
