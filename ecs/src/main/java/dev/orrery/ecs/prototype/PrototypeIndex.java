package dev.orrery.ecs.prototype;

import java.util.Arrays;

/**
 * The Stingray-style entity index: which named component instances an entity holds, shared
 * between entities that were built the same way. Each entity points (through a dense
 * {@code int} array indexed by entity index) at a <em>prototype</em>; a prototype is a
 * chain link {@code {base prototype, column, name hash}}, so an entity built by adding
 * Transform, Fog and Vignette in that order points at P3 = P2 + Vignette, P2 = P1 + Fog,
 * P1 = P0 + Transform, and every entity built the same way shares P1..P3. Prototype 0 is
 * the empty one. Look-up by name walks the chain from the entity's prototype towards P0.
 *
 * <p><b>Handles and ids.</b> A prototype is named two ways. Its <em>handle</em> is a small
 * dense {@code int} (a slot in this table, reused after reclamation); entities and chain
 * links store handles, so a walk follows plain array indices and never hashes (the
 * article's "cache the base prototype index"). Its <em>id</em> is the 64-bit content hash
 * {@code mix(baseId, mix(hash(column), nameHash))}, unique among live prototypes and
 * findable with {@link #prototypeWithId}. When a new description's id is already taken by
 * a live prototype (a hash collision) the id is re-mixed until it is free; and since the
 * table is keyed by the full description {base handle, column, name}, never by the id, a
 * collision can neither merge two descriptions nor hide one. Ids are stable for a
 * description while it lives; they can differ between runs only after a collision.
 *
 * <p><b>Caches.</b> The transition table, keyed by the description with a cheap hash, is
 * every prototype's add-edge map at once: registering finds P + {column, name} in one
 * probe, without mixing ids (that happens only when a prototype is created). Look-ups go
 * through a small direct-mapped cache of (prototype, name) to column, negative answers
 * included, dropped wholesale whenever a prototype is reclaimed (rare once a population
 * is established, and it is only a cache); construct with
 * {@code lookupCache = false} to measure the plain chain walk
 * ({@code EntityIndexBenchmark} does).
 *
 * <p><b>Reclamation: reference counts, freed in batches.</b> A prototype counts the
 * entities that point at it plus the prototypes that use it as their base. When the count
 * reaches zero the prototype is queued; when {@value #RECLAIM_BATCH} are queued (or on
 * {@link #reclaimUnused()}, which a sync point may call) each queued prototype still at
 * zero is freed, and its base released in turn. Counting was chosen over a sweep because
 * every change already touches the prototypes involved, so keeping the count costs one
 * increment and one decrement, while a sweep would have to scan the whole entity array
 * (40 MB at 10 M entities) to prove a prototype unused. Freeing is deferred because an
 * entity that gains and loses a tag every tick would otherwise create and free the same
 * prototype every tick (hashing a new id, two table inserts and removals, and a flushed
 * look-up cache each time); a queued prototype that is used again is simply revived. The
 * table is thus the live set plus at most {@value #RECLAIM_BATCH} queued prototypes and the
 * links only they keep alive; after {@link #reclaimUnused()} it is exactly the live set.
 * Intermediate links stay alive while a longer chain uses them, so steady churn does not
 * rebuild them.
 *
 * <p><b>Threading:</b> not thread-safe, and not meant to be. The index is changed only by
 * the single thread that applies structural changes (the world's owner; at sync points once
 * command buffers exist, by the playback thread). Any thread may call the look-up methods
 * while no structural change is being applied, as the scheduler guarantees for jobs; note
 * that {@link #find} writes its look-up cache, so concurrent readers must use
 * {@link #findUncached} or an index built without the cache.
 */
public final class PrototypeIndex {
    // Over 500 lines, on purpose: about 150 are documentation, and the entity array, the link
    // table, the transition and id tables and the reclamation queue are one data structure
    // whose invariants (reference counts, table membership, free list) change together in
    // register/reclaim; split across classes they would need package-wide mutable access.
    /** The handle of the empty prototype, which every new entity starts at. */
    public static final int EMPTY = 0;
    /** Returned by the look-ups when the entity holds no instance by that name. */
    public static final int NOT_FOUND = -1;
    /** Unused prototypes queued before the index frees them as a batch. */
    public static final int RECLAIM_BATCH = 64;

