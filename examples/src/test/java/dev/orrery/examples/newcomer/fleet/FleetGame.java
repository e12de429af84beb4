package dev.orrery.examples.newcomer.fleet;

import dev.orrery.ecs.ChunkView;
import dev.orrery.ecs.Cleanup;
import dev.orrery.ecs.CommandBuffer;
import dev.orrery.ecs.Hierarchy;
import dev.orrery.ecs.PropertyHandle;
import dev.orrery.ecs.Query;
import dev.orrery.ecs.Relation;
import dev.orrery.ecs.Relations;
import dev.orrery.ecs.Template;
import dev.orrery.ecs.World;
import dev.orrery.ecs.component.Component;
import dev.orrery.ecs.component.Field;
import dev.orrery.engine.ResourceCodec;
import dev.orrery.engine.Simulation;
import dev.orrery.scheduler.LongSum;
import dev.orrery.scheduler.Phase;
import dev.orrery.scheduler.ResourceKey;
import dev.orrery.testkit.SimulationFactory;
import java.io.DataInput;
import java.io.DataOutput;
import java.io.IOException;

/**
 * A fleet, written from docs/relations-and-hierarchy.md only. Carriers (a template) launch a
 * drone every other tick from a chunk system: a command-buffer template spawn given a
 * {@code ChildOf} pair to the carrier, and every fourth tick a buoy spawned beside it and
 * tethered to the still provisional drone ({@code Tethered}: exclusive, {@code DESPAWN_HOLDER}).
 * Carriers burn a unit of fuel a tick and are scrapped by a command when it runs out: the
 * despawn takes their drones (ChildOf) and the drones' buoys (Tethered) in the one playback,
 * while the launch recorded earlier in the same playback added a drone to that carrier. A
 * shipyard builds a carrier every 25 ticks. Escorts follow the two lowest-numbered carriers
 * ({@code Escorts}: not exclusive, {@code REMOVE_PAIR}), re-assigned every fifth tick. A level
 * system propagates each drone's position from its carrier; a census walks the hierarchy and
 * counts the flagship's crew with a pair query, writing what it found by property name.
 */
public final class FleetGame implements SimulationFactory {
    record Hull(int fuel) {}
    record Local(float x) {}
    record Global(float x) {}
    record Flag() {}
    record Escort() {}
    record Scrap(float x) {}
    record Census(int drones, int buoys, int levels, int slots, int flagshipCrew, int escorted, int lost) {}

    static final ResourceKey<LongSum> LAUNCHED = ResourceKey.of("launched", LongSum.class);

    static final ResourceCodec<LongSum> SUM_CODEC = new ResourceCodec<>() {
        @Override
        public void write(LongSum s, DataOutput out) throws IOException {
            out.writeLong(s.total());
        }

        @Override
        public LongSum read(DataInput in) throws IOException {
            return new LongSum(in.readLong());
        }
    };

    /** What a test needs to look into a fleet: the same registrations give the same handles. */
    static final class Handles {
        Component<Hull> hull;
        Component<Local> local;
        Component<Global> global;
        Component<Flag> flag;
        Component<Escort> escort;
        Component<Census> census;
        Component<Scrap> scrap;
        Relation childOf, escorts, tethered;
        Template carrier, drone, buoy;
    }

    static Handles handles(World world) {
        Handles h = new Handles();
        h.hull = world.component(Hull.class);
        h.local = world.component(Local.class);
        h.global = world.component(Global.class);
        h.flag = world.component(Flag.class);
        h.escort = world.component(Escort.class);
        h.census = world.component(Census.class);
        h.scrap = world.component(Scrap.class);
        Relations relations = world.relations();
        h.childOf = relations.childOf();
        h.escorts = relations.register("Escorts", false, false, Cleanup.REMOVE_PAIR);
        h.tethered = relations.register("Tethered", true, false, Cleanup.DESPAWN_HOLDER);
        h.carrier = Template.named("Carrier").with(h.hull, new Hull(30)).with(h.local, new Local(0))
                .with(h.global, new Global(0)).build();
        h.drone = Template.named("Drone").with(h.local, new Local(1)).with(h.global).build();
        h.buoy = Template.named("Buoy").with(h.local, new Local(0)).build();
        return h;
    }

