/**
 * The input journal: the append-only, checksummed file of every tick's stamped inputs and
 * state hashes that record and replay are built on.
 *
 * <p>{@link dev.orrery.engine.journal.JournalWriter} is the
 * {@link dev.orrery.engine.InputRecorder} an {@link dev.orrery.engine.InputPipeline}
 * writes through; {@link dev.orrery.engine.journal.JournalReader} reads the file back record
 * by record or tick by tick (a {@link dev.orrery.engine.journal.JournalTick} each) and
 * refuses damaged files with a {@link dev.orrery.engine.CorruptJournalException}; a
 * {@link dev.orrery.engine.journal.JournalMark} lets a reader of a live journal go on from where
 * it stopped once the file has grown.
 * The byte layout is described in {@code JournalWriter} and its constants are kept in one
 * package-private class, {@code JournalFormat}; the order rules of a tick (inputs numbered
 * 0, 1, ..., one tick end, at most one skipped-tick record and one state hash, ticks
 * increasing) are kept in another,
 * {@code TickFraming}, which the writer uses to refuse a bad call and the reader to refuse a
 * bad file. {@link dev.orrery.engine.journal.JournalRecordKind} names the record kinds.
 * {@link dev.orrery.engine.journal.ClusterStoreLayout} tells, by file names only, a cluster
 * store's folder from a recording's, for the replayer, the explorer and the demo to refuse one
 * by one rule, naming the tool that checks it.
 *
 * <p>Neighbours: this package depends only on {@code dev.orrery.engine} (the
 * {@code InputBatch} a replayed tick is read into, the {@code InputRecorder} the writer
 * implements, {@code CorruptJournalException}, and the {@code Durability} and
 * {@code FailurePolicy} a journal records). The pipeline's journal thread, which calls the
 * writer, is the input pipeline's own machinery ({@code RecordingStage} in
 * {@code dev.orrery.engine}), and {@code RunRecorder} and {@code RunReplayer} there build
 * whole-run recording and replay on top of this.
 *
 * <p><b>Threading:</b> a writer or a reader is used by one thread at a time; nothing here is
 * shared between threads.
 */
package dev.orrery.engine.journal;

import dev.orrery.engine.CorruptJournalException;