    // One prototype per 4 ints (16 bytes, the article's figure): four per cache line.
    static final int BASE = 0;
    static final int COLUMN = 1;
    static final int NAME = 2;
    static final int REFS = 3;
    static final int SHIFT = 2;

    private static final int FREE = -1;
    private static final int CACHE_BITS = 9;
    private static final int CACHE_ENTRIES = 1 << CACHE_BITS;
    private static final long REMIX = 0x9E37_79B9_7F4A_7C15L;

    /** Computes a description's natural id; replaceable so tests can force collisions. */
    @FunctionalInterface
    interface IdMixer {
        long id(long baseId, int column, int nameHash);
    }

    static final IdMixer DEFAULT_MIXER = (baseId, column, nameHash) ->
            mix(baseId, mix(fmix64(column), nameHash));

    private final IdMixer mixer;
    private int[] entityPrototypes = new int[1024];
    private int[] table = new int[64 << SHIFT];
    private long[] ids = new long[64];
    private int cacheEpoch;
    private final int[] pending = new int[RECLAIM_BATCH];
    private long[] queued = new long[1];
    private int pendingCount;
    private int[] transitions = new int[128];
    private int[] idBuckets = new int[128];
    private int highWater = 1;
    private int freeHead;
    private int live = 1;
    private long collisions;
    private long batchWalks;
    private int[] scratch = new int[16];
    // The last transition register took: P + {column, name} = child, valid while no
    // prototype has been reclaimed since (reclaiming bumps cacheEpoch, and only reclaiming
    // frees or reuses a handle). Entities moved one by one tend to repeat one transition.
    private int memoBase = -1;
    private int memoColumn;
    private int memoName;
    private int memoChild;
    private int memoEpoch;
    private final long[] cache;

    /** An index with the look-up cache on. */
    public PrototypeIndex() {
        this(true);
    }

    /** An index with the look-up cache on or off (off: every look-up walks the chain). */
    public PrototypeIndex(boolean lookupCache) {
        this(lookupCache, DEFAULT_MIXER);
    }

    PrototypeIndex(boolean lookupCache, IdMixer mixer) {
        this.mixer = mixer;
        this.cache = lookupCache ? new long[CACHE_ENTRIES * 2] : null;
    }

    /** Mixes two 64-bit values into one; not symmetric, so {@code mix(a, b) != mix(b, a)}. */
    public static long mix(long a, long b) {
        return fmix64(a * 0xC2B2_AE3D_27D4_EB4FL + b);
    }

    /** The murmur3 64-bit finaliser. */
    public static long fmix64(long h) {
        h ^= h >>> 33;
        h *= 0xFF51_AFD7_ED55_8CCDL;
        h ^= h >>> 33;
        h *= 0xC4CE_B9FE_1A85_EC53L;
        h ^= h >>> 33;
        return h;
    }

    // ---------------------------------------------------------------- registration

    /**
     * Registers one named component instance on an entity: the entity moves from its
     * prototype P to P + {column, nameHash}, found with one probe of the transition table
     * (created the first time).
     *
     * @param entity the entity's index (not its generational id)
     * @return the entity's new prototype handle
     * @throws IllegalArgumentException if the entity already holds an instance under
     *     {@code nameHash} (names are unique per entity); nothing changes
     */
    public int register(int entity, int column, int nameHash) {
        if (entity < 0 || entity >= entityPrototypes.length) {
            checkEntity(entity);
            ensureEntity(entity);
        }
        int p = entityPrototypes[entity];
        int c;
        if (p == memoBase && column == memoColumn && nameHash == memoName && memoEpoch == cacheEpoch) {
            c = memoChild;
        } else {
            c = child(p, column, nameHash, entity);
            memoBase = p;
            memoColumn = column;
            memoName = nameHash;
            memoChild = c;
            memoEpoch = cacheEpoch;
        }
        table[(c << SHIFT) + REFS]++;
        entityPrototypes[entity] = c;
        if (p != EMPTY) {
            unref(p); // never reaches zero while c is based on p
        }
        return c;
    }

