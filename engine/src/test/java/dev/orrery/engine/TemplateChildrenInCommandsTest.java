package dev.orrery.engine;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.orrery.ecs.CommandBuffer;
import dev.orrery.ecs.Relation;
import dev.orrery.ecs.Shape;
import dev.orrery.ecs.Template;
import dev.orrery.ecs.World;
import dev.orrery.ecs.component.Component;
import dev.orrery.ecs.component.Field;
import org.junit.jupiter.api.Test;

/**
 * Relations and template spawns in a job's command buffer: a parent and its child spawned
 * from templates in the same tick (both provisional handles), a grandchild spawned through a
 * shape with typed writes, linked by {@code ChildOf} pairs recorded between them. After
 * playback every pair names the real entities, the typed writes landed, a despawn cascades
 * down the chain, and 1 and 2 workers give the same state hash.
 */
class TemplateChildrenInCommandsTest {
    record Position(float x, float y) {
    }

    record Ship() {
    }

    record Big() {
    }

    record Station(int bays) {
    }

    record Drone(int fuel) {
    }

    static final int SHIPS = 40;

    /** Spawns on the first tick only; set on the test thread between ticks. */
    static volatile boolean launch;

    static final class Run {
        World world;
        Simulation sim;
        long[] ships = new long[SHIPS];
        Component<Position> pos;
        Component<Station> station;
        Component<Drone> drone;
        Relation childOf;
    }

    static Run build(int workers) {
        Run r = new Run();
        World world = new World(1024);                              // small chunks: several jobs
        r.world = world;
        r.pos = world.component(Position.class);
        Component<Ship> ship = world.component(Ship.class);
        Component<Big> big = world.component(Big.class);
        r.station = world.component(Station.class);
        r.drone = world.component(Drone.class);
        r.childOf = world.relations().childOf();
        for (int i = 0; i < SHIPS; i++) {
            r.ships[i] = i % 2 == 0 ? world.spawn(new Position(i, 0), new Ship())
                    : world.spawn(new Position(i, 0), new Ship(), new Big());
        }
        Component<Position> pos = r.pos;
        Relation childOf = r.childOf;
        Field px = pos.field("x");
        Template stationTemplate = Template.named("Station").with(pos, new Position(1, 1)).with(r.station, new Station(4))
                .build();
        Template droneTemplate = Template.named("Drone").with(pos, new Position(2, 2)).with(r.drone, new Drone(9)).build();
        Shape probe = world.shape(pos);
        r.sim = Simulation.builder(world).workers(workers).seed(5).systems(s -> s
                .system("launch").query(world.query().with(pos, ship).build()).reads(pos)
                .spawns(pos, r.station, r.drone).adds(childOf.column()).forEachChunk(job -> {
                    if (!launch) {
                        return;
                    }
                    CommandBuffer cmd = job.commands();
                    float[] x = job.chunk().readFloats(px);
                    for (int i = 0; i < job.chunk().size(); i++) {
                        long parent = cmd.spawn(stationTemplate);
                        long child = cmd.spawn(droneTemplate);
                        cmd.addPair(child, childOf, parent);                  // both provisional
                        cmd.addPair(parent, childOf, job.chunk().entity(i));  // provisional under a real one
                        long grandchild = cmd.spawn(probe);
                        cmd.setFloat(grandchild, px, x[i]);                   // into the shape spawn
                        cmd.addPair(grandchild, childOf, child);
                        cmd.setFloat(child, px, 100 + x[i]);                  // after other commands
                    }
                }))
                .build();
        return r;
    }

    @Test
    void shouldLinkTemplateChildrenToTheirRealParentsOnEveryWorkerCount() {
        long[] hashes = new long[2];
        for (int workers = 1; workers <= 2; workers++) {
            Run r = build(workers);
            try (Simulation sim = r.sim) {
                launch = true;
                sim.tick();
                launch = false;
                sim.tick();
                String w = workers + " worker(s): ";
                var rel = r.world.relations();
                for (int i = 0; i < SHIPS; i++) {
                    long[] stations = rel.children(r.ships[i]);
                    assertEquals(1, stations.length, w + "ship " + i + " has its station");
                    long st = stations[0];
                    assertFalse(CommandBuffer.isProvisional(st), w + "a real id");
                    assertTrue(r.world.isAlive(st), w);
                    assertEquals(new Station(4), r.world.get(st, r.station), w + "the template's value");
                    long[] drones = rel.children(st);
                    assertEquals(1, drones.length, w + "station of ship " + i + " has its drone");
                    long dr = drones[0];
                    assertEquals(st, rel.parent(dr), w + "the drone's parent is the real station");
                    assertEquals(new Drone(9), r.world.get(dr, r.drone), w);
                    assertEquals(100 + i, r.world.get(dr, r.pos).x(), w + "the set after the pairs landed");
                    long[] probes = rel.children(dr);
                    assertEquals(1, probes.length, w + "drone of ship " + i + " has its probe");
                    assertEquals(i, r.world.get(probes[0], r.pos).x(), w + "the shape spawn's typed write");
                }
                hashes[workers - 1] = r.world.stateHash();
                long st = rel.children(r.ships[0])[0];
                long dr = rel.children(st)[0];
                long pr = rel.children(dr)[0];
                r.world.despawn(r.ships[0]);
                assertFalse(r.world.isAlive(st) || r.world.isAlive(dr) || r.world.isAlive(pr),
                        w + "despawning the ship despawns the chain spawned under it");
            }
        }
        assertEquals(hashes[0], hashes[1], "the same state hash on 1 and 2 workers");
    }
}
