package dev.orrery.ecs;

import dev.orrery.ecs.component.Component;
import dev.orrery.ecs.component.ComponentRegistry;
import dev.orrery.ecs.component.Entity;
import dev.orrery.ecs.component.StaleEntityException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.List;
import java.util.Objects;
import java.util.function.LongConsumer;

/**
 * A world's relationships: registration of relation kinds, the pairs {@code (R, target)}
 * entities hold, and the cleanup that keeps them from naming dead entities.
 * {@code world.relations()} hands it out.
 *
 * <pre>{@code
 * Relation childOf = world.relations().childOf();        // at set-up, with the components
 * long ship = world.spawn(new Position(0, 0, 0));
 * long turret = world.spawn(new Position(1, 0, 0));
 * world.relations().add(turret, childOf, ship);          // turret is a child of ship
 * world.relations().children(ship);                      // [turret], in the order they were added
 * world.despawn(ship);                                   // despawns turret too (ChildOf's cleanup)
 * }</pre>
 *
 * <p><b>Order.</b> Each relation numbers its pairs as they are made; a holder's targets and a
 * target's holders (a parent's children) are listed in that order. Reparenting makes a new
 * pair, so the child goes to the end of its new parent's children. The order is part of the
 * state: snapshots keep it and the state hash covers it.
 *
 * <p><b>Cleanup.</b> Despawning an entity removes the pairs it holds and applies each
 * relation's {@link Cleanup} to the pairs that target it: the holders lose the pair, or are
 * despawned in turn. The whole cascade runs inside the one despawn, breadth first (the
 * entity, then its holders in relation order and pair order, then theirs), so the ids it
 * frees are reused in an order that depends on nothing but the state.
 *
 * <p>Command buffers record the same changes ({@code commands.addPair(...)},
 * {@code removePair(...)}); playback applies them here, in its deterministic order, and a
 * target may be a provisional handle spawned in the same tick.
 *
 * <p><b>Threading:</b> as the world: changes on the world's thread while no job runs (the
 * structure lock refuses them during iteration); reads on the world's thread, or from jobs
 * while nothing changes the pairs (between sync points).
 *
 * <p>(Over 500 lines on purpose: it is the public face of relationships, each read and change
 * documented with its tags; the stores, the cascade and the hierarchy sit in their own classes.)
 */
public final class Relations {
    /** The world operations the relation store needs; the world supplies them. */
    interface Host {
        /** Refuses a structural change while the structure is locked or off the owner thread. */
        void checkUnlocked(String operation, Object subject);

        /** The index of a live entity, or a {@link StaleEntityException} naming the operation. */
        int requireAlive(long entity, String operation, Object subject);

        /** True when {@code entity} is alive. */
        boolean isAlive(long entity);

        /** The component registry, for the relations' marker columns. */
        ComponentRegistry registry();

        /** Adds marker {@code column} holding {@code target} to a live entity (an archetype move). */
        void addMarker(long entity, Component<Pair> column, long target);

        /** Overwrites the target in a live entity's marker {@code column}. */
        void writeMarker(long entity, Component<Pair> column, long target);

        /** Removes marker {@code column} from a live entity (an archetype move). */
        void removeMarker(long entity, Component<Pair> column);

        /** Despawns one live entity, nothing more (the cascade is the store's). */
        void despawnOne(long entity);

        /** Fires the observers of the changes just made. */
        void afterDirect();
    }

    private static final int NONE = -1;

    private final Host host;
    private final List<Relation> relations = new ArrayList<>();
    private final List<Relation> readOnly = Collections.unmodifiableList(relations);
    private RelationStore[] stores = new RelationStore[0];
    private Hierarchy[] hierarchies = new Hierarchy[0];
    private boolean anyCleanupDespawns;
    private final DespawnCascade cascade;

    /** The relations of the world {@code host} stands for; the world makes it. */
    Relations(Host host) {
        this.host = Objects.requireNonNull(host, "host");
        this.cascade = new DespawnCascade(host);
    }