    /**
     * Puts an entity that holds nothing yet straight onto live {@code prototype}: the same
     * state as registering that prototype's chain link by link, in one step. For spawn
     * caches that remember the prototype a column sequence leads to; such a cache must
     * check {@link #reclaimEpoch()} first, since a reclaimed handle may have been reused.
     *
     * @throws IllegalStateException if the entity already holds instances, or
     *     {@code prototype} is not live
     */
    public void adopt(int entity, int prototype) {
        if (entity < 0 || entity >= entityPrototypes.length) {
            checkEntity(entity);
            ensureEntity(entity);
        }
        if (entityPrototypes[entity] != EMPTY) {
            throw new IllegalStateException("entity index " + entity + " already holds instances; adopt is for fresh "
                    + "entities");
        }
        if (prototype == EMPTY) {
            throw new IllegalStateException("adopt needs a prototype that names instances, not the empty one");
        }
        requireLive(prototype);
        table[(prototype << SHIFT) + REFS]++; // a pending reclamation skips it once it has references again
        entityPrototypes[entity] = prototype;
    }

    /**
     * Moves an entity from its prototype to live {@code prototype} in one step, for callers
     * that know the result of a sequence of registrations and unregistrations because they
     * saw it for another entity at the same prototype, in the same {@link #reclaimEpoch()}.
     *
     * @throws IllegalStateException if {@code prototype} is not live
     */
    public void transfer(int entity, int prototype) {
        requireLive(prototype);
        ensureEntity(entity);
        moveEntity(entity, entityPrototypes[entity], prototype);
    }

    private void requireLive(int prototype) {
        if (prototype < EMPTY || prototype >= highWater || table[(prototype << SHIFT) + REFS] == FREE) {
            throw new IllegalStateException("prototype " + prototype + " is not live; register the chain instead");
        }
    }

    /**
     * Registers the same named components, in the given order, on many entities in one
     * call (spawning from a template). Entities that share a starting prototype (all of
     * them, for freshly spawned entities) cost one chain walk together, not one each.
     * Everything is checked before anything changes.
     *
     * @param entities entity indices; {@code entities[from .. from+count)} are registered
     * @throws IllegalArgumentException if two names repeat, or an entity already holds one
     *     of the names; nothing changes
     */
    public void registerAll(int[] entities, int from, int count, int[] columns, int[] nameHashes) {
        registerAll(entities, null, from, count, columns, nameHashes);
    }

    /**
     * As {@link #registerAll(int[], int, int, int[], int[])} for generational entity ids:
     * the index is taken from each id's low 32 bits, so bulk spawns need no copy.
     */
    public void registerAll(long[] entityIds, int from, int count, int[] columns, int[] nameHashes) {
        registerAll(null, entityIds, from, count, columns, nameHashes);
    }

    /**
     * As {@link #registerAll(long[], int, int, int[], int[])} for entities a bulk spawn just
     * allocated: when every one of them holds nothing (the usual case) they all get the same
     * prototype with one walk and one reference-count update, with no per-entity check pass;
     * otherwise it falls back to the checked batch.
     */
    public void registerSpawned(long[] entityIds, int from, int count, int[] columns, int[] nameHashes) {
        checkTemplate(columns, nameHashes);
        if (count <= 0) {
            return;
        }
        int max = -1;
        int min = Integer.MAX_VALUE;
        for (int i = from; i < from + count; i++) {
            int e = (int) entityIds[i];
            max = Math.max(max, e);
            min = Math.min(min, e);
        }
        if (min < 0) {
            registerAll(entityIds, from, count, columns, nameHashes); // reports the bad index
            return;
        }
        ensureEntity(max);
        int[] protos = entityPrototypes;
        for (int i = from; i < from + count; i++) {
            if (protos[(int) entityIds[i]] != EMPTY) {
                registerAll(entityIds, from, count, columns, nameHashes);
                return;
            }
        }
        int dst = walk(EMPTY, columns, nameHashes, (int) entityIds[from]);
        if (dst == EMPTY) {
            return;
        }
        for (int i = from; i < from + count; i++) {
            protos[(int) entityIds[i]] = dst;
        }
        table[(dst << SHIFT) + REFS] += count;
    }

