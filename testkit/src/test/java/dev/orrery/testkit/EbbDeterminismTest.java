package dev.orrery.testkit;

import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.orrery.ecs.ChunkView;
import dev.orrery.ecs.CommandBuffer;
import dev.orrery.ecs.Query;
import dev.orrery.ecs.World;
import dev.orrery.ecs.component.Component;
import dev.orrery.ecs.component.Field;
import dev.orrery.ecs.component.Storage;
import dev.orrery.engine.InputBatch;
import dev.orrery.engine.ResourceCodec;
import dev.orrery.engine.Simulation;
import dev.orrery.scheduler.EventKey;
import dev.orrery.scheduler.EventReader;
import dev.orrery.scheduler.FixedTimestep;
import dev.orrery.scheduler.Phase;
import dev.orrery.scheduler.ResourceKey;
import dev.orrery.scheduler.RunCondition;
import java.io.DataInput;
import java.io.DataOutput;
import java.io.IOException;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * What {@link TidesDeterminismTest} leaves out of events x fixed timestep x run conditions x
 * sparse columns: there the fixed step only writes events and an ungated reader outside it
 * reads them. Here a reader inside the fixed step ("soak", after the writer in the same step,
 * so it reads events of the same step) runs only at high tide (a run condition on a resource
 * that inputs flip), and a reader outside it ("drain", Update) only at low tide, so each skips
 * runs and then reads the events that waited for it; both write a sparse column through
 * commands (add, setInt, remove), and the step count varies per tick (0 to 3). Every kit run
 * agrees: 1 and 4 workers, batch sizes, reversed jobs, a replay, and snapshots taken while a
 * gated reader has events waiting.
 */
class EbbDeterminismTest {
    record Pos(float x) {
    }

    record Vel(float v) {
    }

    record Wet(int level) {
    }

    record Splash(long who, int step) {
    }

    /** The tide (flipped by input) and what the readers saw. */
    static final class Tide {
        boolean high;
        long soaked;
        long drained;
        long sum;
    }

    static final int FLIP = 3;
    static final ResourceKey<Tide> TIDE = ResourceKey.of("tide", Tide.class);
    static final ResourceKey<FixedTimestep> STEP = ResourceKey.of("step", FixedTimestep.class);
    static final EventKey<Splash> SPLASH = EventKey.of("splash", Splash.class);

    static final ResourceCodec<Tide> TIDE_CODEC = new ResourceCodec<>() {
        @Override
        public void write(Tide t, DataOutput out) throws IOException {
            out.writeBoolean(t.high);
            out.writeLong(t.soaked);
            out.writeLong(t.drained);
            out.writeLong(t.sum);
        }

        @Override
        public Tide read(DataInput in) throws IOException {
            Tide t = new Tide();
            t.high = in.readBoolean();
            t.soaked = in.readLong();
            t.drained = in.readLong();
            t.sum = in.readLong();
            return t;
        }
    };

    /** The tide turns at ticks 3, 10, 17, ... and 6, 13, 20, ... (high for 3 ticks, low for 4). */
    static final InputScript MOON = (tick, send) -> {
        if (tick % 7 == 3 || tick % 7 == 6) {
            send.input(1, FLIP, new byte[0]);
        }
    };

