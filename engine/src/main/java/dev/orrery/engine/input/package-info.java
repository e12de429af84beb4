/**
 * The input pipeline: how commands from outside the simulation (a server's client
 * commands) reach the systems, stamped with the tick that consumes them.
 *
 * <pre>
 *  producer threads          tick thread                      journal thread
 *  (any number)              (one, runs the tick loop)        (one, owned by the pipeline)
 *
 *  tryPublish / publish ──▶ [ input ring, multi-producer ] ──▶ beginTick(t): drain, stamp
 *                                                              (t, 0..n-1), copy into the
 *                                                              InputBatch, publish a
 *                                                              tick-end marker ─────────▶ write the
 *                                                                                         stamped inputs
 *                                            recordHash(t, h) ──────────────────────────▶ and markers to
 *                                                                                         the InputRecorder
 * </pre>
 *
 * <p><b>Memory ordering.</b> A producer's slot writes happen-before its publish of the
 * slot's sequence (a release store in the Disruptor sequencer); the tick thread reads
 * availability with an acquire load before it reads the slot. The tick thread's stamps
 * happen-before its publish of the tick-end marker (a release), which the journal thread
 * reads (acquire) before it reads the stamped slots. The journal thread releases slots to
 * producers by advancing its gating sequence only after it has copied them. The
 * {@link dev.orrery.engine.input.InputBatch} a tick sees is written by the tick thread
 * before it hands jobs to workers, so workers must be started by the tick thread (the
 * scheduler's job hand-off is the happens-before edge) and only read the batch.
 */
package dev.orrery.engine.input;
