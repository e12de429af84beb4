/**
 * Record and replay: the input journal and its reader.
 *
 * <p>A journal is an append-only file of checksummed records: the stamped inputs of each
 * tick, a tick-end record per tick (so empty ticks are recorded too), optional state-hash
 * records that replay checks, and an end-of-journal record written on a clean close, so
 * that a file cut short anywhere, even exactly between two records, is detected. The
 * byte layout is described in {@link dev.orrery.engine.replay.JournalWriter}.
 * {@link dev.orrery.engine.replay.JournalWriter} is the
 * {@link dev.orrery.engine.input.InputRecorder} an
 * {@link dev.orrery.engine.input.InputPipeline} writes through;
 * {@link dev.orrery.engine.replay.JournalReader} reads it back tick by tick and refuses
 * damaged files with a {@link dev.orrery.engine.replay.CorruptJournalException}.
 */
package dev.orrery.engine.replay;
