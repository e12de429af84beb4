package dev.orrery.engine;

import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.orrery.ecs.World;
import dev.orrery.ecs.component.Component;
import dev.orrery.ecs.component.Field;
import dev.orrery.scheduler.EventKey;
import dev.orrery.scheduler.EventReader;
import dev.orrery.scheduler.FixedTimestep;
import dev.orrery.scheduler.Phase;
import dev.orrery.scheduler.ResourceKey;
import dev.orrery.scheduler.SystemFailedException;
import java.io.DataInput;
import java.io.DataOutput;
import java.io.IOException;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * An event channel written in a fixed-step phase that runs 0, 1, 2 or 3 steps a tick, read by
 * a system of the same phase ordered before the writer (it hears the previous step's events),
 * one ordered after it, and one in {@code Update} that runs once a tick: what each reader hears
 * must be the same after a restore (the channel has a codec, so the events still unread at the
 * snapshot travel) on 1 and 2 workers and in a replay. A snapshot asked for between two steps
 * of a tick is refused, naming where it was made.
 */
class FixedStepEventsRestoreTest {
    record Hp(int hp) {
    }

    record Blip(long entity, int step) {
    }

    static final EventKey<Blip> BLIPS = EventKey.of("stepBlips", Blip.class);
    static final ResourceKey<FixedTimestep> STEPS = ResourceKey.of("blipSteps", FixedTimestep.class);

    static final ResourceCodec<Blip> CODEC = new ResourceCodec<>() {
        @Override
        public void write(Blip b, DataOutput out) throws IOException {
            out.writeLong(b.entity());
            out.writeInt(b.step());
        }

        @Override
        public Blip read(DataInput in) throws IOException {
            return new Blip(in.readLong(), in.readInt());
        }
    };

    static Simulation build(int workers, boolean populate, FeaturePairRuns.Log log) {
        return build(workers, populate, log, null);
    }

    static Simulation build(int workers, boolean populate, FeaturePairRuns.Log log, Runnable[] midStep) {
        World world = new World(256);
        Component<Hp> hp = world.component(Hp.class);
        Field hpv = hp.field("hp");
        if (populate) {
            for (int i = 0; i < 30; i++) {
                world.spawn(new Hp(i));
            }
        }
        Phase physics = Phase.named("blipPhysics");
        // 7 units a tick, 5-unit steps, at most 3: 1, 1, 2 (or 3 after a drop) steps a tick
        SimulationBuilder builder = Simulation.builder(world).seed(2).workers(workers).hashEvery(1)
                .resource(STEPS, new FixedTimestep(5, 7, 3)).events(BLIPS, CODEC);
        var res = builder.resources();
        java.util.Map<Long, String> lastTick = new java.util.HashMap<>();  // what 'once' heard, by tick
        return builder.systems(s -> {
            s.phases(Phase.PRE_UPDATE, physics, Phase.UPDATE, Phase.POST_UPDATE).fixedTimestep(physics, STEPS);
            s.system("early").inPhase(physics).readsEvents(BLIPS).exclusive((w, job) -> {
                if (midStep != null && midStep[0] != null && res.get(STEPS).stepInRun() == 1) {
                    midStep[0].run();
                }
                hear(log, "early", res, job.events(BLIPS));
            });
            s.system("blip").inPhase(physics).after("early").query(world.query().with(hp).build()).writes(hp)
                    .writesEvents(BLIPS).forEachChunk(job -> {
                        int[] h = job.chunk().writeInts(hpv);
                        for (int i = 0; i < job.chunk().size(); i++) {
                            h[i]++;
                            if (h[i] % 7 == 0) {
                                job.send(BLIPS, new Blip(job.chunk().entity(i), h[i]));
                            }
                        }
                    });
            s.system("late").inPhase(physics).after("blip").readsEvents(BLIPS).exclusive((w, job) ->
                    hear(log, "late", res, job.events(BLIPS)));
            s.system("once").readsEvents(BLIPS).exclusive((w, job) -> {
                String heard = hear(log, "once", res, job.events(BLIPS));
                lastTick.put(res.get(Simulation.CLOCK).tick(), heard.substring(heard.indexOf(':')));
            });
            s.system("next").inPhase(Phase.PRE_UPDATE).readsEvents(BLIPS).exclusive((w, job) -> {
                String heard = hear(log, "next", res, job.events(BLIPS));
                String before = lastTick.get(res.get(Simulation.CLOCK).tick() - 1);
                if (before != null && !before.equals(heard.substring(heard.indexOf(':')))) {
                    throw new AssertionError(heard + ", but the tick before sent" + before);
                }
            });
        }).build();
    }

    private static String hear(FeaturePairRuns.Log log, String who, dev.orrery.scheduler.Resources res,
            EventReader<Blip> blips) {
        StringBuilder line = new StringBuilder("tick " + res.get(Simulation.CLOCK).tick() + " " + who + " step "
                + res.get(STEPS).stepInRun() + ":");
        for (int i = 0; i < blips.size(); i++) {
            line.append(' ').append(blips.get(i));
        }
        log.add(line.toString());
        return line.toString();
    }

    @Test
    void stepEventsAreHeardTheSameAfterARestoreAndInAReplay(@TempDir Path dir) throws Exception {
        FeaturePairRuns.check(FixedStepEventsRestoreTest::build, 16, dir, 0, 1, 2, 3, 5, 9);
    }

    @Test
    void aSnapshotBetweenTwoStepsOfATickIsRefused() {
        Runnable[] midStep = new Runnable[1];
        try (Simulation sim = build(1, true, new FeaturePairRuns.Log(), midStep)) {
            midStep[0] = sim::snapshot;
            SystemFailedException e = assertThrows(SystemFailedException.class, () -> {
                for (int t = 0; t < 6; t++) {
                    sim.tick();
                }
            });
            IllegalStateException cause = assertInstanceOf(IllegalStateException.class, e.getCause());
            assertTrue(cause.getMessage().contains("snapshot"), cause.getMessage());
        }
    }
}
