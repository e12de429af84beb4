package dev.orrery.ecs;

/**
 * Thrown when a snapshot cannot be written or restored: a truncated or corrupted file, a
 * version this build cannot read, components that do not match the target world's, or a
 * reference component without a codec. A failed restore leaves the target world untouched.
 */
public final class SnapshotException extends RuntimeException {
    private static final long serialVersionUID = 1L;

    /**
     * Creates the exception with a message that names the problem and the fix.
     *
     * @param message the problem (with the section and byte offset where it is known) and the fix
     */
    public SnapshotException(String message) {
        super(message);
    }

    /**
     * Creates the exception with its cause.
     *
     * @param message the problem (with the section and byte offset where it is known) and the fix
     * @param cause what failed underneath (an {@code IOException}, a codec's exception); may be
     *     null
     */
    public SnapshotException(String message, Throwable cause) {
        super(message, cause);
    }
}
