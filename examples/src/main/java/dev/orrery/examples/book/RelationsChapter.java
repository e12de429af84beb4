package dev.orrery.examples.book;

import dev.orrery.ecs.ChunkView;
import dev.orrery.ecs.Cleanup;
import dev.orrery.ecs.CommandBuffer;
import dev.orrery.ecs.Hierarchy;
import dev.orrery.ecs.Query;
import dev.orrery.ecs.Relation;
import dev.orrery.ecs.Relations;
import dev.orrery.ecs.UndeclaredAccessException;
import dev.orrery.ecs.World;
import dev.orrery.ecs.component.Component;
import dev.orrery.ecs.component.Field;
import dev.orrery.examples.ProgramArgs;
import dev.orrery.scheduler.LongSum;
import dev.orrery.scheduler.ResourceKey;
import dev.orrery.scheduler.Resources;
import dev.orrery.scheduler.Schedule;
import dev.orrery.scheduler.ScheduleExecutor;
import dev.orrery.scheduler.SystemFailedException;
import java.util.ArrayList;
import java.util.List;

/** The code of docs/relations-and-hierarchy.md. */
public final class RelationsChapter {
    private RelationsChapter() {}

    record Position(float x, float y) {}
    record Ship() {}

    // snippet:transform-types
    record Local(float x, float y, float cos, float sin) {}      // relative to the parent
    record Global(float x, float y, float cos, float sin) {}     // in the world
    // end:transform-types

    // snippet:slot-resource
    static final class SlotTransforms {
        Hierarchy h;
        float[] local = {}, world = {};                           // 4 floats a slot: x, y, cos, sin
    }
    static final ResourceKey<SlotTransforms> SLOTS =
            ResourceKey.of("slot transforms", SlotTransforms.class);
    // end:slot-resource

    static void basics() {
        World world = new World();
        Component<Position> pos = world.component(Position.class);
        // snippet:child-of
        Relations relations = world.relations();
        Relation childOf = relations.childOf();                   // at set-up, like a component
        long ship = world.spawn(new Position(0, 0));
        long turret = world.spawn(new Position(1, 0));
        long gunner = world.spawn(new Position(1, 0));
        relations.add(turret, childOf, ship);                     // turret is a child of ship
        relations.add(gunner, childOf, turret);
        long[] kids = relations.children(ship);                   // [turret], in the order added
        long parent = relations.parent(gunner);                   // turret
        world.despawn(ship);                                      // turret and gunner go too
        // end:child-of
        if (kids.length != 1 || parent != turret || world.isAlive(gunner)) {
            throw new AssertionError();
        }

        // snippet:custom
        Relation likes = relations.register("Likes", false, false, Cleanup.REMOVE_PAIR);
        Relation dockedAt = relations.register("DockedAt", true, false, Cleanup.DESPAWN_HOLDER);
        long alice = world.spawn(new Position(0, 0)), bob = world.spawn(new Position(1, 1));
        long carol = world.spawn(new Position(2, 2));
        relations.add(alice, likes, bob);
        relations.add(alice, likes, carol);                       // not exclusive: two targets
        long[] liked = relations.targets(alice, likes);           // [bob, carol]
        long[] fans = relations.holders(likes, carol);            // [alice]
        world.despawn(carol);                                     // REMOVE_PAIR: alice keeps bob
        // end:custom
        if (liked.length != 2 || fans.length != 1 || relations.targetCount(alice, likes) != 1 || dockedAt == null) {
            throw new AssertionError();
        }
        observePairs(world, childOf);
    }

    static void observePairs(World world, Relation childOf) {
        List<String> log = new ArrayList<>();
        // snippet:observe-pairs
        world.observe(childOf.column())                           // a Component<Pair>
                .onAdd((w, e, commands) -> log.add("adopted by " + w.get(e, childOf.column()).target()))
                .onSet((w, e, commands) -> log.add("moved to " + w.get(e, childOf.column()).target()))
                .onRemove((w, e, last, commands) -> log.add("left " + last.target()));   // last: a Pair
        // end:observe-pairs
        long a = world.spawn(new Position(0, 0)), b = world.spawn(new Position(1, 0));
        long kid = world.spawn(new Position(2, 0));
        world.relations().add(kid, childOf, a);
        world.relations().add(kid, childOf, b);
        world.relations().remove(kid, childOf, b);
        if (!log.equals(List.of("adopted by " + a, "moved to " + b, "left " + b))) {
            throw new AssertionError(log);
        }
    }

