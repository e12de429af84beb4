package dev.orrery.engine;

import dev.orrery.ecs.World;
import dev.orrery.ecs.component.Component;
import dev.orrery.ecs.component.Field;
import dev.orrery.ecs.component.Storage;
import dev.orrery.scheduler.FixedTimestep;
import dev.orrery.scheduler.LongSum;
import dev.orrery.scheduler.Phase;
import dev.orrery.scheduler.ResourceKey;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code job.has(entity, column)} of a sparse marker that an earlier system of a fixed-step
 * phase adds and removes through commands, in a phase running 2 and 3 steps a tick, next to
 * an {@code added} filter on the spawned orders: each step's reader must see the marker as of
 * the sync point the graph places before it (what an exclusive system then sees with
 * {@code world.has}), and a restored or replayed run must see what the uninterrupted one saw.
 */
class SparseHasFixedStepTest {
    record Trader(int cash) {
    }

    record Audited(int since) {
    }

    record Order(long trader) {
    }

    static final ResourceKey<FixedTimestep> STEPS = ResourceKey.of("hasSteps", FixedTimestep.class);
    static final ResourceKey<LongSum> SEEN = ResourceKey.of("hasSeen", LongSum.class);
    static final ResourceKey<LongSum> FRESH = ResourceKey.of("hasFresh", LongSum.class);

    static Simulation build(int workers, boolean populate, FeaturePairRuns.Log log) {
        World world = new World(256);
        Component<Trader> trader = world.component(Trader.class);
        Component<Audited> audited = world.component(Audited.class, Storage.SPARSE);
        Component<Order> order = world.component(Order.class);
        Field cash = trader.field("cash");
        Field owner = order.field("trader");
        long[] traders = new long[12];
        if (populate) {
            for (int i = 0; i < traders.length; i++) {
                traders[i] = world.spawn(new Trader(i));
            }
            for (int i = 0; i < 60; i++) {
                world.spawn(new Order(traders[i % traders.length]));
            }
        }
        Phase physics = Phase.named("hasPhysics");
        SimulationBuilder builder = Simulation.builder(world).seed(5).workers(workers).hashEvery(1)
                .resource(STEPS, new FixedTimestep(10, 25, 4)).resource(SEEN, new LongSum())
                .resource(FRESH, new LongSum());
        var res = builder.resources();
        java.util.Set<Long> visited = java.util.concurrent.ConcurrentHashMap.newKeySet();
        java.util.Set<Long> known = new java.util.HashSet<>();  // orders the last step's fresh run could see
        return builder.systems(s -> {
            s.phases(Phase.PRE_UPDATE, physics, Phase.UPDATE, Phase.POST_UPDATE).fixedTimestep(physics, STEPS);
            s.system("toggle").inPhase(physics).query(world.query().with(trader).build()).writes(trader)
                    .adds(audited).removes(audited).spawns(order).forEachChunk(job -> {
                        int[] c = job.chunk().writeInts(cash);
                        for (int i = 0; i < job.chunk().size(); i++) {
                            c[i]++;
                            long e = job.chunk().entity(i);
                            boolean has = job.chunk().has(audited, i);
                            if (c[i] % 3 == 0 && !has) {
                                job.commands().add(e, audited, new Audited(c[i]));
                            } else if (c[i] % 3 == 1 && has) {
                                job.commands().remove(e, audited);
                            }
                            if (c[i] % 4 == 0) {
                                long o = job.commands().spawn();
                                job.commands().add(o, order, new Order(e));
                            }
                        }
                    });
            s.system("check").inPhase(physics).after("toggle").query(world.query().with(order).build())
                    .reads(order, audited).reducesResource(SEEN).forEachChunk(job -> {
                        long[] o = job.chunk().readLongs(owner);
                        int n = 0;
                        for (int i = 0; i < job.chunk().size(); i++) {
                            if (job.has(o[i], audited)) {
                                n++;
                            }
                        }
                        job.add(SEEN, n);
                    });
            s.system("fresh").inPhase(physics).after("check").query(world.query().added(order).build())
                    .reads(order, audited).reducesResource(FRESH).forEachChunk(job -> {
                        long[] o = job.chunk().readLongs(owner);
                        int n = 0;
                        for (int i = 0; i < job.chunk().size(); i++) {
                            n += job.has(o[i], audited) ? 1000 + i : i;
                            visited.add(job.chunk().entity(i));
                        }
                        job.add(FRESH, n);
                    });
            s.system("truth").inPhase(physics).after("fresh").exclusive(w -> {
                long[] truth = {0};
                java.util.List<Long> missed = new java.util.ArrayList<>();
                boolean first = known.isEmpty();
                w.query().with(order).build().forEachReadOnly((v, row) -> {
                    long e = v.entity(row);
                    if (!first && known.add(e) && !visited.contains(e)) {
                        missed.add(e);
                    }
                    known.add(e);
                    if (w.has(v.readLongs(owner)[row], audited)) {
                        truth[0]++;
                    }
                });
                long seen = res.get(SEEN).total();
                String line = "tick " + res.get(Simulation.CLOCK).tick() + " step " + res.get(STEPS).stepInRun()
                        + ": has " + seen + " fresh " + res.get(FRESH).total();
                log.add(line);
                if (seen != truth[0]) {
                    throw new AssertionError(line + " but world.has counts " + truth[0]);
                }
                if (!missed.isEmpty()) {
                    throw new AssertionError(line + ": the added(Order) filter missed new orders " + missed);
                }
                visited.clear();
                res.get(SEEN).reset();
                res.get(FRESH).reset();
            });
        }).build();
    }

    @Test
    void aJobSeesTheSparseMarkersOfEachStepsSyncPointAfterARestoreAndInAReplay(@TempDir Path dir) throws Exception {
        FeaturePairRuns.check(SparseHasFixedStepTest::build, 12, dir, 0, 1, 4, 7);
    }
}