    /**
     * As {@link #registerSpawned} for the entities {@code first .. first + count - 1}, a bulk
     * spawn's fresh consecutive indices: when none holds a prototype (always, on a consistent
     * world) they get the same one with one walk, one range fill and one reference-count
     * update, reading no id array; otherwise it falls back to the checked batch.
     *
     * @throws IllegalArgumentException if the range leaves the entity indices
     */
    public void registerSpawnedRange(int first, int count, int[] columns, int[] nameHashes) {
        checkTemplate(columns, nameHashes);
        if (count <= 0) {
            return;
        }
        if (first < 0 || first + count < 0) {
            throw new IllegalArgumentException("entity range " + first + " + " + count
                    + " leaves the entity indices 0 .. 2^31 - 1");
        }
        int end = first + count;
        ensureEntity(end - 1);
        int[] protos = entityPrototypes;
        for (int e = first; e < end; e++) {
            if (protos[e] != EMPTY) {
                int[] ids = new int[count];
                for (int i = 0; i < count; i++) {
                    ids[i] = first + i;
                }
                registerAll(ids, 0, count, columns, nameHashes);
                return;
            }
        }
        int dst = walk(EMPTY, columns, nameHashes, first);
        if (dst == EMPTY) {
            return;
        }
        Arrays.fill(protos, first, end, dst);
        table[(dst << SHIFT) + REFS] += count;
    }

    private static int entityAt(int[] ints, long[] longs, int i) {
        return ints != null ? ints[i] : (int) longs[i];
    }

    private void registerAll(int[] ints, long[] longs, int from, int count, int[] columns, int[] nameHashes) {
        checkTemplate(columns, nameHashes);
        // Check pass: every entity is marked (its prototype stored as ~p) so a repeat is seen;
        // any refusal unmarks what was marked, leaving the index as it was.
        int marked = from;
        try {
            int prev = -1;
            for (; marked < from + count; marked++) {
                int e = entityAt(ints, longs, marked);
                checkEntity(e);
                ensureEntity(e);
                int p = entityPrototypes[e];
                if (p < 0) {
                    throw new IllegalArgumentException("entity index " + e + " is listed twice in one batch; "
                            + "register each entity once");
                }
                if (p != prev) {
                    checkNamesFree(p, nameHashes, e);
                    prev = p;
                }
                entityPrototypes[e] = ~p;
            }
        } catch (RuntimeException refused) {
            for (int i = from; i < marked; i++) {
                int e = entityAt(ints, longs, i);
                entityPrototypes[e] = ~entityPrototypes[e];
            }
            throw refused;
        }
        int src = -1;
        int dst = 0;
        for (int i = from; i < from + count; i++) {
            int e = entityAt(ints, longs, i);
            int p = ~entityPrototypes[e];
            entityPrototypes[e] = p;
            if (p != src) {
                src = p;
                dst = walk(p, columns, nameHashes, e);
            }
            moveEntity(e, p, dst);
        }
    }

    private void moveEntity(int e, int from, int to) {
        if (from == to) {
            return;
        }
        if (to != EMPTY) {
            table[(to << SHIFT) + REFS]++;
        }
        entityPrototypes[e] = to;
        unref(from);
    }

    private int walk(int p, int[] columns, int[] nameHashes, int entity) {
        batchWalks++;
        for (int k = 0; k < columns.length; k++) {
            p = child(p, columns[k], nameHashes[k], entity);
        }
        return p;
    }