    /**
     * Registers relation {@code name} with its traits, or returns it when registered with the
     * same traits. Register relations at set-up, in the same order wherever a snapshot is
     * written and read, as components: each adds a marker column.
     *
     * @param name the relation's name, not null, unique among this world's relations and component
     *     instance names
     * @param exclusive true when a holder holds at most one pair of it (adding a second replaces
     *     the first)
     * @param acyclic true when a pair that would close a cycle is refused
     * @param cleanup what a target's despawn does to its holders' pairs, not null
     * @return the relation, the same object for every call with this name
     * @throws IllegalArgumentException when registered before with other traits, or the name
     *     is a component's
     */
    public Relation register(String name, boolean exclusive, boolean acyclic, Cleanup cleanup) {
        Objects.requireNonNull(name, "name");
        Objects.requireNonNull(cleanup, "cleanup");
        Relation known = byName(name);
        if (known != null) {
            if (known.exclusive() != exclusive || known.acyclic() != acyclic || known.cleanup() != cleanup) {
                throw new IllegalArgumentException("relation '" + name + "' is registered as " + traits(known)
                        + "; it cannot be registered again as " + Relation.traits(exclusive, acyclic, cleanup));
            }
            return known;
        }
        host.checkUnlocked("register relation", name);
        Relation r = new Relation(relations.size(), name, exclusive, acyclic, cleanup);
        ComponentRegistry reg = host.registry();
        r.column(reg.markerColumn(reg.valueType(Pair.class), name, r));
        relations.add(r);
        stores = Arrays.copyOf(stores, relations.size());
        stores[r.id()] = new RelationStore(r);
        hierarchies = Arrays.copyOf(hierarchies, relations.size());
        anyCleanupDespawns |= cleanup == Cleanup.DESPAWN_HOLDER;
        return r;
    }

    /**
     * The built-in hierarchy relation {@code ChildOf} (exclusive, acyclic, and despawning a
     * parent despawns its children), registered on the first call.
     *
     * @return the {@code ChildOf} relation of this world
     */
    public Relation childOf() {
        return register("ChildOf", true, true, Cleanup.DESPAWN_HOLDER);
    }

    /**
     * The relation registered under {@code name}, or {@code null}.
     *
     * @param name the relation's name
     * @return the relation, or {@code null} when none is registered under {@code name}
     */
    public Relation byName(String name) {
        for (int i = 0, n = relations.size(); i < n; i++) { // by index: childOf() and parent() call it, and an iterator allocated
            Relation r = relations.get(i);
            if (r.name().equals(name)) {
                return r;
            }
        }
        return null;
    }

    /**
     * Every registered relation in registration order (id order).
     *
     * @return an unmodifiable live view: it shows relations registered later too
     */
    public List<Relation> all() {
        return readOnly;
    }

    /**
     * True when a relation is registered.
     *
     * @return true when at least one relation is registered ({@code childOf()} counts once called)
     */
    public boolean any() {
        return !relations.isEmpty();
    }

    private RelationStore store(Relation r) {
        Objects.requireNonNull(r, "relation");
        if (r.id() >= stores.length || stores[r.id()].relation != r) {
            throw new IllegalArgumentException("relation " + r + " was registered by another world; use this world's "
                    + "world.relations().register(\"" + r.name() + "\", ...)");
        }
        return stores[r.id()];
    }

    // ---- changes --------------------------------------------------------------------------
    /**
     * Makes {@code holder} hold {@code (r, target)}. For an exclusive relation this replaces
     * the holder's current target (reparenting; the holder goes last among its new target's
     * holders). Adding a pair the holder already holds changes nothing.
     *
     * @param holder the entity that holds the pair
     * @param r      the relation, registered by this world
     * @param target the entity the pair points at
     * @return true when the pairs changed
     * @throws StaleEntityException if the holder or the target is not alive
     * @throws IllegalArgumentException if holder and target are the same entity, or the pair
     *     would close a cycle of an acyclic relation
     */
    public boolean add(long holder, Relation r, long target) {
        RelationStore s = store(r);
        host.checkUnlocked("add pair", r);
        host.requireAlive(holder, "add pair", r);
        host.requireAlive(target, "add pair target of", r);
        boolean changed = addChecked(s, holder, target);
        host.afterDirect();
        return changed;
    }

    /**
     * Command playback's add: the holder and target are alive (playback checked), and a refusal
     * comes back as its message instead of an exception.
     *
     * @return {@code null} when applied (or nothing to do), else why it was refused
     */
    String addFromPlayback(long holder, Relation r, long target) {
        RelationStore s = store(r);
        String refusal = refusal(s, holder, target);
        if (refusal != null) {
            return refusal;
        }
        addUnchecked(s, holder, target);
        return null;
    }

