package dev.orrery.ecs;

import dev.orrery.ecs.archetype.Archetype;
import dev.orrery.ecs.component.Component;
import dev.orrery.ecs.component.ComponentRegistry;
import dev.orrery.ecs.component.Entity;
import dev.orrery.ecs.storage.EntityTable;
import dev.orrery.ecs.structure.EntityRows;
import dev.orrery.ecs.structure.SparseColumns;
import java.util.List;

/**
 * The world's side of its relation store ({@link Relations.Host}): marker columns added,
 * written and removed through the entity rows (so archetypes, names and change versions stay
 * true, and observers of a marker column fire), and one entity despawned without cascade.
 * Also the checks that keep marker columns out of every other way of changing a row.
 *
 * <p><b>Threading:</b> as the world.
 */
final class WorldRelations implements Relations.Host {
    private final World world;
    private final EntityRows rows;
    private final EntityTable entities;
    private final SparseColumns sparse;
    final Relations relations;

    WorldRelations(World world, EntityRows rows, EntityTable entities, SparseColumns sparse) {
        this.world = world;
        this.rows = rows;
        this.entities = entities;
        this.sparse = sparse;
        this.relations = new Relations(this);
    }

    @Override
    public void checkUnlocked(String operation, Object subject) {
        world.checkUnlocked(operation, subject);
    }

    @Override
    public int requireAlive(long entity, String operation, Object subject) {
        return world.requireAlive(entity, operation, subject);
    }

    @Override
    public boolean isAlive(long entity) {
        return entities.isAlive(entity);
    }

    @Override
    public ComponentRegistry registry() {
        return world.components();
    }

    @Override
    public void addMarker(long entity, Component<Pair> column, long target) {
        int idx = Entity.index(entity);
        rows.add(idx, entity, column, null);
        ((long[]) rows.arraysOf(idx, entity, column)[0])[entities.row(idx)] = target; // part of the add
    }

    @Override
    public void writeMarker(long entity, Component<Pair> column, long target) {
        int idx = Entity.index(entity);
        ((long[]) rows.arraysOf(idx, entity, column)[0])[entities.row(idx)] = target;
        rows.markChanged(idx, entity, column); // stamps the row and queues onSet
    }

    @Override
    public void removeMarker(long entity, Component<Pair> column) {
        rows.remove(Entity.index(entity), entity, column);
    }

    @Override
    public void despawnOne(long entity) {
        int idx = Entity.index(entity);
        sparse.despawned(idx);
        rows.despawn(entity, idx);
    }

    @Override
    public void afterDirect() {
        world.changes().afterDirect(world);
    }

    /** Despawns {@code entity} (index {@code idx}), with its relations' cleanup when it is in a pair. */
    void despawn(long entity, int idx) {
        if (relations.any() && relations.involves(idx)) {
            relations.despawnCascading(entity);
        } else {
            despawnOne(entity);
        }
    }

    /**
     * Refuses a move that would add or drop a marker column round the store.
     *
     * @throws IllegalArgumentException naming the relation
     */
    void checkMove(Archetype from, Archetype to) {
        if (!relations.any()) {
            return;
        }
        List<Relation> all = relations.all();
        for (int i = 0, n = all.size(); i < n; i++) { // by index: an iterator would be two objects a moved entity
            Relation r = all.get(i);
            int id = r.column().id();
            if (from.has(id) != to.has(id)) {
                r.column().refuseIfRelationMarker("moving an entity to an archetype that " + (to.has(id) ? "adds" : "drops"));
            }
        }
    }

    /** Refuses an archetype holding a marker column as a spawn target (a marker needs its pair). */
    void checkSpawnInto(Archetype a) {
        if (!relations.any()) {
            return;
        }
        List<Relation> all = relations.all();
        for (int i = 0, n = all.size(); i < n; i++) {
            Relation r = all.get(i);
            if (a.has(r.column().id())) {
                r.column().refuseIfRelationMarker("spawning with");
            }
        }
    }
}
