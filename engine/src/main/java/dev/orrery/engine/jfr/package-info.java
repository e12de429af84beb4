/**
 * Java Flight Recorder events of the engine, all in one place: {@link
 * dev.orrery.engine.jfr.TickEvent} ({@code dev.orrery.Tick}) per tick, {@link
 * dev.orrery.engine.jfr.JobEvent} ({@code dev.orrery.Job}) per job and {@link
 * dev.orrery.engine.jfr.SyncPointEvent} ({@code dev.orrery.SyncPoint}) per command playback,
 * {@link dev.orrery.engine.jfr.SkippedTickEvent} ({@code dev.orrery.SkippedTick}) per tick a
 * failure policy skipped, {@link dev.orrery.engine.jfr.TickOverrunEvent}
 * ({@code dev.orrery.TickOverrun}) per tick the watchdog reports, and
 * {@link dev.orrery.engine.jfr.JfrObserver}, which turns the scheduler's job and sync-point
 * reports into them. The scheduler knows nothing of JFR: it reports through its
 * {@code JobObserver}, and the tick loop ({@code Simulation} in {@code dev.orrery.engine})
 * installs the observer. Chrome traces, the other view of the same reports, are
 * {@code dev.orrery.engine.ChromeTrace}.
 *
 * <p>Record them with {@code -XX:StartFlightRecording} or a {@code jdk.jfr.Recording} that
 * enables {@code dev.orrery.*}; they appear under the "Orrery" category in JDK Mission
 * Control.
 *
 * <p><b>Memory ordering:</b> a JFR event is committed on the thread that made it (job events
 * on the worker that ran the job) and JFR's per-thread buffers need no hand-off; the
 * observer's own settings are written by the tick thread between runs and published to the
 * workers by the executor's job hand-off.
 */
package dev.orrery.engine.jfr;
