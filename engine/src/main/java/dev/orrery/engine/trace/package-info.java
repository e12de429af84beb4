/**
 * Chrome traces of ticks and jobs ({@link dev.orrery.engine.trace.ChromeTrace}, opens in
 * Perfetto or {@code chrome://tracing}): a {@code JobObserver} that the tick loop chains
 * behind its JFR observer ({@code dev.orrery.engine.jfr}), which holds the JFR events for
 * the same reports.
 *
 * <p><b>Memory ordering:</b> each worker writes only its own preallocated arrays; the tick
 * thread reads them after the traced ticks, when the executor's completion hand-off has made
 * every worker's writes visible to it.
 */
package dev.orrery.engine.trace;
