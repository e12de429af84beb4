package dev.orrery.examples.javadoc;

import dev.orrery.ecs.ChunkView;
import dev.orrery.ecs.CommandBuffer;
import dev.orrery.ecs.CommandKind;
import dev.orrery.ecs.CommandOutcome;
import dev.orrery.ecs.EntityBuilder;
import dev.orrery.ecs.Hierarchy;
import dev.orrery.ecs.PlaybackReport;
import dev.orrery.ecs.PropertyHandle;
import dev.orrery.ecs.Query;
import dev.orrery.ecs.Relation;
import dev.orrery.ecs.RemovedEntities;
import dev.orrery.ecs.Shape;
import dev.orrery.ecs.Template;
import dev.orrery.ecs.World;
import dev.orrery.ecs.component.Component;
import dev.orrery.ecs.component.Entity;
import dev.orrery.ecs.component.Field;
import dev.orrery.scheduler.JobContext;
import java.util.List;
import java.util.Map;

/**
 * The Javadoc examples of package {@code dev.orrery.ecs}, as compiled code: each method holds
 * one type's example verbatim, with the variables it takes for granted as parameters.
 * {@code JavadocExamplesTest} fails when an example in the library's Javadoc is not found here.
 */
final class EcsExamples {
    record Position(float x, float y, float z) {}
    record Velocity(float x, float y, float z) {}
    record Health(int hp, int max) {}
    record Loot(int gold) {}
    record Burning() {}
    record Corpse(int size) {}
    record Transform(float x, float y, float z) {}
    record RenderData(float density) {}
    record Spawn(Position position, Velocity velocity) {}

    private EcsExamples() {
    }

    /** {@link World}. */
    static void world() {
        World world = new World();
        Component<Position> pos = world.component(Position.class);
        Component<Velocity> vel = world.component(Velocity.class);
        long e = world.spawn(new Position(0, 0, 0), new Velocity(1, 0, 0));
        Query moving = world.query().with(pos, vel).build();
        Field px = pos.field("x"), vx = vel.field("x");
        moving.forEachChunk(c -> {
            float[] x = c.writeFloats(px);
            float[] v = c.readFloats(vx);
            for (int i = 0, n = c.size(); i < n; i++) x[i] += v[i];
        });
        System.out.println("spawned " + Entity.toString(e));
    }

    /** {@link ChunkView}. */
    static void chunkView(ChunkView chunk, Field posX, Field velX, float dt) {
        float[] px = chunk.writeFloats(posX);
        float[] vx = chunk.readFloats(velX);
        for (int i = 0, n = chunk.size(); i < n; i++) px[i] += vx[i] * dt;
    }

    /** {@link ChunkView#markRows}. */
    static void markRows(ChunkView chunk, Component<Position> pos, Field posX, boolean[] hit) {
        chunk.markRows(pos);
        float[] x = chunk.writeFloats(posX);
        for (int i = 0; i < chunk.size(); i++) if (hit[i]) { x[i] -= 1; chunk.markChanged(pos, i); }
    }

    /** {@link CommandBuffer}: a spawn into a prepared shape, with no records. */
    static void commandBuffer(World world, Component<Position> pos, Component<Velocity> vel, CommandBuffer commands,
            Field px, Field vy, float x) {
        Shape particle = world.shape(pos, vel);            // once, on the world's thread
        long p = commands.spawn(particle);                  // in a job
        commands.setFloat(p, px, x);
        commands.setFloat(p, vy, 2f);
    }

    /** {@link dev.orrery.ecs.ComponentObservers}. */
    static void componentObservers(World world, Component<Health> health, Component<Loot> loot,
            Component<Burning> burning, Component<Corpse> corpse) {
        world.observe(health).onRemove((w, e, commands) -> commands.add(e, corpse));
        world.observe(loot).onRemove((w, e, last, commands) ->      // with the value it held
                commands.add(commands.spawn(), loot, last));        // dropped as an entity of its own
        world.observe(burning).onAdd((w, e, commands) -> System.out.println("burning " + Entity.toString(e)));
    }

    /** {@link dev.orrery.ecs.ValueHook}. */
    static void valueHook(World world, Component<Health> health, Shape corpse, Field corpseSize) {
        world.observe(health).onRemove((w, e, last, commands) ->   // last: the Health it held
                commands.setInt(commands.spawn(corpse), corpseSize, last.max()));   // a corpse that big
    }

    /** {@link EntityBuilder}: many identical entities in bulk. */
    static long[] entityBuilder(World world, Component<Position> pos, Component<Velocity> vel, Velocity v) {
        long[] ids = world.entity().with(pos, new Position(0, 0, 0)).with(vel, v).spawnMany(1_000_000);
        return ids;
    }