    static Simulation build(int workers, boolean populate) {
        World world = new World(256);
        Component<Pos> pos = world.component(Pos.class);
        Component<Vel> vel = world.component(Vel.class);
        Component<Wet> wet = world.component(Wet.class, Storage.SPARSE);
        if (populate) {
            for (int i = 0; i < 400; i++) {
                long e = world.spawn(new Pos(i % 50), new Vel(1 + i % 5));
                if (i % 6 == 0) {
                    world.add(e, wet, new Wet(1));
                }
            }
        }
        Field px = pos.field("x"), vv = vel.field("v"), level = wet.field("level");
        Query bodies = world.query().with(pos, vel).optional(wet).build();
        Phase fixed = Phase.named("Fixed");
        return Simulation.builder(world).seed(11).workers(workers)
                .resource(TIDE, new Tide(), TIDE_CODEC)
                .resource(STEP, new FixedTimestep(10, 16, 3))
                .systems(s -> {
                    s.phases(Phase.PRE_UPDATE, fixed, Phase.UPDATE, Phase.POST_UPDATE).fixedTimestep(fixed, STEP);
                    s.system("wave").inPhase(fixed).query(bodies).reads(vel, wet).writes(pos).readsResource(STEP)
                            .writesEvents(SPLASH).forEachChunk(job -> {
                                ChunkView c = job.chunk();
                                float[] x = c.writeFloats(px), v = c.readFloats(vv);
                                int step = job.resource(STEP).stepInRun();
                                for (int i = 0, n = c.size(); i < n; i++) {
                                    x[i] += v[i] * (c.has(wet, i) ? 2 : 1);
                                    if (x[i] > 60) {
                                        x[i] -= 60;
                                        job.send(SPLASH, new Splash(c.entity(i), step));
                                    }
                                }
                            });
                    s.system("soak").inPhase(fixed).after("wave").readsEvents(SPLASH).writesResource(TIDE).adds(wet)
                            .runIf(RunCondition.resource(TIDE, t -> t.high)).forEachRange(() -> 1, (job, from, to) -> {
                                EventReader<Splash> splashes = job.events(SPLASH);
                                Tide t = job.resourceForWrite(TIDE);
                                CommandBuffer cmd = job.commands();
                                splashes.forEach(sp -> {
                                    t.soaked++;
                                    t.sum = t.sum * 31 + sp.who() * 3 + sp.step();
                                    cmd.add(sp.who(), wet, new Wet((int) (t.soaked % 9) + 1));
                                });
                            });
                    s.system("drain").inPhase(Phase.UPDATE).readsEvents(SPLASH).writesResource(TIDE).removes(wet)
                            .runIf(RunCondition.resource(TIDE, t -> !t.high)).forEachRange(() -> 1, (job, from, to) -> {
                                EventReader<Splash> splashes = job.events(SPLASH);
                                Tide t = job.resourceForWrite(TIDE);
                                CommandBuffer cmd = job.commands();
                                splashes.forEach(sp -> {
                                    t.drained++;
                                    t.sum = t.sum * 17 + sp.who();
                                    if (sp.who() % 3 == 0) {
                                        cmd.remove(sp.who(), wet);
                                    }
                                });
                            });
                    s.system("swell").inPhase(Phase.POST_UPDATE).query(world.query().with(pos).optional(wet).build()).reads(wet)
                            .setsLater(wet).forEachChunk(job -> {
                                ChunkView c = job.chunk();
                                CommandBuffer cmd = job.commands();
                                for (int i = 0, n = c.size(); i < n; i++) {
                                    if (c.has(wet, i) && c.entity(i) % 4 == 1) {
                                        cmd.setInt(c.entity(i), level, c.get(wet, i).level() + 1);
                                    }
                                }
                            });
                    s.system("moon").inPhase(Phase.POST_UPDATE).writesResource(TIDE, STEP)
                            .readsResource(Simulation.INPUTS, Simulation.CLOCK).forEachRange(() -> 1, (job, from, to) -> {
                                InputBatch in = job.resource(Simulation.INPUTS);
                                long t = job.resource(Simulation.CLOCK).tick();
                                for (int k = 0; k < in.size(); k++) {
                                    if (in.type(k) == FLIP) {
                                        job.resourceForWrite(TIDE).high ^= true;
                                    }
                                }
                                job.resourceForWrite(STEP).unitsPerRun(t % 5 < 2 ? 4 : 30); // 0 to 3 steps a tick
                            });
                })
                .build();
    }

    @Test
    void theGameExercisesBothGatedReaders() {
        try (Simulation sim = build(2, true)) {
            for (long t = 0; t < 30; t++) {
                if (t % 7 == 3 || t % 7 == 6) { // as MOON would, without the input pipeline
                    sim.resources().get(TIDE).high ^= true;
                }
                sim.tick();
            }
            Tide t = sim.resources().get(TIDE);
            assertTrue(t.soaked > 0 && t.drained > 0, "soaked " + t.soaked + ", drained " + t.drained);
        }
    }

    @Test
    void everyRunAgreesAcrossWorkersSnapshotsAndReplay() {
        List<String> runs = DeterminismCheck.of(EbbDeterminismTest::build).inputs(MOON).ticks(40).workers(1, 4).run();
        assertTrue(runs.contains("the recording replayed on 4 workers"), runs.toString());
        // snapshots while a gated reader has splashes waiting: high tide (drain skipped), low tide (soak skipped)
        for (long at : new long[] {4, 5, 7, 11, 14}) {
            List<String> restored = DeterminismCheck.of(EbbDeterminismTest::build).inputs(MOON).ticks(30)
                    .workers(1, 4).snapshotAt(at).recordAndReplay(false).reverseJobOrder(false)
                    .flipSystemOrder(false).batchSizes().run();
            assertTrue(restored.stream().anyMatch(r -> r.startsWith("restored from the snapshot of tick " + at)),
                    at + ": " + restored);
        }
    }
}