    @Override
    public Simulation create(int workers, boolean populate) {
        World world = new World();
        Handles h = handles(world);
        Field fuel = h.hull.field("fuel");
        Field lx = h.local.field("x"), gx = h.global.field("x");
        PropertyHandle lost = world.property("Census", "lost");
        // Every drone that loses its carrier (the holder despawned with it) is counted, by name.
        Query censusRow = world.query().with(h.census).build();
        world.observe(h.childOf.column()).onRemove((w, e, last, commands) ->
                censusRow.forEach((view, row) -> lost.setInt(view.entity(row), lost.getInt(view.entity(row)) + 1)));

        if (populate) {
            world.spawn(new Census(0, 0, 0, 0, 0, 0, 0));
            long flagship = world.spawn(h.carrier);
            world.set(flagship, h.hull, new Hull(1_000));
            world.add(flagship, h.flag);
            for (int i = 1; i <= 3; i++) {
                long c = world.spawn(h.carrier);
                world.set(c, h.hull, new Hull(10 + 15 * i));
                world.set(c, h.local, new Local(100 * i));
            }
            for (int i = 0; i < 3; i++) world.spawn(new Escort());
        }

        Query carriers = world.query().with(h.hull, h.local).build();
        Query escortShips = world.query().with(h.escort).build();
        Query flagships = world.query().with(h.flag).build();
        Query drones = world.query().with(h.local, h.childOf.column()).build();   // (ChildOf, *)
        Query buoys = world.query().with(h.local, h.tethered.column()).build();
        return Simulation.builder(world).workers(workers).seed(5)
                .resource(LAUNCHED, new LongSum(), SUM_CODEC)
                .systems(s -> {
                    s.phases(Phase.UPDATE, Phase.POST_UPDATE);
                    // Every other tick each carrier launches a drone; every fourth a buoy tethered to it.
                    s.system("launch").query(carriers).reads(h.hull, h.local).readsResource(Simulation.CLOCK)
                            .spawns(h.local, h.global).adds(h.childOf.column(), h.tethered.column())
                            .reducesResource(LAUNCHED).forEachChunk(job -> {
                                long tick = job.resource(Simulation.CLOCK).tick();
                                if (tick % 2 != 0) return;
                                CommandBuffer cmd = job.commands();
                                ChunkView c = job.chunk();
                                for (int i = 0; i < c.size(); i++) {
                                    long drone = cmd.spawn(h.drone);
                                    cmd.set(drone, h.local, new Local(1 + tick % 7));
                                    cmd.addPair(drone, h.childOf, c.entity(i));
                                    if (tick % 4 == 0) {
                                        long buoy = cmd.spawn(h.buoy);
                                        cmd.addPair(buoy, h.tethered, drone);   // both provisional
                                    }
                                }
                                job.add(LAUNCHED, c.size());
                            });
                    // Fuel burns; an empty carrier is scrapped, and its drones and their buoys with it.
                    s.system("burn").after("launch").query(carriers).writes(h.hull).despawns().forEachChunk(job -> {
                        ChunkView c = job.chunk();
                        int[] f = c.writeInts(fuel);
                        for (int i = 0; i < c.size(); i++) {
                            if (--f[i] <= 0) job.commands().despawn(c.entity(i));
                        }
                    });
                    // A new carrier every 25 ticks.
                    s.system("shipyard").readsResource(Simulation.CLOCK).spawns(h.hull, h.local, h.global)
                            .forEachRange(() -> 1, (job, from, to) -> {
                                long tick = job.resource(Simulation.CLOCK).tick();
                                if (tick % 25 != 24) return;
                                long c = job.commands().spawn(h.carrier);
                                job.commands().set(c, h.local, new Local(tick));
                            });
                    // Escorts follow the two lowest-numbered carriers.
                    s.system("escort").readsResource(Simulation.CLOCK).exclusive((w, job) -> {
                        if (job.resource(Simulation.CLOCK).tick() % 5 != 0) return;
                        long[] firstTwo = {-1, -1};
                        carriers.forEach((view, row) -> {
                            long c = view.entity(row);
                            if (firstTwo[0] < 0) firstTwo[0] = c;
                            else if (firstTwo[1] < 0) firstTwo[1] = c;
                        });
                        Relations rel = w.relations();
                        // Pairs change the structure (a holder's first pair adds the marker
                        // column, its last removes it): not inside the query's loop.
                        long[] ships = new long[escortShips.count()];
                        int[] k = {0};
                        escortShips.forEach((view, row) -> ships[k[0]++] = view.entity(row));
                        for (long e : ships) {
                            rel.removeAll(e, h.escorts);
                            for (long c : firstTwo) if (c >= 0) rel.add(e, h.escorts, c);
                        }
                    });
                    // Each drone's place: its carrier's, plus its own offset.
                    s.system("propagate").inPhase(Phase.POST_UPDATE).reads(h.local).writes(h.global)
                            .forEachLevel(h.childOf, (job, hier, from, to) -> {
                                for (int i = from; i < to; i++) {
                                    long e = hier.entity(i);
                                    int p = hier.parentSlot(i);
                                    float parentX = p < 0 ? 0 : job.getFloat(hier.entity(p), gx);
                                    job.setFloat(e, gx, parentX + job.getFloat(e, lx));
                                }
                            });
                    // The census: the hierarchy's shape, the flagship's crew, the escorts' pairs.
                    s.system("census").inPhase(Phase.POST_UPDATE).after("propagate").exclusive(w -> {
                        Relations rel = w.relations();
                        Hierarchy hier = rel.hierarchy(h.childOf);
                        int[] n = new int[4];
                        drones.forEach((view, row) -> n[0]++);
                        buoys.forEach((view, row) -> n[1]++);
                        flagships.forEach((view, row) -> {
                            long flagship = view.entity(row);
                            Query crew = w.query().with(h.local).pair(h.childOf, flagship).build();
                            crew.forEach((v, r) -> n[2]++);
                        });
                        carriers.forEach((view, row) -> n[3] += rel.holderCount(h.escorts, view.entity(row)));
                        censusRow.forEach((view, row) -> {
                            long e = view.entity(row);
                            w.setProperty(e, "Census", "drones", n[0]);
                            w.setProperty(e, "Census", "buoys", n[1]);
                            w.setProperty(e, "Census", "levels", hier.levels());
                            w.setProperty(e, "Census", "slots", hier.size());
                            w.setProperty(e, "Census", "flagshipCrew", n[2]);
                            w.setProperty(e, "Census", "escorted", n[3]);
                        });
                    });
                    // After the census, drones of offset 7 are recycled into scrap where they stand:
                    // commands recorded in a level system, played back in slot order.
                    s.system("recycle").inPhase(Phase.POST_UPDATE).after("census").reads(h.local, h.global)
                            .despawns().spawns(h.scrap).forEachLevel(h.childOf, (job, hier, from, to) -> {
                                for (int i = from; i < to; i++) {
                                    long e = hier.entity(i);
                                    if (hier.parentSlot(i) < 0 || job.getFloat(e, lx) != 7f) continue;
                                    long scrap = job.commands().spawn();
                                    job.commands().add(scrap, h.scrap, new Scrap(job.getFloat(e, gx)));
                                    job.commands().despawn(e);
                                }
                            });
                })
                .build();
    }
}
