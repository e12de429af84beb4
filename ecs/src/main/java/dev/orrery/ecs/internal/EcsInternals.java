package dev.orrery.ecs.internal;


import dev.orrery.ecs.ChunkView;
import dev.orrery.ecs.CommandBuffer;
import dev.orrery.ecs.Query;
import dev.orrery.ecs.Relation;
import dev.orrery.ecs.Relations;
import dev.orrery.ecs.RemovedEntities;
import dev.orrery.ecs.Shape;
import dev.orrery.ecs.World;
import dev.orrery.ecs.access.AccessPolicy;
import dev.orrery.ecs.access.StructuralEffects;
import dev.orrery.ecs.archetype.Archetype;
import dev.orrery.ecs.archetype.ChangeClock;
import dev.orrery.ecs.archetype.Chunk;
import dev.orrery.ecs.archetype.RowKey;
import dev.orrery.ecs.component.Component;
import dev.orrery.ecs.component.ComponentRegistry;
import dev.orrery.ecs.component.Field;
import dev.orrery.ecs.structure.SparseColumns;
import dev.orrery.ecs.structure.WorldStorage;
import java.lang.invoke.MethodHandle;
import java.lang.invoke.MethodHandles;
import java.util.List;

/**
 * The door from Orrery's scheduler and engine into what the facade keeps package-private: a
 * world's storage and change bookkeeping, a query's matching, a chunk view's binding, a
 * command buffer's sort keys and declared effects. Users never see it (the package is exported
 * only to {@code dev.orrery.scheduler} and {@code dev.orrery.engine}); on the class path it is
 * public only in name, like every internal package.
 *
 * <p>Each method forwards to one facade member through a {@link MethodHandle} found once
 * ({@link FacadeLookup}); the JIT inlines a constant handle, so the per-chunk calls ({@link #bind},
 * {@link #beginChunk}, {@link #passes}) cost what a direct call costs.
 *
 * <p><b>Threading:</b> the same as the member forwarded to; the handles themselves are
 * immutable and safe from any thread.
 */
public final class EcsInternals {
    private static final FacadeLookup FACADE = FacadeLookup.into(World.class, MethodHandles.lookup());
    private static final Class<?> TRACKER = FACADE.type("ChangeTracker");
    private static final MethodHandle CHANGES = FACADE.method(World.class, "changes", TRACKER);

    private static final MethodHandle STORAGE = FACADE.method(World.class, "storage", WorldStorage.class);
    private static final MethodHandle REGISTRY = FACADE.method(World.class, "components", ComponentRegistry.class);
    private static final MethodHandle ARCHETYPE_OF = FACADE.method(World.class, "archetypeOf", Archetype.class, long.class);
    private static final MethodHandle SPAWN_ZEROED = FACADE.method(World.class, "spawnZeroed", long.class, Archetype.class);
    private static final MethodHandle MOVE_TO = FACADE.method(World.class, "moveTo", void.class, long.class, Archetype.class);
    private static final MethodHandle SORT_ROWS = FACADE.method(World.class, "sortRows", void.class, Archetype.class, RowKey.class);
    private static final MethodHandle COLUMN_HASHES = FACADE.method(World.class, "columnHashes", long[].class, long[].class);
    private static final MethodHandle HANDLE_OF = FACADE.staticMethod(FACADE.type("Owned"), "handleOf", String.class,
            Component.class);
    private static final MethodHandle FITTING_ACCESSOR = FACADE.staticMethod(World.class, "fittingAccessor", String.class,
            Field.class, String.class, String[].class);

    private static final MethodHandle SYSTEM_SLOT = tracker("systemSlot", int.class, String.class);
    private static final MethodHandle LAST_RUN = tracker("lastRun", long.class, int.class);
    private static final MethodHandle SET_LAST_RUN = tracker("lastRun", void.class, int.class, long.class);
    private static final MethodHandle CLOCK = tracker("clock", ChangeClock.class);
    private static final MethodHandle RETIRE = tracker("retire", void.class);
    private static final MethodHandle FIRING_HOOK = tracker("firingHook", String.class);
    private static final MethodHandle REMOVED = tracker("removed", RemovedEntities.class, Component.class);