    static void queries() {
        World world = new World();
        Component<Position> pos = world.component(Position.class);
        Component<Ship> shipTag = world.component(Ship.class);
        Relation childOf = world.relations().childOf();
        long ship = world.spawn(new Position(5, 5), new Ship());
        for (int i = 0; i < 10; i++) {
            long crew = world.spawn(new Position(i, 0));
            world.relations().add(crew, childOf, ship);
        }
        // snippet:query-pairs
        Query children = world.query().with(pos, childOf.column()).build();   // (ChildOf, *)
        Field parentOf = childOf.target();
        children.forEachChunk(chunk -> {
            long[] parents = chunk.readLongs(parentOf);          // each row's parent
            for (int i = 0, n = chunk.size(); i < n; i++) {
                if (parents[i] == ship) { /* one of the ship's crew */ }
            }
        });
        Query crewOfShip = world.query().with(pos).pair(childOf, ship).build();  // (ChildOf, ship)
        crewOfShip.forEach((view, row) -> { /* decided row by row: forEach, not a chunk loop */ });
        // end:query-pairs
        if (crewOfShip.count() != 10) {
            throw new AssertionError();
        }

        // snippet:commands
        Schedule schedule = Schedule.builder(world)
                .system("launch").query(world.query().with(pos, shipTag).build()).reads(pos)
                .spawns(pos).adds(childOf.column())
                .forEachChunk(job -> {
                    CommandBuffer cmd = job.commands();
                    for (int i = 0; i < job.chunk().size(); i++) {
                        long drone = cmd.spawn();
                        cmd.add(drone, pos, new Position(0, 0));
                        cmd.addPair(drone, childOf, job.chunk().entity(i));  // may name a handle too
                    }
                })
                .build();
        // end:commands
        try (ScheduleExecutor executor = schedule.executor(1)) {
            executor.run();
        }
        if (world.relations().children(ship).length != 11) {
            throw new AssertionError();
        }
        readPairs(world, pos, childOf, ship);
    }

    static void readPairs(World world, Component<Position> pos, Relation childOf, long ship) {
        // snippet:read-pairs
        ResourceKey<LongSum> aboard = ResourceKey.of("aboard", LongSum.class);
        Query crew = world.query().with(pos, childOf.column()).build();
        Field parentOf = childOf.target();
        Schedule schedule = Schedule.builder(world).resource(aboard, new LongSum())
                .system("muster").query(crew).reads(childOf.column())   // reads each row's parent
                .reducesResource(aboard)
                .forEachChunk(job -> {
                    long[] parents = job.chunk().readLongs(parentOf);
                    int n = 0;
                    for (long p : parents) if (p == ship) n++;
                    job.add(aboard, n);
                })
                .build();
        // end:read-pairs
        try (ScheduleExecutor executor = schedule.executor(2)) {
            executor.run();
        }
        if (schedule.resources().get(aboard).total() != world.relations().children(ship).length) {
            throw new AssertionError();
        }
        Schedule undeclared = Schedule.builder(world)
                .system("muster").query(crew)
                .forEachChunk(job -> job.chunk().readLongs(parentOf))
                .build();
        try (ScheduleExecutor executor = undeclared.executor(1)) {
            executor.run();
            throw new AssertionError("a read of ChildOf.target with no .reads(childOf.column()) ran");
        } catch (SystemFailedException failed) {             // its cause is what the job threw
            if (!(failed.getCause() instanceof UndeclaredAccessException refused)
                    || !refused.getMessage().contains(".reads(childOf.column())")) {
                throw new AssertionError(failed);
            }
        }
    }

    static void hierarchy() {
        World world = new World();
        Component<Local> local = world.component(Local.class);
        Component<Global> global = world.component(Global.class);
        Relation childOf = world.relations().childOf();
        long[] previous = new long[100];
        for (int level = 0; level < 5; level++) {
            for (int i = 0; i < 100; i++) {
                long e = world.spawn(new Local(1, 0, (float) Math.cos(0.1), (float) Math.sin(0.1)),
                        new Global(0, 0, 1, 0));
                if (level > 0) {
                    world.relations().add(e, childOf, previous[(i * 7) % 100]);
                }
                previous[i] = e;
            }
        }
        Field lx = local.field("x"), gx = global.field("x");
        // snippet:walk
        Hierarchy h = world.relations().hierarchy(childOf);     // rebuilt only if pairs changed
        float[] x = new float[h.size()];
        for (int slot = 0; slot < h.size(); slot++) {             // breadth first
            int p = h.parentSlot(slot);                           // -1 for a root
            x[slot] = (p < 0 ? 0 : x[p]) + world.getFloat(h.entity(slot), lx);
        }
        // end:walk

        // snippet:level-by-id
        Schedule byId = Schedule.builder(world)
                .system("propagate").reads(local).writes(global)
                .forEachLevel(childOf, (job, hier, from, to) -> {
                    for (int i = from; i < to; i++) {
                        long e = hier.entity(i);
                        int p = hier.parentSlot(i);
                        float parentX = p < 0 ? 0 : job.getFloat(hier.entity(p), gx);  // a level earlier
                        job.setFloat(e, gx, parentX + job.getFloat(e, lx));
                    }
                })
                .build();
        // end:level-by-id
        try (ScheduleExecutor executor = byId.executor(2)) {
            executor.run();
        }
        for (int slot = 0; slot < h.size(); slot++) {
            if (world.getFloat(h.entity(slot), gx) != x[slot]) {
                throw new AssertionError("slot " + slot);
            }
        }
        slotSpace(world, local, global, childOf);
    }