    private boolean addChecked(RelationStore s, long holder, long target) {
        String refusal = refusal(s, holder, target);
        if (refusal != null) {
            throw new IllegalArgumentException(refusal);
        }
        return addUnchecked(s, holder, target);
    }

    private String refusal(RelationStore s, long holder, long target) {
        Relation r = s.relation;
        if (holder == target) {
            return "pair (" + r + ", " + Entity.toString(target) + ") on " + Entity.toString(holder)
                    + " refused: an entity cannot be its own " + r + " target";
        }
        if (r.acyclic() && s.reaches(target, holder)) {
            return "pair (" + r + ", " + Entity.toString(target) + ") on " + Entity.toString(holder) + " refused: "
                    + Entity.toString(target) + " is already under " + Entity.toString(holder) + " by " + r
                    + ", so the pair would close a cycle; move " + Entity.toString(target) + " out first";
        }
        return null;
    }

    private boolean addUnchecked(RelationStore s, long holder, long target) {
        Relation r = s.relation;
        int first = s.firstOfHolder(Entity.index(holder));
        if (r.exclusive() && first != NONE) {
            if (s.targetAt(first) == target) {
                return false;
            }
            s.unlink(first);
            s.add(holder, target);
            host.writeMarker(holder, r.marker(), target);
            return true;
        }
        if (first != NONE && s.find(holder, target) != NONE) {
            return false;
        }
        s.add(holder, target);
        if (first == NONE) {
            host.addMarker(holder, r.marker(), target);
        }
        return true;
    }

    /**
     * Removes {@code (r, target)} from {@code holder}; the marker column goes with its last pair.
     *
     * @param holder the entity that holds the pair
     * @param r      the relation, registered by this world
     * @param target the entity the pair points at; need not be alive any more
     * @return false (and no change) when the holder did not hold the pair
     * @throws StaleEntityException if the holder is not alive
     */
    public boolean remove(long holder, Relation r, long target) {
        store(r);
        host.checkUnlocked("remove pair", r);
        host.requireAlive(holder, "remove pair", r);
        boolean removed = removeFromPlayback(holder, r, target);
        host.afterDirect();
        return removed;
    }

    /** Command playback's remove (the holder is alive); false when the holder did not hold the pair. */
    boolean removeFromPlayback(long holder, Relation r, long target) {
        RelationStore s = store(r);
        int p = s.find(holder, target);
        if (p == NONE) {
            return false;
        }
        DespawnCascade.unlinkKeepingMarker(s, p, holder, host);
        return true;
    }

    /**
     * Removes every pair of {@code r} that {@code holder} holds.
     *
     * @param holder a live entity
     * @param r      the relation, registered by this world
     * @return how many were removed
     * @throws StaleEntityException if the holder is not alive
     */
    public int removeAll(long holder, Relation r) {
        RelationStore s = store(r);
        host.checkUnlocked("remove pairs", r);
        int hi = host.requireAlive(holder, "remove pairs", r);
        int n = 0;
        for (int p = s.firstOfHolder(hi); p != NONE; p = s.firstOfHolder(hi)) {
            s.unlink(p);
            n++;
        }
        if (n > 0) {
            host.removeMarker(holder, r.marker());
        }
        host.afterDirect();
        return n;
    }

    // ---- despawn --------------------------------------------------------------------------
    /** True when the live entity at index {@code idx} holds a pair or is the target of one. */
    boolean involves(int idx) {
        for (RelationStore s : stores) {
            if (s.involves(idx)) {
                return true;
            }
        }
        return false;
    }

    /**
     * Despawns {@code entity} and applies every relation's cleanup: called by the world's
     * despawn (direct or from playback) when {@link #involves} says the entity is in a pair.
     * Breadth first: the entity, then its holders under {@link Cleanup#DESPAWN_HOLDER}
     * relations (relation order, pair order), then theirs (see {@link DespawnCascade}).
     *
     * @return how many entities were despawned (at least 1)
     */
    int despawnCascading(long entity) {
        return cascade.despawn(entity, stores, anyCleanupDespawns);
    }

    // ---- reads ----------------------------------------------------------------------------
    /**
     * True when live {@code holder} holds {@code (r, target)}.
     *
     * @param holder a live entity of this world
     * @param r the relation, registered by this world
     * @param target the pair's target
     * @return true when the pair is held
     * @throws StaleEntityException if {@code holder} is not alive
     * @throws IllegalArgumentException naming the relation when another world registered it
     */
    public boolean has(long holder, Relation r, long target) {
        RelationStore s = store(r);
        host.requireAlive(holder, "has pair", r);
        return s.find(holder, target) != NONE;
    }

