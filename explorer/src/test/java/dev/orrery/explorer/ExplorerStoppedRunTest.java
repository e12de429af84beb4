package dev.orrery.explorer;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.Test;

/**
 * A run the program stopped on purpose ({@code sim.stop()}, the chapter's way to pause), or
 * one not started yet, is named as such: a live view answers 503 saying the run is stopped
 * (or has not ticked), how to keep the page live ({@code explorer.idle}) and what still
 * answers, not the old "is it stopped, or is a tick running long?"; a run in progress whose
 * ticks are slow is not called stopped; and {@code /api/summary} answers 200 with its figures
 * and what any thread may read of the state, {@code live} false and the reason, instead of a
 * 503. The explorer never reads the world off the tick thread for it: the tick thread may tick
 * again at any moment.
 */
class ExplorerStoppedRunTest {

    @Test
    void aStoppedOrUnstartedRunIsNamedAndTheSummaryAnswersWithoutTheWorld() throws Exception {
        ExecutorService tickThread = Executors.newSingleThreadExecutor();
        try (Fixture f = new Fixture(100, 2, 0, (fx, o) -> o.withRequestTimeout(Duration.ofMillis(300)))) {
            Client c = f.client;
            String entity = "/api/entity?id=" + f.units[3];

            HttpResponse<String> unstarted = c.get("/api/archetypes");
            assertEquals(503, unstarted.statusCode(), unstarted.body());
            assertTrue(unstarted.body().contains("has not ticked since the explorer was attached"), unstarted.body());
            assertTrue(unstarted.body().contains("sim.run("), "the fix: " + unstarted.body());
            HttpResponse<String> early = c.get("/api/summary");
            assertEquals(200, early.statusCode(), early.body());
            assertTrue(early.body().contains("\"live\":false"), early.body());
            assertTrue(early.body().contains("has not ticked since the explorer was attached"), early.body());
            assertTrue(early.body().contains("\"nextTick\":0,") && early.body().contains("\"commands\":null"),
                    "the state any thread may read, the tick thread's left null: " + early.body());

            // Ticking: the summary is live again, with the tick thread's state.
            Future<?> running = tickThread.submit(() -> f.sim.run(0, 200));
            HttpResponse<String> live = c.getTicking("/api/summary");
            assertEquals(200, live.statusCode(), live.body());
            assertTrue(live.body().contains("\"live\":true,\"whyNotLive\":null"), live.body());
            assertFalse(live.body().contains("\"commands\":null"), live.body());

            // Paused on purpose: sim.stop() ended the run.
            f.sim.stop();
            running.get(60, TimeUnit.SECONDS);
            long next = f.sim.currentTick();
            HttpResponse<String> paused = c.get(entity);
            assertEquals(503, paused.statusCode(), paused.body());
            String why = paused.body();
            assertTrue(why.contains("the run is stopped") && why.contains("sim.stop()"), why);
            assertTrue(why.contains("explorer.idle("), "how to keep the page live: " + why);
            assertTrue(why.contains("timeline"), "what still answers: " + why);
            assertFalse(why.contains("running long"), "not a slow tick: " + why);
            HttpResponse<String> summary = c.get("/api/summary");
            assertEquals(200, summary.statusCode(), summary.body());
            assertTrue(summary.body().contains("\"live\":false") && summary.body().contains("the run is stopped"),
                    summary.body());
            assertTrue(summary.body().contains("\"nextTick\":" + next + ","), "nextTick " + next + ": " + summary.body());
            assertTrue(summary.body().contains("\"entities\":" + f.world.entityCount() + ","),
                    "the last tick's figures: " + summary.body());

            // Paused, with the page kept live by idle() on the tick thread: reads answer again.
            AtomicBoolean resume = new AtomicBoolean();
            Future<?> idling = tickThread.submit(() -> {
                while (!resume.get()) {
                    f.explorer.idle(Duration.ofMillis(100));
                }
            });
            HttpResponse<String> idle = c.getTicking(entity);
            assertEquals(200, idle.statusCode(), idle.body());
            assertTrue(c.getTicking("/api/summary").body().contains("\"live\":true"));
            resume.set(true);
            idling.get(60, TimeUnit.SECONDS);

            // A run in progress whose ticks come slower than the request timeout is not called stopped.
            Future<?> slow = tickThread.submit(() -> f.sim.run(0, 0.5));
            long until = System.nanoTime() + 60_000_000_000L;
            while (f.sim.currentTick() == next && System.nanoTime() < until) {
                Thread.sleep(10);
            }
            HttpResponse<String> late = c.get("/api/resources");
            while (late.statusCode() == 200 && System.nanoTime() < until) { // met the tick's end: wait for the next
                late = c.get("/api/resources");
            }
            f.sim.stop();
            slow.get(60, TimeUnit.SECONDS);
            assertEquals(503, late.statusCode(), late.body());
            assertTrue(late.body().contains("run is in progress"), late.body());
            assertFalse(late.body().contains("the run is stopped"), late.body());
        } finally {
            tickThread.shutdown();
            assertTrue(tickThread.awaitTermination(60, TimeUnit.SECONDS));
        }
    }

    /**
     * A program that steps the simulation with a loop of its own ({@code sim.tick()}, never
     * {@code run()}) and ticks less often than the request timeout has no run in progress either,
     * but nobody stopped it: the refusal must not send its reader only to {@code sim.stop()} and
     * "run again", and names the loop's case (it failed on the first version of the stopped
     * refusal, which named only a stopped or finished run).
     */
    @Test
    void aLoopOfItsOwnThatTicksSlowlyIsToldSo() throws Exception {
        ExecutorService tickThread = Executors.newSingleThreadExecutor();
        AtomicBoolean done = new AtomicBoolean();
        try (Fixture f = new Fixture(20, 1, 0, (fx, o) -> o.withRequestTimeout(Duration.ofMillis(200)))) {
            Future<?> loop = tickThread.submit(() -> {
                while (!done.get()) {
                    f.sim.tick();
                    long until = System.nanoTime() + 1_500_000_000L; // a turn-based loop: a tick, then a wait
                    while (!done.get() && System.nanoTime() < until) {
                        Thread.sleep(10);
                    }
                }
                return null;
            });
            long until = System.nanoTime() + 60_000_000_000L;
            while (f.sim.currentTick() == 0 && System.nanoTime() < until) {
                Thread.sleep(10);
            }
            HttpResponse<String> r = f.client.get("/api/resources");
            while (r.statusCode() == 200 && System.nanoTime() < until) { // met a tick's end: ask again
                r = f.client.get("/api/resources");
            }
            done.set(true);
            loop.get(60, TimeUnit.SECONDS);
            assertEquals(503, r.statusCode(), r.body());
            assertTrue(r.body().contains("sim.tick()"), "a loop of its own that ticks slowly is named: " + r.body());
            assertTrue(r.body().contains("explorer.idle("), "how to keep the page live: " + r.body());
        } finally {
            done.set(true);
            tickThread.shutdown();
            assertTrue(tickThread.awaitTermination(60, TimeUnit.SECONDS));
        }
    }
}
