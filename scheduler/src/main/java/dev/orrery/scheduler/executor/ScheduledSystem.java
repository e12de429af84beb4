package dev.orrery.scheduler.executor;

import dev.orrery.ecs.query.Query;
import dev.orrery.scheduler.graph.SystemDeclaration;
import java.util.Objects;

/**
 * A system as the executor runs it: its declaration, the query that picks its chunks, its
 * body, and the smallest number of rows worth handing to another thread.
 *
 * <p><b>Threading:</b> immutable.
 *
 * @param declaration name, access, phase and order
 * @param query the chunks the body visits; {@code null} for an exclusive system
 * @param body the per-chunk body; {@code null} for an exclusive system
 * @param exclusiveBody the whole-world body of an exclusive system, else {@code null}
 * @param minBatchRows the fewest rows per job; a system with fewer matching rows in all
 *     runs inline on the calling thread
 */
public record ScheduledSystem(SystemDeclaration declaration, Query query, ChunkSystem body,
        ExclusiveSystem exclusiveBody, int minBatchRows) {
    /** Checks that the parts fit the kind of system. */
    public ScheduledSystem {
        Objects.requireNonNull(declaration, "declaration");
        String name = declaration.name();
        if (declaration.exclusive()) {
            if (exclusiveBody == null || body != null || query != null) {
                throw new IllegalArgumentException("exclusive system '" + name + "' needs an ExclusiveSystem body "
                        + "and no query or chunk body; it gets the whole world");
            }
        } else {
            if (body == null || query == null || exclusiveBody != null) {
                throw new IllegalArgumentException("system '" + name + "' needs a query and a ChunkSystem body; "
                        + "declare it exclusive to get the whole world instead");
            }
        }
        if (minBatchRows < 1) {
            throw new IllegalArgumentException("system '" + name + "' has minBatchRows " + minBatchRows
                    + "; use at least 1");
        }
    }

    /** The system's name. */
    public String name() {
        return declaration.name();
    }
}