    /**
     * The target of {@code holder}'s pair of {@code r} (its first, for a relation with several),
     * or {@link Entity#NULL} when it holds none.
     *
     * @param holder a live entity of this world
     * @param r the relation, registered by this world
     * @return the target's id, or {@link Entity#NULL}
     * @throws StaleEntityException if {@code holder} is not alive
     */
    public long target(long holder, Relation r) {
        RelationStore s = store(r);
        int p = s.firstOfHolder(host.requireAlive(holder, "target of", r));
        return p == NONE ? Entity.NULL : s.targetAt(p);
    }

    /**
     * How many pairs of {@code r} {@code holder} holds.
     *
     * @param holder a live entity of this world
     * @param r the relation, registered by this world
     * @return the count of pairs, 0 or more (at most 1 for an exclusive relation)
     * @throws StaleEntityException if {@code holder} is not alive
     */
    public int targetCount(long holder, Relation r) {
        RelationStore s = store(r);
        int n = 0;
        for (int p = s.firstOfHolder(host.requireAlive(holder, "targets of", r)); p != NONE; p = s.nextOfHolder(p)) {
            n++;
        }
        return n;
    }

    /**
     * Calls {@code action} with each target of {@code holder}'s pairs of {@code r}, in pair order.
     *
     * @param holder a live entity of this world
     * @param r the relation, registered by this world
     * @param action called once per target, on this thread; it must not change the pairs of
     *     {@code r}
     * @throws StaleEntityException if {@code holder} is not alive
     */
    public void forEachTarget(long holder, Relation r, LongConsumer action) {
        RelationStore s = store(r);
        for (int p = s.firstOfHolder(host.requireAlive(holder, "targets of", r)); p != NONE; p = s.nextOfHolder(p)) {
            action.accept(s.targetAt(p));
        }
    }

    /**
     * The targets of {@code holder}'s pairs of {@code r}, in pair order (a new array).
     *
     * @param holder a live entity of this world
     * @param r the relation, registered by this world
     * @return the targets, empty when the holder holds no pair of {@code r}
     * @throws StaleEntityException if {@code holder} is not alive
     */
    public long[] targets(long holder, Relation r) {
        long[] out = new long[targetCount(holder, r)];
        int[] i = {0};
        forEachTarget(holder, r, t -> out[i[0]++] = t);
        return out;
    }

    /**
     * How many entities hold {@code (r, target)}.
     *
     * @param r the relation, registered by this world
     * @param target a live entity of this world
     * @return the count of holders, 0 or more
     * @throws StaleEntityException if {@code target} is not alive
     */
    public int holderCount(Relation r, long target) {
        RelationStore s = store(r);
        int n = 0;
        for (int p = s.firstOfTarget(host.requireAlive(target, "holders of", r)); p != NONE; p = s.nextOfTarget(p)) {
            n++;
        }
        return n;
    }

    /**
     * Calls {@code action} with each holder of {@code (r, target)}, in pair order (a parent's children in order).
     *
     * @param r the relation, registered by this world
     * @param target a live entity of this world
     * @param action called once per holder, on this thread; it must not change the pairs of
     *     {@code r}
     * @throws StaleEntityException if {@code target} is not alive
     */
    public void forEachHolder(Relation r, long target, LongConsumer action) {
        RelationStore s = store(r);
        for (int p = s.firstOfTarget(host.requireAlive(target, "holders of", r)); p != NONE; p = s.nextOfTarget(p)) {
            action.accept(s.holderAt(p));
        }
    }

    /**
     * The holders of {@code (r, target)} in pair order (a new array).
     *
     * @param r the relation, registered by this world
     * @param target a live entity of this world
     * @return the holders, empty when none holds the pair
     * @throws StaleEntityException if {@code target} is not alive
     */
    public long[] holders(Relation r, long target) {
        long[] out = new long[holderCount(r, target)];
        int[] i = {0};
        forEachHolder(r, target, h -> out[i[0]++] = h);
        return out;
    }

    /**
     * The parent of {@code child} under {@link #childOf()}, or {@link Entity#NULL}.
     *
     * @param child a live entity of this world
     * @return the parent's id, or {@link Entity#NULL} for a root
     * @throws StaleEntityException if {@code child} is not alive
     */
    public long parent(long child) {
        return target(child, childOf());
    }