    private static void checkTemplate(int[] columns, int[] nameHashes) {
        if (columns.length != nameHashes.length) {
            throw new IllegalArgumentException(columns.length + " columns given with " + nameHashes.length
                    + " names; pass one name hash per column");
        }
        for (int i = 0; i < nameHashes.length; i++) {
            for (int j = i + 1; j < nameHashes.length; j++) {
                if (nameHashes[i] == nameHashes[j]) {
                    throw new IllegalArgumentException("name 0x" + Integer.toHexString(nameHashes[i])
                            + " is listed twice (positions " + i + " and " + j + "); names are unique per entity");
                }
            }
        }
    }

    private void checkNamesFree(int p, int[] nameHashes, int entity) {
        for (int name : nameHashes) {
            int col = findIn(p, name);
            if (col != NOT_FOUND) {
                throw duplicate(entity, name, col);
            }
        }
    }

    private static IllegalArgumentException duplicate(int entity, int nameHash, int column) {
        return new IllegalArgumentException("entity index " + entity + " already holds column " + column
                + " under name 0x" + Integer.toHexString(nameHash) + "; names are unique per entity, so unregister "
                + "it first or choose another name");
    }

    private static void checkEntity(int entity) {
        if (entity < 0) {
            throw new IllegalArgumentException("entity index " + entity + " is negative; pass Entity.index(id)");
        }
    }

    /**
     * Removes the instance registered under {@code nameHash} from an entity. Removing the
     * last one added is O(1) (the entity moves to its base); removing an older one rebuilds
     * the links above it on top of its base.
     *
     * @return the column that was registered under the name, or {@link #NOT_FOUND} (no change)
     */
    public int unregister(int entity, int nameHash) {
        if (entity < 0 || entity >= entityPrototypes.length) {
            return NOT_FOUND;
        }
        int p = entityPrototypes[entity];
        int depth = 0;
        int q = p;
        while (q != EMPTY && table[(q << SHIFT) + NAME] != nameHash) {
            if (depth == scratch.length) {
                scratch = Arrays.copyOf(scratch, depth * 2);
            }
            scratch[depth++] = q;
            q = table[(q << SHIFT) + BASE];
        }
        if (q == EMPTY) {
            return NOT_FOUND;
        }
        int column = table[(q << SHIFT) + COLUMN];
        int np = table[(q << SHIFT) + BASE];
        for (int k = depth - 1; k >= 0; k--) {
            int link = scratch[k];
            np = child(np, table[(link << SHIFT) + COLUMN], table[(link << SHIFT) + NAME], entity);
        }
        moveEntity(entity, p, np);
        return column;
    }

    /**
     * Forgets an entity (despawn): it goes back to the empty prototype and its old chain is
     * released, reclaiming every link no other entity uses.
     */
    public void release(int entity) {
        if (entity < 0 || entity >= entityPrototypes.length) {
            return;
        }
        int p = entityPrototypes[entity];
        entityPrototypes[entity] = EMPTY;
        unref(p);
    }

    // ---------------------------------------------------------------- look-up

    /**
     * The column an entity holds under {@code nameHash}, or {@link #NOT_FOUND}. Uses the
     * look-up cache when the index has one (it writes the cache: owner thread only).
     */
    public int find(int entity, int nameHash) {
        if (entity < 0 || entity >= entityPrototypes.length) {
            return NOT_FOUND;
        }
        int p = entityPrototypes[entity];
        if (p == EMPTY) {
            return NOT_FOUND;
        }
        final long[] c = cache;
        if (c == null) {
            return findIn(p, nameHash);
        }
        long key = ((long) p << 32) | (nameHash & 0xFFFF_FFFFL);
        int i = (int) ((key * 0x9E37_79B9_7F4A_7C15L) >>> (64 - CACHE_BITS)) << 1;
        int epoch = cacheEpoch;
        if (c[i] == key && (int) (c[i + 1] >>> 32) == epoch) {
            return (int) c[i + 1];
        }
        int column = findIn(p, nameHash);
        c[i] = key;
        c[i + 1] = ((long) epoch << 32) | (column & 0xFFFF_FFFFL);
        return column;
    }

