package dev.orrery.ecs.access;

import dev.orrery.ecs.component.Component;

/**
 * Which columns a chunk view may hand out, and to whom. The scheduler gives each
 * system's jobs a policy built from the system's declared reads and writes, so a job that
 * touches a column it did not declare fails at once with both names in the message.
 *
 * <p><b>Threading:</b> implementations must be immutable or safely published before the
 * jobs that use them start; they are read from worker threads.
 */
public interface AccessPolicy {
    /** The name of whoever owns the access (a system's name), for error messages. */
    String owner();

    /** True when the owner declared a read or a write of {@code column}. */
    boolean canRead(Component<?> column);

    /** True when the owner declared a write of {@code column}. */
    boolean canWrite(Component<?> column);
}