    /**
     * The children of {@code parent} under {@link #childOf()}, in order (a new array).
     *
     * @param parent a live entity of this world
     * @return the children's ids, empty for a leaf
     * @throws StaleEntityException if {@code parent} is not alive
     */
    public long[] children(long parent) {
        return holders(childOf(), parent);
    }

    /**
     * How many pairs of {@code r} exist.
     *
     * @param r the relation, registered by this world
     * @return the count of pairs of {@code r} in the world, 0 or more
     */
    public int pairCount(Relation r) {
        return store(r).size();
    }

    /**
     * The traversal order of acyclic exclusive relation {@code r}, current for the pairs as
     * they are now (rebuilt on the first call after they changed).
     *
     * @param r an exclusive, acyclic relation registered by this world
     * @return the relation's hierarchy, the same object on every call, refreshed when the pairs
     *     changed
     * @throws IllegalArgumentException if {@code r} is not exclusive and acyclic (a forest)
     */
    public Hierarchy hierarchy(Relation r) {
        RelationStore s = store(r);
        if (!r.exclusive() || !r.acyclic()) {
            throw new IllegalArgumentException("relation " + r + " is " + traits(r) + "; a hierarchy walk needs an "
                    + "exclusive, acyclic relation (a forest), as ChildOf is");
        }
        Hierarchy h = hierarchies[r.id()];
        if (h == null) {
            h = new Hierarchy(r);
            hierarchies[r.id()] = h;
        }
        h.refresh(s);
        return h;
    }

    // ---- snapshots and hashes -------------------------------------------------------------
    /**
     * Every pair of {@code r} as (holder, target, seq) triples in ascending seq, the canonical
     * order snapshots and the state hash use. Cold path; allocates.
     *
     * @param r the relation, registered by this world
     * @return a new array, three longs per pair: {@code 3 * pairCount(r)} long
     */
    public long[] pairs(Relation r) {
        return store(r).pairsInOrder();
    }

    /** Receives pairs from {@link #forEachPair}. */
    @FunctionalInterface
    interface PairVisitor {
        /** One pair: {@code holder} holds {@code (relation, target)}, made as number {@code seq}. */
        void visit(long holder, long target, long seq);
    }

    /**
     * Visits every pair of {@code r} in a canonical order that needs no sort: targets by
     * ascending entity index, each target's holders in pair order. The state hash uses it
     * every tick a recording hashes, so it allocates nothing and costs O(pairs + entity
     * indices).
     */
    void forEachPair(Relation r, PairVisitor visitor) {
        store(r).forEachPair(visitor);
    }

    /** The sequence number {@code r}'s next pair will get. */
    long nextSeq(Relation r) {
        return store(r).nextSeq();
    }

    /**
     * Replaces {@code r}'s pairs with {@code triples} (as {@link #pairs} gives them) without
     * touching any row: a snapshot restore, whose rows already carry the marker columns.
     *
     * <p>It checks the order and that every entity named is alive; the snapshot reader checks
     * the rest (markers equal to first targets, no marker without a pair, no cycle) before it
     * touches the world.
     *
     * @throws IllegalArgumentException when the triples are not in ascending seq or name a dead entity
     */
    void restore(Relation r, long[] triples, long nextSeq) {
        RelationStore s = store(r);
        if (triples.length % 3 != 0) {
            throw new IllegalArgumentException("relation " + r + " pairs: " + triples.length + " words is not triples");
        }
        s.clear(nextSeq);
        long last = 0;
        for (int i = 0; i < triples.length; i += 3) {
            long h = triples[i];
            long t = triples[i + 1];
            long q = triples[i + 2];
            if (q <= last || q >= nextSeq) {
                throw new IllegalArgumentException("relation " + r + " pair " + (i / 3) + " has seq " + q
                        + " out of order (after " + last + ", next " + nextSeq + ")");
            }
            if (!host.isAlive(h) || !host.isAlive(t)) {
                throw new IllegalArgumentException("relation " + r + " pair (" + Entity.toString(h) + ", "
                        + Entity.toString(t) + ") names an entity that is not alive");
            }
            last = q;
            s.link(h, t, q);
        }
    }

    private static String traits(Relation r) {
        return Relation.traits(r.exclusive(), r.acyclic(), r.cleanup());
    }
}