    /** As {@link #find} but always walks the chain; writes nothing, so any thread may call it. */
    public int findUncached(int entity, int nameHash) {
        if (entity < 0 || entity >= entityPrototypes.length) {
            return NOT_FOUND;
        }
        return findIn(entityPrototypes[entity], nameHash);
    }

    /** The column registered under {@code nameHash} in prototype {@code prototype}'s chain, or {@link #NOT_FOUND}. */
    public int findIn(int prototype, int nameHash) {
        final int[] t = table;
        int q = prototype;
        while (q != EMPTY) {
            int o = q << SHIFT;
            if (t[o + NAME] == nameHash) {
                return t[o + COLUMN];
            }
            q = t[o + BASE];
        }
        return NOT_FOUND;
    }

    /** The prototype handle of an entity ({@link #EMPTY} when nothing is registered). */
    public int prototypeOf(int entity) {
        return entity >= 0 && entity < entityPrototypes.length ? entityPrototypes[entity] : EMPTY;
    }

    /** The columns an entity holds, in registration order (cold: error messages, tools). */
    public int[] columnsOf(int entity) {
        return columnsOf(entity, 0);
    }

    /**
     * As {@link #columnsOf(int)}, in an array with {@code extra} slots left free (zero) after
     * the chain, for a caller that appends to it without a second copy. Costs the chain's
     * length, walked twice.
     */
    public int[] columnsOf(int entity, int extra) {
        int p = prototypeOf(entity);
        int n = depth(p);
        int[] out = new int[n + extra];
        for (int k = n - 1; k >= 0; k--) {
            out[k] = table[(p << SHIFT) + COLUMN];
            p = table[(p << SHIFT) + BASE];
        }
        return out;
    }

    /** The length of a prototype's chain: the number of instances it names. */
    public int depth(int prototype) {
        int n = 0;
        for (int q = prototype; q != EMPTY; q = table[(q << SHIFT) + BASE]) {
            n++;
        }
        return n;
    }

    // ---------------------------------------------------------------- prototype table

    /** A live prototype's 64-bit content id (0 for the empty prototype). */
    public long id(int prototype) {
        return ids[prototype];
    }

    /** A live prototype's base (the prototype it extends). */
    public int base(int prototype) {
        return table[(prototype << SHIFT) + BASE];
    }

    /** The column a live prototype adds to its base. */
    public int column(int prototype) {
        return table[(prototype << SHIFT) + COLUMN];
    }

    /** The name hash a live prototype adds to its base. */
    public int nameHash(int prototype) {
        return table[(prototype << SHIFT) + NAME];
    }

    /** Entities pointing at a live prototype plus prototypes based on it. */
    public int references(int prototype) {
        return table[(prototype << SHIFT) + REFS];
    }

    /**
     * A counter that changes whenever any prototype is reclaimed, so a cache keyed by
     * prototype handle can tell that a handle may have been reused since it looked.
     */
    public int reclaimEpoch() {
        return cacheEpoch;
    }

    /** Live prototypes, the empty one included (so 1 for an index nobody uses). */
    public int prototypeCount() {
        return live;
    }

    /** How many times a new description's id collided with a live one and was re-mixed. */
    public long idCollisions() {
        return collisions;
    }

    /** Chain walks done by batch registration so far (one per run of entities sharing a prototype). */
    long batchWalks() {
        return batchWalks;
    }

    /** The handle of the live prototype with content id {@code id}, or {@link #NOT_FOUND}. */
    public int prototypeWithId(long id) {
        if (id == 0) {
            return EMPTY;
        }
        int mask = idBuckets.length - 1;
        for (int b = idHome(id, mask); idBuckets[b] != 0; b = (b + 1) & mask) {
            if (ids[idBuckets[b]] == id) {
                return idBuckets[b];
            }
        }
        return NOT_FOUND;
    }