    private static final MethodHandle ARCHETYPES = FACADE.method(Query.class, "archetypes", List.class);
    private static final MethodHandle MATCHES = FACADE.method(Query.class, "matches", boolean.class, Archetype.class);
    private static final MethodHandle PASSES = FACADE.method(Query.class, "passes", boolean.class, Chunk.class, long.class);
    private static final MethodHandle HAS_CHANGE_FILTER = FACADE.method(Query.class, "hasChangeFilter", boolean.class);
    private static final MethodHandle CHANGE_FILTER_IDS = FACADE.method(Query.class, "changeFilterColumnIds", int[].class);
    private static final MethodHandle TERM_IDS = FACADE.method(Query.class, "termColumnIds", int[].class);
    private static final MethodHandle HAS_SPARSE_FILTER = FACADE.method(Query.class, "hasSparseFilter", boolean.class);
    private static final MethodHandle SPARSE_FILTER_COLUMN = FACADE.method(Query.class, "sparseFilterColumn", Component.class);
    private static final MethodHandle HAS_PAIR_FILTER = FACADE.method(Query.class, "hasPairFilter", boolean.class);
    private static final MethodHandle HAS_ROW_FILTER = FACADE.method(Query.class, "hasRowFilter", boolean.class);
    private static final MethodHandle ROW_FILTER_TEXT = FACADE.method(Query.class, "rowFilterDescription", String.class);
    private static final MethodHandle QUERY_TEXT = FACADE.staticMethod(FACADE.type("QueryTerms"), "describe",
            String.class, Query.class);

    private static final MethodHandle NEW_VIEW = FACADE.constructor(ChunkView.class, AccessPolicy.class, SparseColumns.class);
    private static final MethodHandle BIND = FACADE.method(ChunkView.class, "bind", ChunkView.class, Chunk.class);
    private static final MethodHandle CHANGE_TICKS = FACADE.method(ChunkView.class, "changeTicks", ChunkView.class, long.class, long.class);

    private static final MethodHandle DECLARE_EFFECTS = FACADE.method(CommandBuffer.class, "declareEffects", void.class,
            StructuralEffects.class);
    private static final MethodHandle DECLARED_EFFECTS = FACADE.method(CommandBuffer.class, "declaredEffects",
            StructuralEffects.class);
    private static final MethodHandle BEGIN_CHUNK = FACADE.method(CommandBuffer.class, "beginChunk", void.class, int.class, int.class);

    private static final MethodHandle SHAPE_ARCHETYPE = FACADE.method(Shape.class, "archetype", Archetype.class);
    private static final MethodHandle NEXT_SEQ = FACADE.method(Relations.class, "nextSeq", long.class, Relation.class);

    private EcsInternals() {
    }

    /** A change-tracker method as a method of the world that owns the tracker. */
    private static MethodHandle tracker(String name, Class<?> returns, Class<?>... params) {
        return MethodHandles.filterArguments(FACADE.method(TRACKER, name, returns, params), 0, CHANGES);
    }

    // ------------------------------------------------------------------ world

    /** The world's storage: archetypes and chunks, the entity table, sparse columns, the structure lock. */
    public static WorldStorage storage(World world) {
        try {
            return (WorldStorage) STORAGE.invokeExact(world);
        } catch (Throwable t) {
            throw FacadeLookup.rethrow(t);
        }
    }

    /**
     * {@code World.columnHashes()} into {@code reuse} when it has one entry per column, else
     * into a new array, with hashers the world keeps: nothing allocated once warm.
     */
    public static long[] columnHashes(World world, long[] reuse) {
        try {
            return (long[]) COLUMN_HASHES.invokeExact(world, reuse);
        } catch (Throwable t) {
            throw FacadeLookup.rethrow(t);
        }
    }

    /** The world's registry of component types and columns. */
    public static ComponentRegistry registry(World world) {
        try {
            return (ComponentRegistry) REGISTRY.invokeExact(world);
        } catch (Throwable t) {
            throw FacadeLookup.rethrow(t);
        }
    }

    /**
     * How a world gives the handle of {@code column}'s type, for a message that refuses another
     * world's handle: {@code world.component(X.class)} (or {@code world.referenceComponent(X.class)}),
     * worded as the facade's own refusals word it.
     */
    public static String handleOf(Component<?> column) {
        try {
            return (String) HANDLE_OF.invokeExact(column);
        } catch (Throwable t) {
            throw FacadeLookup.rethrow(t);
        }
    }

    /**
     * The fix a wrong-type refusal of {@code field} names, worded as the world's own:
     * {@code "use job.getFloat/job.setFloat"} for receiver {@code "job."} and prefixes
     * {@code get, set}, or the whole-record call for a field type with no by-id accessor.
     */
    public static String fittingAccessor(Field field, String receiver, String... prefixes) {
        try {
            return (String) FITTING_ACCESSOR.invokeExact(field, receiver, prefixes);
        } catch (Throwable t) {
            throw FacadeLookup.rethrow(t);
        }
    }

    /** The archetype of a live entity. */
    public static Archetype archetypeOf(World world, long entity) {
        try {
            return (Archetype) ARCHETYPE_OF.invokeExact(world, entity);
        } catch (Throwable t) {
            throw FacadeLookup.rethrow(t);
        }
    }

