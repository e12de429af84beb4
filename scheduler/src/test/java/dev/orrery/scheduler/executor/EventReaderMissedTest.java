package dev.orrery.scheduler.executor;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.orrery.ecs.World;
import dev.orrery.scheduler.EventKey;
import dev.orrery.scheduler.EventReader;
import dev.orrery.scheduler.ResourceKey;
import dev.orrery.scheduler.RunCondition;
import dev.orrery.scheduler.Schedule;
import dev.orrery.scheduler.ScheduleExecutor;
import dev.orrery.scheduler.event.ChannelReader;
import dev.orrery.scheduler.event.EventChannel;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.LongPredicate;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * A reader of an event channel that falls behind (a run condition skips it for longer than
 * the channel keeps events: the run they are merged in and the next) is told that events were
 * dropped before it saw them: {@code job.events(key).missed()}, as
 * {@code RemovedEntities.missed()} tells a removal log's reader. The writer sends its run
 * number in runs 0 to 19 and nothing after. A reader every run or every second run sees every
 * event and never missed(); one every third run sees two of every three and is told; one that
 * first runs at run 10 is told on that first run only; one every third run that skips runs in
 * which nothing was sent missed nothing. The same on 1 and 2 workers, and after a channel is
 * restored.
 */
class EventReaderMissedTest {
    static final EventKey<Integer> NUMBERS = EventKey.of("missedNumbers", Integer.class);

    static final class Counter {
        long run;
    }

    static final ResourceKey<Counter> RUN = ResourceKey.of("missedRun", Counter.class);

    /** What one reader saw in one of its runs. */
    record Read(long run, List<Integer> events, boolean missed) {
    }

    static final int RUNS = 30;

    /** Each reader's reads over {@link #RUNS} runs on {@code workers} workers. */
    static Map<String, List<Read>> run(int workers) {
        World world = new World();
        Counter counter = new Counter();
        Map<String, List<Read>> reads = new LinkedHashMap<>();
        Map<String, LongPredicate> readers = new LinkedHashMap<>();
        readers.put("every run", n -> true);
        readers.put("every second", n -> n % 2 == 1);
        readers.put("every third", n -> n % 3 == 2);
        readers.put("from run 10", n -> n >= 10);
        var b = Schedule.builder(world).resource(RUN, counter)
                .system("send").readsResource(RUN).writesEvents(NUMBERS)
                .forEachRange(() -> 1, (job, from, to) -> {
                    long n = job.resource(RUN).run;
                    if (n < 20) {
                        job.send(NUMBERS, (int) n);
                    }
                });
        for (Map.Entry<String, LongPredicate> r : readers.entrySet()) {
            List<Read> list = new ArrayList<>();
            reads.put(r.getKey(), list);
            b = b.system(r.getKey()).after("send").readsEvents(NUMBERS)
                    .runIf(RunCondition.resource(RUN, c -> r.getValue().test(c.run)))
                    .forEachRange(() -> 1, (job, from, to) -> {
                        EventReader<Integer> events = job.events(NUMBERS);
                        List<Integer> got = new ArrayList<>();
                        events.forEach(got::add);
                        list.add(new Read(job.resource(RUN).run, got, events.missed()));
                    });
        }
        Schedule schedule = b.build();
        try (ScheduleExecutor executor = schedule.executor(workers)) {
            for (counter.run = 0; counter.run < RUNS; counter.run++) {
                executor.run();
            }
        }
        return reads;
    }

    @ParameterizedTest(name = "{0} workers")
    @ValueSource(ints = {1, 2})
    void aReaderSkippedForLongerThanTheChannelKeepsEventsIsToldItMissedSome(int workers) {
        Map<String, List<Read>> reads = run(workers);
        for (String every : new String[] {"every run", "every second"}) {
            List<Integer> seen = new ArrayList<>();
            for (Read r : reads.get(every)) {
                assertFalse(r.missed(), every + " reads within the channel's two runs and misses nothing: " + r);
                seen.addAll(r.events());
            }
            assertEquals(20, seen.size(), every + " saw each event once: " + reads.get(every));
        }
        for (Read r : reads.get("every third")) {
            // its runs 2, 5, ..., 20 lose the event sent two runs before; from run 23 on nothing was sent to lose
            boolean lost = r.run() <= 20;
            assertEquals(lost, r.missed(), "the reader every third run at run " + r.run() + " saw " + r.events()
                    + (lost ? ": an event sent since its last run was dropped unread, and it must be told"
                            : ": nothing was sent since its last read, so nothing was missed"));
        }
        List<Read> late = reads.get("from run 10");
        assertEquals(List.of(9, 10), late.get(0).events(), "its first run sees what is still alive");
        assertTrue(late.get(0).missed(), "a first run after events 0 to 8 were dropped is told it missed them");
        for (Read r : late.subList(1, late.size())) {
            assertFalse(r.missed(), "once it reads every run it misses nothing: " + r);
        }
    }

    @Test
    void whatAReaderMissedIsTheSameOnOneAndTwoWorkers() {
        assertEquals(run(1), run(2));
    }

    @Test
    void aRestoredChannelTellsAReaderThatFellBehindBeforeTheSnapshot() {
        // A channel whose events 5 and 6 are alive (5 merged the run before, 6 this run); reader "behind" had read
        // events 0 to 2 (3 and 4 were dropped unread), "caught up" events 0 to 4, and "new" none.
        EventChannel<Integer> c = EventChannel.restore(NUMBERS, 5, 1, new Integer[] {5, 6},
                new String[] {"behind", "caught up"}, new long[] {3, 5});
        ChannelReader<Integer> reader = new ChannelReader<>();
        c.openReader("behind", reader);
        assertEquals(2, reader.size());
        assertTrue(reader.missed(), "events 3 and 4 were dropped before 'behind' read them");
        c.openReader("caught up", reader);
        assertEquals(2, reader.size());
        assertFalse(reader.missed(), "'caught up' had read everything that was dropped");
        c.openReader("new", reader);
        assertTrue(reader.missed(), "a first read after events 0 to 4 were dropped");
        c.openReader("behind", reader);
        assertEquals(0, reader.size());
        assertFalse(reader.missed(), "read again with nothing dropped since");
    }
}