    /**
     * Bytes the prototype table holds: its link array, ids, the transition table
     * and the id table, measured from the arrays' actual lengths with the 64-bit JVM array
     * layout (16-byte header, 8-byte alignment). The entity array and the look-up cache are
     * counted apart ({@link #entityBytes}, {@link #cacheBytes}).
     */
    public long tableBytes() {
        return arrayBytes(table.length, 4) + arrayBytes(ids.length, 8)
                + arrayBytes(transitions.length, 4) + arrayBytes(idBuckets.length, 4) + arrayBytes(scratch.length, 4)
                + arrayBytes(pending.length, 4) + arrayBytes(queued.length, 8);
    }

    /** Bytes of the entity-to-prototype array, measured like {@link #tableBytes}. */
    public long entityBytes() {
        return arrayBytes(entityPrototypes.length, 4);
    }

    /** Bytes of the look-up cache (0 without one). */
    public long cacheBytes() {
        return cache == null ? 0 : arrayBytes(cache.length, 8);
    }

    /** The size of a Java array of {@code length} elements of {@code elementBytes} each on a 64-bit JVM. */
    public static long arrayBytes(long length, int elementBytes) {
        return (16 + length * elementBytes + 7) & ~7L;
    }

    // ---------------------------------------------------------------- internals

    /** Grows the per-entity table so entity indices below {@code n} need no growth (a reservation). */
    public void reserveEntities(int n) {
        if (n > 0) {
            ensureEntity(n - 1);
        }
    }

    private void ensureEntity(int entity) {
        if (entity >= entityPrototypes.length) {
            entityPrototypes = Arrays.copyOf(entityPrototypes,
                    (int) Math.min(Integer.MAX_VALUE - 8, Math.max(entity + 1L, entityPrototypes.length * 2L)));
        }
    }

    /**
     * P + {column, name}: one probe of the transition table (keyed by the description, with
     * a cheap hash of the handle, column and name; it is every prototype's edge map at
     * once), else a new prototype.
     */
    private int child(int p, int column, int nameHash, int entity) {
        final int[] t = table;
        final int[] tr = transitions;
        int mask = tr.length - 1;
        for (int b = descHash(p, column, nameHash) & mask; ; b = (b + 1) & mask) {
            int s = tr[b];
            if (s == 0) {
                return create(p, column, nameHash, entity);
            }
            int so = s << SHIFT;
            if (t[so + BASE] == p && t[so + COLUMN] == column && t[so + NAME] == nameHash) {
                return s;
            }
        }
    }

    private static int descHash(int p, int column, int nameHash) {
        // name hashes are already mixed; handles and columns are small, so spread them first
        int h = (p * 0x9E37_79B1) ^ (column * 0x85EB_CA77) ^ nameHash;
        return h ^ (h >>> 16);
    }

    private static int idHome(long id, int mask) {
        return (int) (id ^ (id >>> 32)) & mask;
    }

    /** Creates P + {column, name}, which must not exist: checks the name, picks a free id. */
    private int create(int p, int column, int nameHash, int entity) {
        int existing = findIn(p, nameHash);
        if (existing != NOT_FOUND) {
            throw duplicate(entity, nameHash, existing);
        }
        if (freeHead == 0 && highWater == ids.length) {
            grow();
        }
        long id = mixer.id(ids[p], column, nameHash);
        if (id == 0 || prototypeWithId(id) != NOT_FOUND) {
            long candidate = id;
            do {
                collisions++;
                candidate = fmix64(candidate + REMIX);
            } while (candidate == 0 || prototypeWithId(candidate) != NOT_FOUND);
            id = candidate;
        }
        int s;
        if (freeHead != 0) {
            s = freeHead;
            freeHead = table[(s << SHIFT) + BASE];
        } else {
            s = highWater++;
        }
        int so = s << SHIFT;
        table[so + BASE] = p;
        table[so + COLUMN] = column;
        table[so + NAME] = nameHash;
        table[so + REFS] = 0;
        ids[s] = id;
        insert(transitions, descHash(p, column, nameHash), s);
        insert(idBuckets, idHome(id, idBuckets.length - 1), s);
        if (p != EMPTY) {
            table[(p << SHIFT) + REFS]++;
        }
        live++;
        return s;
    }

