package dev.orrery.engine.host;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.orrery.ecs.World;
import dev.orrery.ecs.component.Component;
import dev.orrery.engine.FailurePolicy;
import dev.orrery.engine.Simulation;
import dev.orrery.scheduler.SystemFailedException;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;
import java.util.function.Supplier;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * WorldHost x tick deadline: a hosted world whose job sticks on a worker past its
 * {@code tickDeadline} skips that one tick under {@code SKIP_TICK} (the pool thread that ticks
 * it is its tick thread, and the deadline ends the wait there as it does on a thread of one's
 * own), goes on ticking on the host, and its neighbour is not taken down with it.
 */
@Timeout(value = 120, unit = TimeUnit.SECONDS)
class HostedTickDeadlineTest {
    record Hp(int hp) {}

    @Test
    void aHostedWorldSkipsTheTickItsDeadlineEndsAndGoesOnBesideItsNeighbour() throws Exception {
        World world = new World(256);
        Component<Hp> hp = world.component(Hp.class);
        world.entity().with(hp, new Hp(1)).spawnMany(600);
        CountDownLatch workerInJob = new CountDownLatch(1);
        CountDownLatch never = new CountDownLatch(1);
        Thread[] tickThread = new Thread[1];
        boolean[] stuck = {true};
        List<String> failures = new CopyOnWriteArrayList<>();
        List<String> hostFailures = new CopyOnWriteArrayList<>();
        Simulation sim = Simulation.builder(world).workers(2).stepSeconds(0.01).tickDeadline(100)   // 1 s
                .onSystemFailure(FailurePolicy.SKIP_TICK)
                .systems(s -> s
                        .system("note").exclusive(w -> tickThread[0] = Thread.currentThread())
                        .system("stuck").after("note").minBatchRows(1).query(world.query().with(hp).build()).writes(hp)
                        .forEachChunk(job -> {
                            if (!stuck[0]) {
                                return;
                            }
                            try { // the tick thread's job waits until a worker holds one; that one never returns
                                if (Thread.currentThread() == tickThread[0]) {
                                    workerInJob.await(60, TimeUnit.SECONDS);
                                } else if (workerInJob.getCount() > 0) {
                                    workerInJob.countDown();
                                    never.await();
                                }
                            } catch (InterruptedException e) {
                                throw new IllegalStateException("interrupted", e);
                            }
                        }))
                .build();
        sim.failureListener((tick, failure, first) -> {
            failures.add(failure.getMessage());
            stuck[0] = false;
        });
        try (WorldHost host = WorldHost.builder().threads(2)
                .onFailure((w, tick, e) -> hostFailures.add(w.name() + "@" + tick + ": " + e)).build()) {
            HostedWorld sticky = host.add("sticky", sim, 100);
            HostedWorld calm = host.add("calm", HostWorkload.build(6, 100), 100);
            eventually(() -> sticky.stats().skippedTicks() >= 1 && sticky.stats().ticks() >= 20,
                    () -> "the sticky world skips its stuck tick and goes on: " + sticky.stats() + " " + hostFailures);
            eventually(() -> calm.stats().ticks() >= 20, () -> "the neighbour ticks: " + calm.stats());
            assertEquals(1, sticky.stats().skippedTicks(), sticky.stats().toString());
            assertEquals(1, failures.size(), failures.toString());
            assertTrue(failures.get(0).contains("'stuck'") && failures.get(0).contains("(its deadline: 1000 ms)"),
                    failures.get(0));
            assertEquals(0, calm.stats().skippedTicks(), calm.stats().toString());
            assertEquals(List.of(), hostFailures);
            assertEquals(600, world.entityCount());
        } finally {
            never.countDown();
        }
    }

    private static void eventually(BooleanSupplier condition, Supplier<String> message) throws InterruptedException {
        long until = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
        while (!condition.getAsBoolean()) {
            assertTrue(System.nanoTime() - until < 0, message);
            Thread.sleep(5);
        }
    }
}
