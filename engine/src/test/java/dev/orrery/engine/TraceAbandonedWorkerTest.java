package dev.orrery.engine;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.orrery.scheduler.ScheduleExecutor;
import dev.orrery.scheduler.executor.PlannedExecutor;
import java.io.StringWriter;
import java.util.ArrayList;
import java.util.List;
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
 * <p>Driven by latches, not timing, in the {@link AbandonedWorkerScenario} it shares with
 * {@code WatchdogAbandonedWorkerTest}: the replacement holds its job until the abandoned job's
 * end has been reported to the trace.
 */
class TraceAbandonedWorkerTest {
    private static final Pattern JOB = Pattern.compile(
            "\"name\":\"([^\"]*)\",\"cat\":\"job\",\"ph\":\"X\",\"pid\":1,\"tid\":(\\d+),\"ts\":([-\\d.]+),\"dur\":([-\\d.]+)");

    @Test
    @Timeout(120)
    void shouldKeepTheAbandonedJobOffItsReplacementsTrack() throws Exception {
        AbandonedWorkerScenario scenario = new AbandonedWorkerScenario(
                sc -> Latches.await(sc.oldReturned)); // in its job until the abandoned job's end was reported
        ChromeTrace trace;
        try (ScheduleExecutor executor = scenario.schedule.executor(2)) {
            PlannedExecutor planned = (PlannedExecutor) executor;
            trace = new ChromeTrace(planned.plan(), 2, 64);
            executor.observe(new JobFanOut(trace, scenario.afterObservers())); // the trace hears of the end first
            try {
                scenario.abandonInFirstRun(executor);
                scenario.runWithReplacementHolding(executor, () -> { });
                assertEquals(0, scenario.oldReturned.getCount(), "the abandoned job's end was reported");
            } finally {
                scenario.releaseAbandoned();
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
