package dev.orrery.scheduler.executor;

import dev.orrery.ecs.Query;
import dev.orrery.ecs.Relation;
import dev.orrery.ecs.internal.EcsInternals;
import dev.orrery.scheduler.ChunkSystem;
import dev.orrery.scheduler.ExclusiveJobSystem;
import dev.orrery.scheduler.ExclusiveSystem;
import dev.orrery.scheduler.LevelSystem;
import dev.orrery.scheduler.RangeSystem;
import dev.orrery.scheduler.graph.SystemDeclaration;
import java.util.Objects;
import java.util.function.IntSupplier;

/**
 * A system as the plan holds it (the second of a system's three stages:
 * {@link SystemDeclaration} for the graph, this in the {@link ExecutionPlan}, and a
 * package-private {@code SystemRun} inside each executor; see the {@code dev.orrery.scheduler}
 * package summary): its declaration and one of four kinds of body. An
 * ordinary system has a query and a per-chunk body; an exclusive system has a whole-world
 * body; a range system has a count and a per-range body over {@code [0, count)}; a level
 * system has a forest relation and a body over slot ranges of its hierarchy, level by level.
 *
 * <p><b>Threading:</b> immutable.
 *
 * @param declaration name, access, phase and order
 * @param query the chunks the body visits; {@code null} unless an ordinary system
 * @param body the per-chunk body; {@code null} unless an ordinary system
 * @param exclusiveBody the whole-world body of an exclusive system (one written as an
 *     {@link ExclusiveSystem} gets the world alone), else {@code null}
 * @param rangeBody the per-range body of a range system, else {@code null}
 * @param rangeCount how many indices a range system covers this run, asked on the
 *     calling thread as the system starts; else {@code null}
 * @param minBatchRows the fewest rows (or indices) per job; a system with fewer in all
 *     runs inline on the calling thread
 * @param levelRelation the forest relation a level system walks, else {@code null}
 * @param levelBody the per-slot-range body of a level system, else {@code null}
 */
public record ScheduledSystem(SystemDeclaration declaration, Query query, ChunkSystem body,
        ExclusiveJobSystem exclusiveBody, RangeSystem rangeBody, IntSupplier rangeCount, int minBatchRows,
        Relation levelRelation, LevelSystem levelBody) {
    /** Checks that the parts fit the kind of system. */
    public ScheduledSystem {
        Objects.requireNonNull(declaration, "declaration");
        String name = declaration.name();
        if (levelBody != null || levelRelation != null) {
            if (levelBody == null || levelRelation == null || body != null || query != null || exclusiveBody != null
                    || rangeBody != null || rangeCount != null || declaration.exclusive()) {
                throw new IllegalArgumentException("level system '" + name + "' needs a LevelSystem body and a "
                        + "forest relation, and no query, chunk, range or exclusive body");
            }
        } else if (declaration.exclusive()) {
            if (exclusiveBody == null || body != null || query != null || rangeBody != null) {
                throw new IllegalArgumentException("exclusive system '" + name + "' needs an ExclusiveSystem body "
                        + "and no query, chunk body or range body; it gets the whole world");
            }
        } else if (rangeBody != null || rangeCount != null) {
            if (rangeBody == null || rangeCount == null || body != null || query != null || exclusiveBody != null) {
                throw new IllegalArgumentException("range system '" + name + "' needs a RangeSystem body and a "
                        + "count, and no query, chunk body or exclusive body");
            }
        } else {
            if (body == null || query == null || exclusiveBody != null) {
                throw new IllegalArgumentException("system '" + name + "' needs a query and a ChunkSystem body; "
                        + "declare it exclusive to get the whole world instead");
            }
        }
        if (query != null && EcsInternals.hasSparseFilter(query)) {
            throw new IllegalArgumentException("system '" + name + "' iterates chunks of " + EcsInternals.description(query)
                    + ", which filters by sparse column " + EcsInternals.sparseFilterColumn(query) + "; a chunk job cannot skip the rows that fail a "
                    + "sparse term. Make " + EcsInternals.sparseFilterColumn(query) + " an optional(...) term and test "
                    + "job.chunk().has(" + EcsInternals.sparseFilterColumn(query) + ", row) in the loop, or register it with "
                    + "Storage.TABLE");
        }
        if (query != null && EcsInternals.hasPairFilter(query)) {
            throw new IllegalArgumentException("system '" + name + "' iterates chunks of " + EcsInternals.description(query)
                    + ", which filters by " + EcsInternals.rowFilterDescription(query) + "; a chunk job cannot skip the rows that fail a pair term. Query "
                    + "the relation's column (the wildcard) and compare job.chunk().readLongs(relation.target())[row] "
                    + "with the target in the loop");
        }
        if (minBatchRows < 1) {
            throw new IllegalArgumentException("system '" + name + "' has minBatchRows " + minBatchRows
                    + "; use at least 1");
        }
    }

    /** An ordinary (per-chunk) or exclusive system. */
    public ScheduledSystem(SystemDeclaration declaration, Query query, ChunkSystem body, ExclusiveSystem exclusiveBody,
            int minBatchRows) {
        this(declaration, query, body, exclusiveBody, null, null, minBatchRows);
    }

    /** An ordinary, exclusive or range system (no level body). */
    public ScheduledSystem(SystemDeclaration declaration, Query query, ChunkSystem body, ExclusiveSystem exclusiveBody,
            RangeSystem rangeBody, IntSupplier rangeCount, int minBatchRows) {
        this(declaration, query, body, withJob(exclusiveBody), rangeBody, rangeCount, minBatchRows, null, null);
    }

    /** An exclusive system's world-only body as one that ignores its context ({@code null} stays {@code null}). */
    public static ExclusiveJobSystem withJob(ExclusiveSystem body) {
        return body == null ? null : (world, job) -> body.run(world);
    }

    /** A level system walking {@code relation}'s hierarchy with {@code body}. */
    public static ScheduledSystem level(SystemDeclaration declaration, Relation relation, LevelSystem body,
            int minBatchRows) {
        return new ScheduledSystem(declaration, null, null, null, null, null, minBatchRows, relation, body);
    }

    /** True for a range system. */
    public boolean ranged() {
        return rangeBody != null;
    }

    /** True for a level system. */
    public boolean leveled() {
        return levelBody != null;
    }

    /** The system's name. */
    public String name() {
        return declaration.name();
    }
}