    static void slotSpace(World world, Component<Local> local, Component<Global> global, Relation childOf) {
        Field lx = local.field("x"), ly = local.field("y"), lc = local.field("cos"), ls = local.field("sin");
        Field gx = global.field("x"), gy = global.field("y"), gc = global.field("cos"), gs = global.field("sin");
        Query locals = world.query().with(local).build();
        Query both = world.query().with(local, global).build();
        // snippet:slot-space
        Schedule.Builder b = Schedule.builder(world).resource(SLOTS, new SlotTransforms());
        Resources res = b.resources();
        b.system("slots").exclusive(w -> {                       // the world's thread, no job out
            SlotTransforms st = res.getForWrite(SLOTS);
            st.h = w.relations().hierarchy(childOf);
            if (st.local.length < 4 * st.h.size()) {
                st.local = new float[4 * st.h.size()];
                st.world = new float[4 * st.h.size()];
            }
        });
        // end:slot-space
        // snippet:gather
        b.system("gather").query(locals).reads(local).writesResource(SLOTS).forEachChunk(job -> {
            SlotTransforms st = job.resourceForWrite(SLOTS);      // each row writes its own slot
            ChunkView c = job.chunk();
            long[] ids = c.entities();
            float[] x = c.readFloats(lx), y = c.readFloats(ly);
            float[] cos = c.readFloats(lc), sin = c.readFloats(ls);
            for (int row = 0, n = c.size(); row < n; row++) {
                int k = 4 * st.h.slotOf(ids[row]);
                if (k < 0) continue;                              // in no tree
                st.local[k] = x[row];
                st.local[k + 1] = y[row];
                st.local[k + 2] = cos[row];
                st.local[k + 3] = sin[row];
            }
        });
        // end:gather
        // snippet:propagate
        b.system("propagate").writesResource(SLOTS).forEachLevel(childOf, (job, h, from, to) -> {
            SlotTransforms st = job.resourceForWrite(SLOTS);
            float[] l = st.local, g = st.world;
            for (int i = from; i < to; i++) {
                int k = 4 * i, p = h.parentSlot(i);
                if (p < 0) {                                      // a root
                    System.arraycopy(l, k, g, k, 4);
                    continue;
                }
                int q = 4 * p;                                    // the parent: written a level earlier
                g[k] = g[q] + g[q + 2] * l[k] - g[q + 3] * l[k + 1];
                g[k + 1] = g[q + 1] + g[q + 3] * l[k] + g[q + 2] * l[k + 1];
                g[k + 2] = g[q + 2] * l[k + 2] - g[q + 3] * l[k + 3];
                g[k + 3] = g[q + 3] * l[k + 2] + g[q + 2] * l[k + 3];
            }
        });
        // end:propagate
        // snippet:scatter
        b.system("scatter").query(both).reads(local).writes(global).readsResource(SLOTS)
                .forEachChunk(job -> {
                    SlotTransforms st = job.resource(SLOTS);
                    ChunkView c = job.chunk();
                    long[] ids = c.entities();
                    float[] x = c.writeFloats(gx), y = c.writeFloats(gy);
                    float[] cos = c.writeFloats(gc), sin = c.writeFloats(gs);
                    float[] ownX = c.readFloats(lx), ownY = c.readFloats(ly);
                    float[] ownCos = c.readFloats(lc), ownSin = c.readFloats(ls);
                    for (int row = 0, n = c.size(); row < n; row++) {
                        int k = 4 * st.h.slotOf(ids[row]);
                        boolean alone = k < 0;                    // in no tree: its local transform
                        x[row] = alone ? ownX[row] : st.world[k];
                        y[row] = alone ? ownY[row] : st.world[k + 1];
                        cos[row] = alone ? ownCos[row] : st.world[k + 2];
                        sin[row] = alone ? ownSin[row] : st.world[k + 3];
                    }
                });
        Schedule schedule = b.build();
        // end:scatter
        try (ScheduleExecutor executor = schedule.executor(2)) {
            executor.run();
        }
        // Check against a walk up the parents, entity by entity.
        Hierarchy h = world.relations().hierarchy(childOf);
        for (int slot = 0; slot < h.size(); slot++) {
            long e = h.entity(slot);
            float x = world.getFloat(e, lx), y = world.getFloat(e, ly), c = world.getFloat(e, lc), s = world.getFloat(e, ls);
            for (long p = world.relations().parent(e); p != 0; p = world.relations().parent(p)) {
                float px = world.getFloat(p, lx), py = world.getFloat(p, ly), pc = world.getFloat(p, lc), ps = world.getFloat(p, ls);
                float nx = px + pc * x - ps * y, ny = py + ps * x + pc * y, nc = pc * c - ps * s, ns = ps * c + pc * s;
                x = nx; y = ny; c = nc; s = ns;
            }
            if (Math.abs(world.getFloat(e, gx) - x) > 1e-3f || Math.abs(world.getFloat(e, gy) - y) > 1e-3f) {
                throw new AssertionError("slot " + slot + ": " + world.getFloat(e, gx) + " vs " + x);
            }
        }
    }

    public static void main(String[] args) {
        ProgramArgs.atMost("RelationsChapter", args);
        basics();
        queries();
        hierarchy();
        System.out.println("relations chapter: ok");
    }
}
