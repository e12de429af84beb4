package dev.orrery.engine;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.orrery.ecs.World;
import dev.orrery.ecs.component.Component;
import dev.orrery.engine.ArenaWorkload.Hp;
import dev.orrery.scheduler.JobObserver;
import dev.orrery.scheduler.Schedule;
import dev.orrery.scheduler.ScheduleExecutor;
import dev.orrery.scheduler.SystemFailedException;
import dev.orrery.scheduler.executor.PlannedExecutor;
import java.io.StringWriter;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * A worker abandoned at a run's deadline keeps its worker id, which its replacement takes
 * over, and so its track in a {@link ChromeTrace}. When the abandoned job finally returns
 * while the replacement is in a job, its slice must not be recorded on that track: before, it
 * was, and it overlapped the replacement's slice without nesting in it (the trace viewers
 * reject or misdraw such a track).
 *
 * <p>Driven by latches, not timing, as {@code WatchdogAbandonedWorkerTest}: the replacement
 * holds its job until the abandoned job's end has been reported to the trace.
 */
class TraceAbandonedWorkerTest {
    private static final Pattern JOB = Pattern.compile(
            "\"name\":\"([^\"]*)\",\"cat\":\"job\",\"ph\":\"X\",\"pid\":1,\"tid\":(\\d+),\"ts\":([-\\d.]+),\"dur\":([-\\d.]+)");

    @Test
    @Timeout(120)
    void shouldKeepTheAbandonedJobOffItsReplacementsTrack() throws Exception {
        World world = new World(256);
        Component<Hp> hp = world.component(Hp.class);
        world.entity().with(hp, new Hp(1)).spawnMany(600); // three chunks: a job each
        Thread caller = Thread.currentThread();
        AtomicInteger run = new AtomicInteger(1);
        AtomicReference<Thread> abandoned = new AtomicReference<>();
        AtomicReference<Thread> replacement = new AtomicReference<>();
        CountDownLatch workerInJob = new CountDownLatch(1);
        CountDownLatch releaseOld = new CountDownLatch(1);
        CountDownLatch replacementIn = new CountDownLatch(1);
        CountDownLatch oldReturned = new CountDownLatch(1);
        Schedule schedule = Schedule.builder(world).system("held").minBatchRows(1)
                .query(world.query().with(hp).build()).writes(hp).forEachChunk(job -> {
                    Thread me = Thread.currentThread();
                    if (run.get() == 1) { // a worker's job outlives the deadline; the caller waits until it is in it
                        if (me == caller) {
                            Latches.await(workerInJob);
                        } else if (abandoned.compareAndSet(null, me)) {
                            workerInJob.countDown();
                            Latches.awaitIgnoringInterrupts(releaseOld);
                        }
                    } else if (me == caller) { // run 2: leave the other jobs to the replacement
                        Latches.await(replacementIn);
                    } else if (me != abandoned.get() && replacement.compareAndSet(null, me)) {
                        replacementIn.countDown();
                        Latches.await(oldReturned); // in its job until the abandoned job's end was reported
                    }
                }).build();
        ChromeTrace trace;
        try (ScheduleExecutor executor = schedule.executor(2)) {
            PlannedExecutor planned = (PlannedExecutor) executor;
            trace = new ChromeTrace(planned.plan(), 2, 64);
            JobObserver afterTrace = (worker, system, from, to, start, end) -> {
                if (Thread.currentThread() == abandoned.get()) {
                    oldReturned.countDown(); // the trace has heard of its end by now
                }
            };
            executor.observe(new JobFanOut(trace, afterTrace));
            try {
                executor.runDeadline(200_000_000L);
                SystemFailedException e = assertThrows(SystemFailedException.class, executor::run);
                assertTrue(e.getMessage().contains("abandoned"), e.getMessage());
                assertNotNull(abandoned.get());

                executor.runDeadline(0);
                run.set(2);
                Thread releaser = new Thread(() -> {
                    Latches.await(replacementIn);
                    releaseOld.countDown(); // the abandoned job returns while its replacement holds a job
                }, "releaser");
                releaser.start();
                executor.run();
                releaser.join(60_000);
                assertEquals(0, oldReturned.getCount(), "the abandoned job's end was reported");
            } finally {
                releaseOld.countDown();
            }
        }
        StringWriter out = new StringWriter();
        trace.write(out);
        String json = out.toString();
        List<double[]> worker1 = new ArrayList<>(); // [ts, dur] of worker 1's slices
        Matcher m = JOB.matcher(json);
        while (m.find()) {
            double dur = Double.parseDouble(m.group(4));
            assertTrue(dur >= 0, json);
            if (m.group(2).equals("1")) {
                worker1.add(new double[] {Double.parseDouble(m.group(3)), dur});
            }
        }
        assertTrue(!worker1.isEmpty(), "the replacement's job is on worker 1's track: " + json);
        for (int i = 0; i < worker1.size(); i++) {
            for (int j = i + 1; j < worker1.size(); j++) {
                double[] a = worker1.get(i);
                double[] b = worker1.get(j);
                boolean overlap = a[0] < b[0] + b[1] && b[0] < a[0] + a[1];
                assertTrue(!overlap, "slices on one worker's track overlap: " + json);
            }
        }
    }
}
