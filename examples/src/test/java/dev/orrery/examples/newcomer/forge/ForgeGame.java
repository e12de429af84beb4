package dev.orrery.examples.newcomer.forge;

import dev.orrery.ecs.ChunkView;
import dev.orrery.ecs.Query;
import dev.orrery.ecs.RemovedEntities;
import dev.orrery.ecs.World;
import dev.orrery.ecs.component.Component;
import dev.orrery.ecs.component.Field;
import dev.orrery.engine.InputBatch;
import dev.orrery.engine.ResourceCodec;
import dev.orrery.engine.Simulation;
import dev.orrery.scheduler.LongSum;
import dev.orrery.scheduler.Phase;
import dev.orrery.scheduler.ResourceKey;
import dev.orrery.scheduler.RunCondition;
import dev.orrery.testkit.InputScript;
import dev.orrery.testkit.SimulationFactory;
import java.io.DataInput;
import java.io.DataOutput;
import java.io.IOException;
import java.nio.ByteBuffer;

/**
 * A forge, written from docs/reacting-to-change.md only. Ingots heat in a furnace the smith
 * stokes by input; a system with a change filter walks only the rows changed since it last
 * ran (per-row tracking, rows marked by the heater) and lights ingots that grew hot
 * ({@code Glowing}, added through a command buffer), another puts out those that cooled; an
 * ingot too hot cracks (a despawn recorded in a command buffer), and an {@code onRemove}
 * observer with the value leaves slag holding the ingot's last heat. Observers count every
 * hook call. A sweeper on every third tick reads the removal log; an {@code added} filter
 * counts new ingots' rows; an exclusive census iterates a change-filtered query directly in
 * its body.
 */
public final class ForgeGame implements SimulationFactory {
    record Ingot(int heat) {}
    record Glowing(int since) {}
    record Slag(int heat) {}

    /** The furnace: state a system keeps across ticks, so it has a codec. */
    static final class Furnace {
        int fuel;
    }

    /** What the observers heard, per simulation; not state (a restore fires no hooks). */
    static final class Hooks {
        int lit, putOut, cracked;
        long slagHeat;

        @Override
        public String toString() {
            return "lit=" + lit + " putOut=" + putOut + " cracked=" + cracked + " slagHeat=" + slagHeat;
        }
    }

    static final ResourceKey<Furnace> FURNACE = ResourceKey.of("furnace", Furnace.class);
    static final ResourceKey<LongSum> SWEPT = ResourceKey.of("swept", LongSum.class);
    static final ResourceKey<LongSum> MISSED = ResourceKey.of("missed", LongSum.class);
    static final ResourceKey<LongSum> ARRIVED = ResourceKey.of("arrived", LongSum.class);
    static final ResourceKey<LongSum> CENSUS = ResourceKey.of("census", LongSum.class);

    static final int STOKE = 1;
    static final int LIGHT = 30, CRACK = 70;

    /** The smith stokes every fifth tick. */
    public static final InputScript SMITH = (tick, send) -> {
        if (tick % 5 == 2) send.input(3, STOKE, ByteBuffer.allocate(4).putInt((int) (tick % 11) + 1).array());
    };

    static final ResourceCodec<Furnace> FURNACE_CODEC = new ResourceCodec<>() {
        @Override
        public void write(Furnace f, DataOutput out) throws IOException {
            out.writeInt(f.fuel);
        }

        @Override
        public Furnace read(DataInput in) throws IOException {
            Furnace f = new Furnace();
            f.fuel = in.readInt();
            return f;
        }
    };

    static final ResourceCodec<LongSum> SUM = new ResourceCodec<>() {
        @Override
        public void write(LongSum s, DataOutput out) throws IOException {
            out.writeLong(s.total());
        }

        @Override
        public LongSum read(DataInput in) throws IOException {
            return new LongSum(in.readLong());
        }
    };

    /** The hook counts of the last simulation this factory created. */
    Hooks hooks;

