package dev.orrery.examples;

import dev.orrery.ecs.ChunkView;
import dev.orrery.ecs.Hierarchy;
import dev.orrery.ecs.Relation;
import dev.orrery.ecs.Relations;
import dev.orrery.ecs.World;
import dev.orrery.ecs.component.Component;
import dev.orrery.ecs.component.Field;
import dev.orrery.engine.Simulation;

/**
 * Relations and hierarchies: stars, planets that are {@code ChildOf} a star and moons that are
 * {@code ChildOf} a planet. A chunk system turns every orbiting body's local offset; a level
 * system walks the hierarchy a level at a time (parents before children, each level split over
 * the workers) and propagates world positions down the trees. Prints the state hash on 1 and 2
 * workers, a moon's world position next to the sum of the local offsets above it, and what
 * despawning a star takes along. Run it with a tick count ({@code 200} by default).
 */
public final class HierarchyTransforms {
    // snippet:components
    record Local(float x, float y) {}            // the offset from the parent (a star's: from the origin)
    record Global(float x, float y) {}           // the world position: the parent's Global plus Local
    record Spin(float cos, float sin) {}         // how far an orbiting body turns about its parent each tick
    // end:components

    static final int STARS = 40, PLANETS = 10, MOONS = 5;

    private HierarchyTransforms() {
    }

    /** The star systems and their two systems, on {@code workers} threads. */
    static Simulation build(int workers) {
        World world = new World();
        Component<Local> local = world.component(Local.class);
        Component<Global> global = world.component(Global.class);
        Component<Spin> spin = world.component(Spin.class);
        Field lx = local.field("x"), ly = local.field("y"), gx = global.field("x"), gy = global.field("y");
        Field cos = spin.field("cos"), sin = spin.field("sin");
        // snippet:tree
        Relation childOf = world.relations().childOf();           // the built-in forest relation
        for (int s = 0; s < STARS; s++) {
            long star = world.spawn(new Local(s * 1_000, 0), new Global(0, 0));
            for (int p = 0; p < PLANETS; p++) {
                long planet = world.spawn(new Local(100 + 20 * p, 0), new Global(0, 0), turn(0.01f * (p + 1)));
                world.relations().add(planet, childOf, star);          // planet ChildOf star
                for (int m = 0; m < MOONS; m++) {
                    long moon = world.spawn(new Local(3 + m, 0), new Global(0, 0), turn(0.1f * (m + 1)));
                    world.relations().add(moon, childOf, planet);
                }
            }
        }
        // end:tree
        // snippet:systems
        return Simulation.builder(world).workers(workers)
                .systems(s -> s
                        .system("orbit").query(world.query().with(local, spin).build()).reads(spin).writes(local)
                        .forEachChunk(job -> {
                            ChunkView c = job.chunk();
                            float[] x = c.writeFloats(lx), y = c.writeFloats(ly);
                            float[] cs = c.readFloats(cos), sn = c.readFloats(sin);
                            for (int i = 0; i < c.size(); i++) {
                                float nx = x[i] * cs[i] - y[i] * sn[i];
                                y[i] = x[i] * sn[i] + y[i] * cs[i];
                                x[i] = nx;
                            }
                        })
                        // reads Local, which "orbit" writes, so the graph runs it after "orbit"
                        .system("propagate").reads(local).writes(global).minBatchRows(64)
                        .forEachLevel(childOf, (job, h, from, to) -> {
                            for (int i = from; i < to; i++) {             // slots of one level
                                long e = h.entity(i);
                                float x = job.getFloat(e, lx), y = job.getFloat(e, ly);
                                int p = h.parentSlot(i);                  // -1 for a root
                                if (p >= 0) {                             // the parent's, written a level earlier
                                    x += job.getFloat(h.entity(p), gx);
                                    y += job.getFloat(h.entity(p), gy);
                                }
                                job.setFloat(e, gx, x);
                                job.setFloat(e, gy, y);
                            }
                        }))
                .build();
        // end:systems
    }

    /** A turn by {@code radians} a tick ({@code StrictMath}: the same bits on every JVM). */
    static Spin turn(float radians) {
        return new Spin((float) StrictMath.cos(radians), (float) StrictMath.sin(radians));
    }

    public static void main(String[] args) {
        ProgramArgs.atMost("HierarchyTransforms", args, "ticks");
        int ticks = ProgramArgs.number("HierarchyTransforms", args, 0, "ticks", 200, 1, 1_000_000);
        for (int workers = 1; workers <= 2; workers++) {
            try (Simulation sim = build(workers)) {
                sim.run(ticks, 0);
                System.out.printf("%d worker(s), %d ticks: hash=%016x%n", workers, ticks, sim.world().stateHash());
                if (workers == 2) {
                    inspect(sim.world());
                }
            }
        }
    }

    /** Reads the trees back: a moon's position, the levels, and a despawn's cascade. */
    static void inspect(World world) {
        // snippet:inspect
        Component<Local> local = world.component(Local.class);   // the registered columns, looked up by type
        Component<Global> global = world.component(Global.class);
        Relations relations = world.relations();
        Hierarchy h = relations.hierarchy(relations.childOf());   // breadth first: stars, then planets, then moons
        long moon = h.entity(h.size() - 1);                       // the last slot: a moon
        long planet = relations.parent(moon), star = relations.parent(planet);
        Local m = world.get(moon, local), p = world.get(planet, local), s = world.get(star, local);
        Global g = world.get(moon, global);
        System.out.printf("%d levels, %d bodies; a moon at (%s, %s), its offsets summed up the tree (%s, %s)%n",
                h.levels(), h.size(), g.x(), g.y(), m.x() + (p.x() + s.x()), m.y() + (p.y() + s.y()));
        int planets = relations.children(star).length, before = world.entityCount();
        world.despawn(star);                                      // ChildOf's cleanup despawns its descendants too
        System.out.printf("despawning a star with %d planets despawned %d bodies%n", planets,
                before - world.entityCount());
        // end:inspect
    }
}