    /** Spawns an entity straight into {@code archetype}, every field zero. */
    public static long spawnZeroed(World world, Archetype archetype) {
        try {
            return (long) SPAWN_ZEROED.invokeExact(world, archetype);
        } catch (Throwable t) {
            throw FacadeLookup.rethrow(t);
        }
    }

    /** Moves a live entity to {@code target} in one step. */
    public static void moveTo(World world, long entity, Archetype target) {
        try {
            MOVE_TO.invokeExact(world, entity, target);
        } catch (Throwable t) {
            throw FacadeLookup.rethrow(t);
        }
    }

    /** Reorders the rows of {@code archetype} by ascending {@code key}. */
    public static void sortRows(World world, Archetype archetype, RowKey key) {
        try {
            SORT_ROWS.invokeExact(world, archetype, key);
        } catch (Throwable t) {
            throw FacadeLookup.rethrow(t);
        }
    }

    /** The archetype every entity of {@code shape} is spawned into. */
    public static Archetype archetype(Shape shape) {
        try {
            return (Archetype) SHAPE_ARCHETYPE.invokeExact(shape);
        } catch (Throwable t) {
            throw FacadeLookup.rethrow(t);
        }
    }

    // ------------------------------------------------------------------ change bookkeeping

    /** The slot under which system {@code name}'s last-run tick is kept (made on first use). */
    public static int systemSlot(World world, String name) {
        try {
            return (int) SYSTEM_SLOT.invokeExact(world, name);
        } catch (Throwable t) {
            throw FacadeLookup.rethrow(t);
        }
    }

    /** The change tick of the last run of the system in {@code slot}; 0 before its first. */
    public static long lastRun(World world, int slot) {
        try {
            return (long) LAST_RUN.invokeExact(world, slot);
        } catch (Throwable t) {
            throw FacadeLookup.rethrow(t);
        }
    }

    /** Records {@code tick} as the last run of the system in {@code slot}. */
    public static void lastRun(World world, int slot, long tick) {
        try {
            SET_LAST_RUN.invokeExact(world, slot, tick);
        } catch (Throwable t) {
            throw FacadeLookup.rethrow(t);
        }
    }

    /** The world's change clock. */
    public static ChangeClock changeClock(World world) {
        try {
            return (ChangeClock) CLOCK.invokeExact(world);
        } catch (Throwable t) {
            throw FacadeLookup.rethrow(t);
        }
    }

    /** Drops removal-log entries no system can still read (once per schedule run). */
    public static void retireRemovals(World world) {
        try {
            RETIRE.invokeExact(world);
        } catch (Throwable t) {
            throw FacadeLookup.rethrow(t);
        }
    }

    /**
     * What runs {@code world}'s observer hooks now ({@code "the onAdd observer hook on Hp"}), or
     * {@code null}: any thread may ask (a tick watchdog), and the answer may already be stale.
     */
    public static String firingHook(World world) {
        try {
            return (String) FIRING_HOOK.invokeExact(world);
        } catch (Throwable t) {
            throw FacadeLookup.rethrow(t);
        }
    }

    /** The removal log of {@code column} (tracked with {@code World.trackRemoved}). */
    public static RemovedEntities removed(World world, Component<?> column) {
        try {
            return (RemovedEntities) REMOVED.invokeExact(world, column);
        } catch (Throwable t) {
            throw FacadeLookup.rethrow(t);
        }
    }

    // ------------------------------------------------------------------ query

    /** The matching archetypes, in creation order, after picking up any new ones. */
    @SuppressWarnings("unchecked")
    public static List<Archetype> archetypes(Query query) {
        try {
            return (List<Archetype>) ARCHETYPES.invokeExact(query);
        } catch (Throwable t) {
            throw FacadeLookup.rethrow(t);
        }
    }

    /** True when archetype {@code a} satisfies the query's terms. */
    public static boolean matches(Query query, Archetype a) {
        try {
            return (boolean) MATCHES.invokeExact(query, a);
        } catch (Throwable t) {
            throw FacadeLookup.rethrow(t);
        }
    }

    /** True when {@code chunk} passes the query's change filters for an owner that last ran at {@code lastRun}. */
    public static boolean passes(Query query, Chunk chunk, long lastRun) {
        try {
            return (boolean) PASSES.invokeExact(query, chunk, lastRun);
        } catch (Throwable t) {
            throw FacadeLookup.rethrow(t);
        }
    }

    /** True when the query has an {@code added} or {@code changed} filter. */
    public static boolean hasChangeFilter(Query query) {
        try {
            return (boolean) HAS_CHANGE_FILTER.invokeExact(query);
        } catch (Throwable t) {
            throw FacadeLookup.rethrow(t);
        }
    }

    /** The columns of the query's change filters, ascending ids, distinct. */
    public static int[] changeFilterColumnIds(Query query) {
        try {
            return (int[]) CHANGE_FILTER_IDS.invokeExact(query);
        } catch (Throwable t) {
            throw FacadeLookup.rethrow(t);
        }
    }