    /** {@link EntityBuilder}: one builder reused for varying spawns. */
    static void entityBuilderReused(World world, Component<Position> pos, Component<Velocity> vel, List<Spawn> wave) {
        EntityBuilder b = world.entity().with(pos).with(vel);
        for (Spawn s : wave) {
            b.set(pos, s.position()).set(vel, s.velocity()).spawn();
        }
    }

    /** {@link Hierarchy}: transform propagation in one pass. */
    static float[] hierarchy(World world, Relation childOf, Field localX) {
        Hierarchy h = world.relations().hierarchy(childOf);
        float[] worldX = new float[h.size()];
        for (int i = 0; i < h.size(); i++) {
            int p = h.parentSlot(i);                       // -1 for a root
            worldX[i] = (p < 0 ? 0 : worldX[p]) + world.getFloat(h.entity(i), localX);
        }
        return worldX;
    }

    /** {@link Hierarchy#slotOf}. */
    static void slotOf(ChunkView view, Hierarchy h, Field localX, float[] slotX) {
        long[] ids = view.entities();
        float[] x = view.readFloats(localX);
        for (int row = 0; row < view.size(); row++) {
            int slot = h.slotOf(ids[row]);              // -1: in no tree
            if (slot >= 0) slotX[slot] = x[row];
        }
    }

    /** {@link PlaybackReport}. */
    static long playbackReport(World world, List<CommandBuffer> buffers) {
        PlaybackReport r = world.apply(buffers);
        long reaped = r.count(CommandKind.DESPAWN, CommandOutcome.APPLIED);
        long late = r.count(CommandKind.SET, CommandOutcome.SKIPPED_DEAD);
        return reaped + late;
    }

    /** {@link PropertyHandle}. */
    static void propertyHandle(World world, long[] lamps) {
        PropertyHandle density = world.property("Fog", "density");
        for (long e : lamps) density.setFloat(e, 0.5f);
    }

    /** {@link dev.orrery.ecs.Relations}. */
    static void relations(World world) {
        Relation childOf = world.relations().childOf();        // at set-up, with the components
        long ship = world.spawn(new Position(0, 0, 0));
        long turret = world.spawn(new Position(1, 0, 0));
        world.relations().add(turret, childOf, ship);          // turret is a child of ship
        world.relations().children(ship);                      // [turret], in the order they were added
        world.despawn(ship);                                   // despawns turret too (ChildOf's cleanup)
    }

    /** {@link RemovedEntities}, in a system's body. */
    static void removedEntities(JobContext job, Component<Health> health, Map<Long, String> lastSeen) {
        RemovedEntities gone = job.removed(health);   // in a scheduled system: since its last run
        for (int i = 0; i < gone.count(); i++) lastSeen.remove(gone.entity(i));   // forget them
    }

    /** {@link RemovedEntities#missed}, in an exclusive system's body. */
    static void removedEntitiesMissed(World world, JobContext job, Component<Health> health, Map<Long, String> lastSeen) {
        RemovedEntities gone = job.removed(health);   // in an exclusive system
        if (gone.missed()) lastSeen.keySet().removeIf(e -> !world.isAlive(e) || !world.has(e, health)); // from the world
        else for (int i = 0; i < gone.count(); i++) lastSeen.remove(gone.entity(i));
    }

    /** {@link Shape}. */
    static void shape(World world, Component<Position> pos, Component<Velocity> vel, Field px, Field py, Field vx,
            float x, float y, float dx, float dy) {
        Shape bullet = world.shape(pos, vel);
        long e = bullet.spawn(new Position(x, y, 0), new Velocity(dx, dy, 0));   // values in shape order
        long f = bullet.spawnRow().setFloat(px, x).setFloat(py, y).setFloat(vx, dx).id(); // no records at all
        System.out.println(Entity.toString(e) + " and " + Entity.toString(f));
    }

    /** {@link Shape#spawnMany(int, Shape.BatchWriter)}. */
    static void spawnMany(Shape shape, Field px) {
        shape.spawnMany(1_000_000, (rows, from, to, first) -> {
            float[] x = rows.writeFloats(px);
            for (int r = from; r < to; r++) x[r] = first + (r - from);   // entity number first + (r - from)
        });
    }

    /** {@link Template}. */
    static long[] template(World world, Component<Transform> transform, Component<RenderData> fog,
            Component<RenderData> vignette) {
        Template lamp = Template.named("Lamp")
                .with(transform, new Transform(0, 0, 0))
                .with(fog, new RenderData(0.2f))       // RenderData:Fog
                .with(vignette, new RenderData(0.8f))  // RenderData:Vignette
                .build();
        long[] lamps = world.spawnMany(lamp, 10_000);
        return lamps;
    }
}