    @Override
    public Simulation create(int workers, boolean populate) {
        World world = new World();
        Component<Ingot> ingot = world.component(Ingot.class);
        Component<Glowing> glowing = world.component(Glowing.class);
        Component<Slag> slag = world.component(Slag.class);
        Field heat = ingot.field("heat");
        world.trackRowChanges(ingot);                    // at set-up, before entities hold it
        world.trackRemoved(ingot);
        Hooks h = new Hooks();
        hooks = h;
        world.observe(glowing)
                .onAdd((w, e, commands) -> h.lit++)
                .onRemove((w, e, commands) -> h.putOut++);
        world.observe(ingot).onRemove((w, e, last, commands) -> {
            h.cracked++;
            h.slagHeat += last.heat();
            long s = commands.spawn();                   // the ingot is gone; its heat is not
            commands.add(s, slag, new Slag(last.heat()));
        });
        if (populate) {
            for (int i = 0; i < 3000; i++) world.spawn(new Ingot(i % 25));
        }
        Query all = world.query().with(ingot).build();
        Query coldChanged = world.query().with(ingot).without(glowing).changed(ingot).build();
        Query hotChanged = world.query().with(ingot, glowing).changed(ingot).build();
        Query fresh = world.query().with(ingot).added(ingot).build();
        Query glowingChanged = world.query().with(glowing).changed(ingot).build();
        return Simulation.builder(world).workers(workers).seed(17)
                .resource(FURNACE, new Furnace(), FURNACE_CODEC)
                .resource(SWEPT, new LongSum(), SUM)
                .resource(MISSED, new LongSum(), SUM)
                .resource(ARRIVED, new LongSum(), SUM)
                .resource(CENSUS, new LongSum(), SUM)
                .systems(s -> {
                    s.system("stoke").inPhase(Phase.PRE_UPDATE).readsResource(Simulation.INPUTS)
                            .writesResource(FURNACE).forEachRange(() -> 1, (job, from, to) -> {
                                InputBatch in = job.resource(Simulation.INPUTS);
                                byte[] payload = new byte[4];
                                for (int i = 0; i < in.size(); i++) {
                                    if (in.type(i) != STOKE) continue;
                                    in.copyPayload(i, payload, 0);
                                    job.resourceForWrite(FURNACE).fuel += ByteBuffer.wrap(payload).getInt();
                                }
                            });
                    s.system("heat").query(all).readsResource(FURNACE, Simulation.CLOCK).writes(ingot)
                            .forEachChunk(job -> {
                                ChunkView c = job.chunk();
                                long tick = job.resource(Simulation.CLOCK).tick();
                                int fuel = job.resource(FURNACE).fuel;
                                long[] ids = c.entities();
                                c.markRows(ingot);               // promise: I mark the rows I write
                                int[] t = c.writeInts(heat);
                                for (int i = 0, n = c.size(); i < n; i++) {
                                    if ((ids[i] + tick) % 13 == 0) {
                                        t[i] += 10 + fuel % 9;
                                        c.markChanged(ingot, i);
                                    } else if (t[i] >= 9 && (ids[i] * 7 + tick) % 17 == 0) {
                                        t[i] -= 9;
                                        c.markChanged(ingot, i);
                                    }
                                }
                            });
                    s.system("light").after("heat").query(coldChanged).reads(ingot).adds(glowing)
                            .readsResource(Simulation.CLOCK).forEachChunk(job -> {
                                ChunkView c = job.chunk();
                                int[] t = c.readInts(heat);
                                long[] ids = c.entities();
                                int tick = (int) job.resource(Simulation.CLOCK).tick();
                                for (int i = c.firstChanged(ingot); i >= 0; i = c.nextChanged(i + 1)) {
                                    if (t[i] >= LIGHT && t[i] < CRACK) job.commands().add(ids[i], glowing, new Glowing(tick));
                                }
                            });
                    s.system("put out").after("heat").query(hotChanged).reads(ingot).removes(glowing)
                            .forEachChunk(job -> {
                                ChunkView c = job.chunk();
                                int[] t = c.readInts(heat);
                                long[] ids = c.entities();
                                for (int i = c.firstChanged(ingot); i >= 0; i = c.nextChanged(i + 1)) {
                                    if (t[i] < LIGHT) job.commands().remove(ids[i], glowing);
                                }
                            });
                    s.system("crack").after("heat").query(all).reads(ingot).despawns().forEachChunk(job -> {
                        ChunkView c = job.chunk();
                        int[] t = c.readInts(heat);
                        long[] ids = c.entities();
                        for (int i = 0, n = c.size(); i < n; i++) {
                            if (t[i] >= CRACK) job.commands().despawn(ids[i]);
                        }
                    });
                    s.system("refill").readsResource(Simulation.CLOCK).spawns(ingot)
                            .forEachRange(() -> 1, (job, from, to) -> {
                                if (job.resource(Simulation.CLOCK).tick() % 4 != 0) return;
                                for (int i = 0; i < 6; i++) {
                                    long e = job.commands().spawn();
                                    job.commands().add(e, ingot, new Ingot(i * 5));
                                }
                            });
                    s.system("arrivals").inPhase(Phase.POST_UPDATE).query(fresh).reads(ingot)
                            .reducesResource(ARRIVED).forEachChunk(job -> job.add(ARRIVED, job.chunk().size()));
                    s.system("sweep").inPhase(Phase.POST_UPDATE).reads(ingot).reducesResource(SWEPT, MISSED)
                            .runIf(RunCondition.resource(Simulation.CLOCK, c -> c.tick() % 3 == 0)
                                    .describedAs("every third tick"))
                            .exclusive((w, job) -> {
                                RemovedEntities gone = job.removed(ingot);
                                if (gone.missed()) job.add(MISSED, 1);
                                job.add(SWEPT, gone.count());
                            });
                    s.system("census").inPhase(Phase.POST_UPDATE).reads(ingot, glowing).exclusive((w, job) -> {
                        long[] rows = {0};
                        glowingChanged.forEachChunk(c -> rows[0] += c.size());   // the system's own iteration
                        job.resourceForWrite(CENSUS).set(job.resource(CENSUS).total() * 31 + rows[0]);
                    });
                })
                .build();
    }
}