    private static void insert(int[] buckets, int hash, int s) {
        int mask = buckets.length - 1;
        int b = hash & mask;
        while (buckets[b] != 0) {
            b = (b + 1) & mask;
        }
        buckets[b] = s;
    }

    private int transitionHome(int s, int mask) {
        int so = s << SHIFT;
        return descHash(table[so + BASE], table[so + COLUMN], table[so + NAME]) & mask;
    }

    /** Drops one reference to {@code p}; when that was the last, queues it for reclamation. */
    private void unref(int p) {
        if (p != EMPTY && --table[(p << SHIFT) + REFS] == 0 && (queued[p >>> 6] & (1L << p)) == 0) {
            if (pendingCount == pending.length) {
                reclaimUnused();
            }
            queued[p >>> 6] |= 1L << p;
            pending[pendingCount++] = p;
        }
    }

    /**
     * Frees every prototype no entity and no other prototype uses any more (those queued
     * since the last reclamation, and the bases they alone kept alive). The index calls it
     * by itself whenever {@value #RECLAIM_BATCH} prototypes are queued; call it at a sync
     * point to trim the table at once.
     *
     * @return the number of prototypes freed
     */
    public int reclaimUnused() {
        int freed = 0;
        for (int i = 0; i < pendingCount; i++) {
            int p = pending[i];
            queued[p >>> 6] &= ~(1L << p);
            if (table[(p << SHIFT) + REFS] == 0) { // revived ones have references again, freed ones are FREE
                freed += reclaim(p);
            }
        }
        pendingCount = 0;
        return freed;
    }

    /** Prototypes queued for reclamation (some may have been revived since). */
    public int pendingReclamation() {
        return pendingCount;
    }

    /** Frees unreferenced {@code p}, then releases its base, and so on down the chain. */
    private int reclaim(int p) {
        int freed = 0;
        while (true) {
            freed++;
            int o = p << SHIFT;
            int base = table[o + BASE];
            removeTransition(p);
            removeId(p);
            cacheEpoch++;
            table[o + REFS] = FREE;
            table[o + BASE] = freeHead;
            freeHead = p;
            live--;
            p = base;
            if (p == EMPTY || --table[(p << SHIFT) + REFS] != 0) {
                return freed;
            }
        }
    }

    /** Removes live {@code s} from the transition table (linear probing, backward shift). */
    private void removeTransition(int s) {
        int[] b = transitions;
        int mask = b.length - 1;
        int i = transitionHome(s, mask);
        while (b[i] != s) {
            i = (i + 1) & mask;
        }
        for (int j = (i + 1) & mask; b[j] != 0; j = (j + 1) & mask) {
            int h = transitionHome(b[j], mask);
            if (i <= j ? (h <= i || h > j) : (h <= i && h > j)) {
                b[i] = b[j];
                i = j;
            }
        }
        b[i] = 0;
    }

    /** Removes live {@code s} from the id table (linear probing, backward shift). */
    private void removeId(int s) {
        int[] b = idBuckets;
        int mask = b.length - 1;
        int i = idHome(ids[s], mask);
        while (b[i] != s) {
            i = (i + 1) & mask;
        }
        for (int j = (i + 1) & mask; b[j] != 0; j = (j + 1) & mask) {
            int h = idHome(ids[b[j]], mask);
            if (i <= j ? (h <= i || h > j) : (h <= i && h > j)) {
                b[i] = b[j];
                i = j;
            }
        }
        b[i] = 0;
    }

    private void grow() {
        int cap = ids.length * 2;
        table = Arrays.copyOf(table, cap << SHIFT);
        ids = Arrays.copyOf(ids, cap);
        queued = Arrays.copyOf(queued, (cap + 63) >>> 6);
        transitions = new int[cap * 2];
        idBuckets = new int[cap * 2];
        for (int s = 1; s < highWater; s++) {
            if (table[(s << SHIFT) + REFS] == FREE) {
                continue;
            }
            insert(transitions, transitionHome(s, transitions.length - 1), s);
            insert(idBuckets, idHome(ids[s], idBuckets.length - 1), s);
        }
    }
}
