package dev.orrery.scheduler.executor;

import dev.orrery.scheduler.EventKey;
import dev.orrery.scheduler.Resources;
import dev.orrery.scheduler.event.EventChannel;
import dev.orrery.scheduler.graph.SystemGraph;
import dev.orrery.scheduler.internal.SchedulerInternals;
import java.util.ArrayList;
import java.util.List;

/**
 * The executor's side of the event channels, next to {@link CommandSync}: every channel a
 * system of the plan declares, started as each run starts (old events dropped, a pending
 * buffer per worker), merged at the end of each phase and dropped pending after a failure.
 * The channels are looked up in the resource store each time, so a channel a snapshot
 * restore put in place of the old one is the one used.
 *
 * <p><b>Threading:</b> every method runs on the executor's owner thread with no job running.
 */
final class EventSync {
    private final Resources resources;
    private final EventKey<?>[] keys;

    EventSync(ExecutionPlan plan) {
        this.resources = plan.resources();
        SystemGraph graph = plan.graph();
        List<EventKey<?>> all = new ArrayList<>();
        for (int s = 0; s < graph.size(); s++) {
            for (List<EventKey<?>> declared : List.of(graph.system(s).access().eventWrites(),
                    graph.system(s).access().eventReads())) {
                for (EventKey<?> k : declared) {
                    if (!all.contains(k)) {
                        all.add(k);
                    }
                }
            }
        }
        this.keys = all.toArray(new EventKey<?>[0]);
    }

    /** Whether the plan has any event channel (else beginning a run and merging do nothing). */
    boolean any() {
        return keys.length > 0;
    }

    /** A run starts: each channel drops its events older than the last run and prepares {@code workers} buffers. */
    void beginRun(int workers) {
        for (EventKey<?> k : keys) {
            channel(k).beginRun(workers);
        }
    }

    /** A phase ended: every channel merges what its writers sent. */
    void merge() {
        for (EventKey<?> k : keys) {
            channel(k).merge();
        }
    }

    /** A phase failed: what its jobs sent is dropped. */
    void discard() {
        for (EventKey<?> k : keys) {
            channel(k).discardPending();
        }
    }

    private <T> EventChannel<T> channel(EventKey<T> key) {
        return resources.value(SchedulerInternals.channelKey(key));
    }
}