    /** The ids of every column a term of the query names. */
    public static int[] termColumnIds(Query query) {
        try {
            return (int[]) TERM_IDS.invokeExact(query);
        } catch (Throwable t) {
            throw FacadeLookup.rethrow(t);
        }
    }

    /** True when a term names a sparse column (the query then filters rows). */
    public static boolean hasSparseFilter(Query query) {
        try {
            return (boolean) HAS_SPARSE_FILTER.invokeExact(query);
        } catch (Throwable t) {
            throw FacadeLookup.rethrow(t);
        }
    }

    /** The first sparse column a term names, or {@code null}. */
    public static Component<?> sparseFilterColumn(Query query) {
        try {
            return (Component<?>) SPARSE_FILTER_COLUMN.invokeExact(query);
        } catch (Throwable t) {
            throw FacadeLookup.rethrow(t);
        }
    }

    /** True when the query has a pair term. */
    public static boolean hasPairFilter(Query query) {
        try {
            return (boolean) HAS_PAIR_FILTER.invokeExact(query);
        } catch (Throwable t) {
            throw FacadeLookup.rethrow(t);
        }
    }

    /** True when some rows of a matching archetype may fail the query. */
    public static boolean hasRowFilter(Query query) {
        try {
            return (boolean) HAS_ROW_FILTER.invokeExact(query);
        } catch (Throwable t) {
            throw FacadeLookup.rethrow(t);
        }
    }

    /**
     * The query by its terms' names, for messages: {@code "query with [Position] without [Frozen]"}
     * ({@link Query#toString} prints column ids, for tools).
     */
    public static String description(Query query) {
        try {
            return (String) QUERY_TEXT.invokeExact(query);
        } catch (Throwable t) {
            throw FacadeLookup.rethrow(t);
        }
    }

    /** What makes the query filter rows, for messages ({@code null} when nothing does). */
    public static String rowFilterDescription(Query query) {
        try {
            return (String) ROW_FILTER_TEXT.invokeExact(query);
        } catch (Throwable t) {
            throw FacadeLookup.rethrow(t);
        }
    }

    // ------------------------------------------------------------------ chunk views and command buffers

    /** A view that checks every access against {@code policy} and reads sparse columns from {@code sparse}. */
    public static ChunkView newChunkView(AccessPolicy policy, SparseColumns sparse) {
        try {
            return (ChunkView) NEW_VIEW.invokeExact(policy, sparse);
        } catch (Throwable t) {
            throw FacadeLookup.rethrow(t);
        }
    }

    /** Points {@code view} at {@code chunk}; returns the view. */
    public static ChunkView bind(ChunkView view, Chunk chunk) {
        try {
            return (ChunkView) BIND.invokeExact(view, chunk);
        } catch (Throwable t) {
            throw FacadeLookup.rethrow(t);
        }
    }

    /** Sets the change ticks of the view's owner: {@code tick} stamps writes, {@code lastRun} filters. */
    public static ChunkView changeTicks(ChunkView view, long tick, long lastRun) {
        try {
            return (ChunkView) CHANGE_TICKS.invokeExact(view, tick, lastRun);
        } catch (Throwable t) {
            throw FacadeLookup.rethrow(t);
        }
    }

    /** Binds the running system's declared structural effects to {@code buffer} ({@code null}: check nothing). */
    public static void declareEffects(CommandBuffer buffer, StructuralEffects effects) {
        try {
            DECLARE_EFFECTS.invokeExact(buffer, effects);
        } catch (Throwable t) {
            throw FacadeLookup.rethrow(t);
        }
    }

    /** The effects bound to {@code buffer}. */
    public static StructuralEffects declaredEffects(CommandBuffer buffer) {
        try {
            return (StructuralEffects) DECLARED_EFFECTS.invokeExact(buffer);
        } catch (Throwable t) {
            throw FacadeLookup.rethrow(t);
        }
    }

    /** Sets the sort-key prefix (system order, chunk ordinal) of the commands that follow. */
    public static void beginChunk(CommandBuffer buffer, int systemOrder, int chunkOrdinal) {
        try {
            BEGIN_CHUNK.invokeExact(buffer, systemOrder, chunkOrdinal);
        } catch (Throwable t) {
            throw FacadeLookup.rethrow(t);
        }
    }

    // ------------------------------------------------------------------ relations

    /** The sequence number the next pair of {@code r} will get: how many pairs of it were ever made. */
    public static long nextPairSeq(Relations relations, Relation r) {
        try {
            return (long) NEXT_SEQ.invokeExact(relations, r);
        } catch (Throwable t) {
            throw FacadeLookup.rethrow(t);
        }
    }
}
