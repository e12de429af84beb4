package dev.orrery.ecs;

import dev.orrery.ecs.archetype.Archetype;
import dev.orrery.ecs.archetype.Archetypes;
import dev.orrery.ecs.component.Component;
import dev.orrery.ecs.component.ComponentRegistry;
import dev.orrery.ecs.prototype.SpawnChain;
import dev.orrery.ecs.structure.EntityRows;
import dev.orrery.ecs.structure.SparseColumns;

/**
 * The world's spawn side: which archetype a list of columns makes, the cache from a
 * sequence of value classes to its columns and archetype behind {@code spawn(values...)}
 * ({@link SpawnShapes}), the reused argument arrays of the fixed-arity spawns, and the
 * choice between the table path ({@link EntityRows}) and the path where sparse columns take
 * part ({@link WorldSparse}). {@code World} checks the owner thread and the structure lock,
 * then calls in here.
 *
 * <p><b>Threading:</b> as the world: the owning thread, while the structure is unlocked.
 */
final class WorldSpawns {
    private final ComponentRegistry registry;
    private final Archetypes archetypes;
    private final EntityRows rows;
    private final SparseColumns sparse;
    private final WorldSparse sparseSide;
    private final SpawnShapes shapes = new SpawnShapes();
    private final ArgumentScratch arguments = new ArgumentScratch(1, 4);

    WorldSpawns(ComponentRegistry registry, Archetypes archetypes, EntityRows rows, SparseColumns sparse,
                WorldSparse sparseSide) {
        this.registry = registry;
        this.archetypes = archetypes;
        this.rows = rows;
        this.sparse = sparse;
        this.sparseSide = sparseSide;
    }

    /** The argument arrays of {@code World}'s fixed-arity spawns. */
    ArgumentScratch arguments() {
        return arguments;
    }

    /** The spawn-shape cache (tests). */
    SpawnShapes shapes() {
        return shapes;
    }

    /**
     * {@code world.spawn(a)} to {@code world.spawn(a, b, c, d)}: the first {@code n} values.
     * When they match the last shape spawned (the common loop) they go to their columns
     * without an argument array; otherwise through {@link #spawnValues} in a reused one.
     */
    long spawnFixed(int n, Object a, Object b, Object c, Object d) {
        SpawnShapes.Entry shape = shapes.findLast(n, a, b, c, d);
        if (shape != null && !shape.chain.holdsSparse()) {
            return rows.spawnInto(shape.archetype, shape.chain, true, a, b, c, d); // the classes matched: no checks
        }
        Object[] v = arguments.take(n, a, b, c, d);
        try {
            return spawnValues(v);
        } finally {
            arguments.release(v);
        }
    }

    /** {@code world.spawn(values...)}: each value to its type's unnamed column, the shape cached. */
    long spawnValues(Object[] values) {
        SpawnShapes.Entry shape = shapes.find(values);
        if (shape == null) {
            shape = resolveShape(values);
            return spawn(shape.archetype, shape.chain, values); // the first spawn of a shape checks each value's type
        }
        if (shape.chain.holdsSparse()) {
            return sparseSide.spawnInto(shape.archetype, shape.chain.columns(), values);
        }
        return rows.spawnMatched(shape.archetype, shape.chain, values); // the classes matched: no type checks
    }

    /**
     * First spawn of a sequence of value classes: resolves each value's unnamed column and
     * the archetype they make (refusing nulls, unregistered classes, a column given twice and
     * two instances with one name), and caches the result for the next spawn of the shape.
     */
    private SpawnShapes.Entry resolveShape(Object[] values) {
        Component<?>[] columns = new Component<?>[values.length];
        for (int i = 0; i < values.length; i++) {
            if (values[i] == null) {
                throw new NullPointerException("component value " + i + " of spawn(values...) is null; leave it out, "
                        + "or spawn through a Shape, where null means zero");
            }
            columns[i] = registry.unnamedColumnOf(values[i]);
            for (int j = 0; j < i; j++) {
                if (columns[j] == columns[i]) {
                    throw new IllegalArgumentException("component " + columns[i] + " given twice to spawn(values...)");
                }
            }
        }
        return shapes.put(values, columns, archetypeFor(columns));
    }

    /**
     * The archetype an entity holding {@code columns} lives in: the one of its table
     * columns (sparse columns never enter an archetype).
     */
    Archetype archetypeFor(Component<?>[] columns) {
        return sparse.any() ? sparseSide.archetypeFor(columns) : archetypes.of(columns);
    }

    /** Spawns one entity into {@code a} holding {@code chain}'s columns, writing the non-null {@code values}. */
    long spawn(Archetype a, SpawnChain chain, Object[] values) {
        if (chain.holdsSparse()) {
            return sparseSide.spawnInto(a, chain.columns(), values);
        }
        return rows.spawnInto(a, chain, values);
    }

    /** Spawns one entity into {@code a} holding {@code columns}, writing the non-null {@code values}. */
    long spawn(Archetype a, Component<?>[] columns, Object[] values) {
        if (sparse.any() && WorldSparse.holdsSparse(columns)) {
            return sparseSide.spawnInto(a, columns, values);
        }
        return rows.spawnInto(a, columns, values);
    }

    /** Spawns {@code n} entities into {@code a}, every row holding the same values. */
    long[] spawnMany(Archetype a, int n, Component<?>[] columns, Object[] values) {
        if (sparse.any() && WorldSparse.holdsSparse(columns)) {
            return sparseSide.spawnManyInto(a, n, columns, values);
        }
        return rows.spawnManyInto(a, n, columns, values);
    }
}
