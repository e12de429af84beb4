package dev.orrery.cluster.world;

import dev.orrery.cluster.store.SnapshotInfo;
import dev.orrery.cluster.store.WorldStore;
import dev.orrery.engine.Durability;
import dev.orrery.engine.FailurePolicy;
import dev.orrery.engine.InputBatch;
import dev.orrery.engine.InputSource;
import dev.orrery.engine.Simulation;
import dev.orrery.engine.journal.JournalWriter;
import dev.orrery.scheduler.SystemFailedException;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;

// Over 500 lines on purpose, about 630 with its tags: input admission with exactly-once
// windows, the tick with its journal, snapshot retention and the hand-off share one world's
// simulation, journal segment and pending inputs, under one owner actor and its thread; the
// parts that need none of that are apart already: the windows in ClientWindows, the replay's
// input source in ReplayInputs, the store's files in WorldStore, the journal history in
// JournalHistory.
/**
 * One world's incarnation on a node. {@link #open} claims the world's next epoch in the
 * store (fencing any older incarnation), builds its simulation from the blueprint, restores
 * the latest valid snapshot (the simulation and its input window), replays the journal
 * history after it (checking every recorded state hash and skipped tick, and rebuilding the
 * window) and starts a new journal segment at the tick where the world left off. Then each {@link #tick()}
 * stamps the inputs {@link #offer offered} since the last tick, journals them, runs the tick,
 * forces the journal to the device and checks the fence: when it returns, every input
 * stamped in that tick is durable and this epoch still holds the world, so the inputs may be
 * acknowledged. Same blueprint and same journaled inputs give the same hashes as one
 * uninterrupted run on one node.
 *
 * <p><b>Exactly once.</b> Each input carries its client's id and a sequence number; the
 * world applies each pair at most once. {@link #offer} answers at once for an input already
 * applied (with its tick), one refused, or one the world cannot take now; otherwise it
 * queues the input for the next tick (a second offer of a queued input is answered with the
 * first, after that tick). The window of applied sequences is described in
 * {@link WorldSettings}; it is journaled with each input (16 bytes before the client's
 * payload, which is all the simulation sees) and kept in every snapshot.
 *
 * <p><b>Storage.</b> A snapshot every {@link WorldSettings#snapshotEvery()} ticks and on a
 * hand-off. At a periodic snapshot the journal goes on in a new segment starting at that
 * tick (so a world that never moves does not keep one ever-growing file), and the retention
 * of {@link WorldSettings#keepSnapshots()} deletes what the history no longer needs
 * ({@link JournalHistory#retain}).
 *
 * <p>Game time stops while a world moves: the new incarnation continues at the next tick,
 * it does not catch up on the wall-clock time the move took.
 *
 * <p>A system failure under {@code FailurePolicy.STOP} ends the incarnation (the tick
 * throws, acknowledging nothing). The failing tick's inputs and its end, stamped before the
 * systems ran, are written out and forced before it throws, as the engine's
 * {@code RunRecorder} journals a failed tick's inputs: the journal holds what made the tick
 * fail (with no hash after it). So reopening the world fails the same way at the same tick,
 * in its replay ({@link #open} throws the {@code SystemFailedException}, as a
 * {@code RunReplayer} replay does): build worlds with {@code SKIP_TICK} to keep them running.
 * A blueprint that no longer throws replays that tick with those inputs, and answers their
 * clients' retries with it. A
 * segment journaled under {@code SKIP_TICK} replays under it whatever the blueprint says now, so
 * that its skipped ticks replay skipped (as {@code RunReplayer} replays under the recorded
 * policy); the live ticks then run under the blueprint's ({@link JournalHistory#replayPolicy}).
 *
 * <p><b>Threading:</b> one thread at a time; calls from different threads need a
 * happens-before edge between them (an actor's message handling gives it). A tick or a
 * hand-over ({@link #close()}, which snapshots) from a thread other than the last one's hands
 * the simulation over ({@code bindTickThread()}). A {@link #stateHash()} from another thread
 * while a tick runs is refused naming both threads.
 */
public final class WorldRuntime implements AutoCloseable {
    private static final System.Logger LOG = System.getLogger(WorldRuntime.class.getName());

    private final String worldId;
    private final WorldStore store;
    private final long epoch;
    private final Simulation sim;
    private final WorldSettings settings;
    private final RecoveryReport recovery;
    private JournalWriter journal;
    private final ClientWindows windows;
    private final List<Pending> pending = new ArrayList<>();
    private final Set<Key> pendingKeys = new HashSet<>();
    /** Per client with inputs queued: the lowest and highest sequence queued. */
    private final Map<Long, long[]> pendingRange = new HashMap<>();
    private int pendingNewClients;
    private Thread tickThread;
    /** The thread inside {@link #tick()} now, or null: {@link #stateHash()} from another thread meanwhile is refused. */
    private volatile Thread ticking;
    private boolean closed;
    private long filesDeleted;

    private record Pending(long clientId, long sequence, int client, int type, byte[] journaled) {
    }

    private record Key(long clientId, long sequence) {
    }

    /**
     * What {@link #offer} did with an input.
     *
     * @param verdict queued, already applied, refused, or busy
     * @param tick the tick it applied in ({@link Verdict#APPLIED}), -1 otherwise
     * @param reason why it was refused or the world is busy (empty otherwise)
     */
    public record Offer(Verdict verdict, long tick, String reason) {
        /** The four things an offer can come to. */
        public enum Verdict {
            /** Queued for the next tick: answer once {@link #tick()} returns. */
            QUEUED,
            /** Applied before, in {@link Offer#tick()}, which is durable: answer accepted now. */
            APPLIED,
            /** It will never apply: answer refused now. */
            REFUSED,
            /** The world cannot take it now (not applied): answer unknown, the client sends it again. */
            BUSY
        }

        static final Offer QUEUED = new Offer(Verdict.QUEUED, -1, "");
    }

    private WorldRuntime(String worldId, WorldStore store, long epoch, Simulation sim, WorldSettings settings,
            RecoveryReport recovery, JournalWriter journal, ClientWindows windows) {
        this.worldId = worldId;
        this.store = store;
        this.epoch = epoch;
        this.sim = sim;
        this.settings = settings;
        this.recovery = recovery;
        this.journal = journal;
        this.windows = windows;
        sim.inputs(new LiveInputs());
        tickThread = Thread.currentThread();
    }

    /**
     * Opens {@code worldId} on this node: claim, restore, replay, new journal segment.
     *
     * @param worldId   the world's id, one {@code store} takes
     * @param store     the shared store holding the world's epochs, snapshots and journal
     * @param blueprint builds the world's simulation, the same on every node
     * @param settings snapshots, retention and the input window
     * @return the world's incarnation on this node, its epoch claimed, ready to tick (one thread
     *     at a time, see the class comment)
     * @throws IOException if the store fails, or its history is damaged or has a gap
     * @throws dev.orrery.engine.ReplayDivergenceException if a replayed tick's state hash
     *     differs from the one journaled, or the replay skips a tick the journal ran or runs one
     *     the journal notes skipped ({@code FailurePolicy.SKIP_TICK}), or skips it because another
     *     system failed than the one journaled (the blueprint is not the
     *     one the world ran with, is not deterministic, or keeps state in a resource without a
     *     codec), naming the world, the journal segment, the tick, the system that threw and the
     *     causes, as a {@code JournalInputSource} replay does
     * @throws dev.orrery.ecs.SnapshotException if a world with no snapshot yet cannot take one
     *     (so it could never move: the simulation's refusal is the cause), or the latest valid
     *     snapshot's bytes are damaged (its header, its input window or the simulation's part)
     * @throws dev.orrery.scheduler.SystemFailedException if a journaled tick that failed under
     *     {@code FailurePolicy.STOP} (the last of its segment) fails again in the replay: the
     *     blueprint still throws there (see the class comment); or a blueprint other than the
     *     world's throws at an earlier tick. A {@link ReplayedTickFailure} suppressed in it says
     *     which tick, and which of the two
     */
    public static WorldRuntime open(String worldId, WorldStore store, WorldBlueprint blueprint, WorldSettings settings)
            throws IOException {
        Objects.requireNonNull(blueprint, "blueprint");
        Objects.requireNonNull(settings, "settings");
        long epoch = store.claim(worldId);
        if (settings.keepSnapshots() > 0 && epoch > JournalHistory.EPOCHS_KEPT) {
            store.forgetEpochsBefore(worldId, epoch - JournalHistory.EPOCHS_KEPT);
        }
        long started = System.nanoTime();
        Optional<SnapshotInfo> snapshot = JournalHistory.latestValidSnapshot(store, worldId);
        Simulation sim = blueprint.build(worldId, snapshot.isEmpty());
        ClientWindows windows = new ClientWindows(settings.window(), settings.maxClients(), settings.clientExpiryTicks());
        try {
            if (snapshot.isEmpty()) {
                StoredSnapshot.requireSnapshots(worldId, sim); // before a tick is journaled that no move could carry
            } else {
                StoredSnapshot.Parts parts = StoredSnapshot.read(store.readSnapshot(worldId, snapshot.get()), worldId);
                sim.restore(parts.simulation());
                StoredSnapshot.readWindow(parts, windows, worldId);
            }
            long restored = System.nanoTime();
            ReplayInputs replay = new ReplayInputs(worldId, windows, ResourcesLeftOut.of(sim));
            sim.inputs(replay);
            long from = sim.currentTick();
            FailurePolicy live = sim.failurePolicy();
            long next = JournalHistory.forEachTick(store, worldId, from, (tick, segment, policy, cutAfter) -> {
                sim.onSystemFailure(JournalHistory.replayPolicy(policy, live));
                replay.next(tick, segment, cutAfter);
                try {
                    sim.tick();
                } catch (SystemFailedException e) { // names the system, not the tick: the note says which
                    throw ReplayedTickFailure.attach(e, store, worldId, tick);
                }
                replay.ticked(); // a journaled skip the replay ran, at a tick with no hash
            });
            sim.onSystemFailure(live); // the live ticks, and the new segment, under the blueprint's
            long replayed = System.nanoTime();
            RecoveryReport report = new RecoveryReport(worldId, epoch, snapshot.map(SnapshotInfo::tick).orElse(-1L),
                    next - from, next, restored - started, replayed - restored);
            JournalWriter journal = JournalWriter.create(store.newSegment(worldId, epoch, next), sim.failurePolicy(),
                    Durability.EVERY_TICK);
            return new WorldRuntime(worldId, store, epoch, sim, settings, report, journal, windows);
        } catch (IOException | RuntimeException e) {
            sim.close();
            throw e;
        }
    }

    /**
     * The world id.
     *
     * @return the id given to {@code open}
     */
    public String worldId() {
        return worldId;
    }

    /**
     * The epoch this incarnation claimed.
     *
     * @return the epoch, 1 or more, that {@link dev.orrery.cluster.store.WorldStore#claim} returned
     */
    public long epoch() {
        return epoch;
    }

    /**
     * What opening the world cost.
     *
     * @return the report made by {@code open}, never null
     */
    public RecoveryReport recovery() {
        return recovery;
    }

    /**
     * The settings the world runs with.
     *
     * @return the settings given to {@code open}
     */
    public WorldSettings settings() {
        return settings;
    }

    /**
     * The simulation (read it between ticks; do not tick it directly).
     *
     * @return the world's simulation, owned by this runtime until it closes
     */
    public Simulation simulation() {
        return sim;
    }

    /**
     * The next tick to run.
     *
     * @return {@code simulation().currentTick()}
     */
    public long currentTick() {
        return sim.currentTick();
    }

    /**
     * The world's state hash now (computed; costs a pass over the world).
     *
     * <p><b>Threading:</b> as the rest of this class, one thread at a time, between ticks:
     * the actor that owns the world (on a node, {@code ClusterNode.status} has it read here,
     * in that actor's message handling), or a thread with a happens-before edge from the last tick.
     * It reads the world on the calling thread, so another thread calling it while the owner
     * ticks would hash a world part-way through the tick; that is refused when caught (one
     * volatile read; a call just before a tick starts is not caught). A monitor on another
     * thread reads {@code simulation().lastHash()} or {@code progress()} instead, which the
     * tick publishes for any thread.
     *
     * @return the hash of the world as it is between ticks
     * @throws IllegalStateException when called on a thread other than the one inside
     *     {@link #tick()} now, naming both threads and the fix
     */
    public long stateHash() {
        Thread t = ticking;
        if (t != null && t != Thread.currentThread()) {
            throw new IllegalStateException("WorldRuntime.stateHash() called on thread '"
                    + Thread.currentThread().getName() + "' while world '" + worldId + "' ticks on thread '"
                    + t.getName() + "': it would hash a world part-way through the tick; call it on the world's "
                    + "owner between ticks (on a node, ClusterNode.status(worldId, timeout) has the owner read it), or read "
                    + "simulation().lastHash() or progress(), which any thread may");
        }
        return sim.world().stateHash();
    }

    /**
     * Clients the input window remembers now.
     *
     * @return the count, 0 to {@link WorldSettings#maxClients()}
     */
    public int clients() {
        return windows.clients();
    }

    /**
     * Files this incarnation's retention has deleted so far.
     *
     * @return the count, 0 or more; always 0 with {@code keepSnapshots} 0
     */
    public long filesDeleted() {
        return filesDeleted;
    }

    /**
     * Offers input {@code sequence} of client {@code clientId} for the next tick.
     *
     * @param clientId the sending client's id, the de-duplication key with {@code sequence}
     * @param sequence the input's number among this client's inputs to this world, from 1
     *     (a lower one is refused)
     * @param client the client number the simulation sees
     * @param type the command type the simulation sees
     * @param payload the client's bytes (copied)
     * @return {@link Offer.Verdict#QUEUED} (answer after the next {@link #tick()}), or the answer now
     */
    public Offer offer(long clientId, long sequence, int client, int type, byte[] payload) {
        checkOpen();
        if (sequence < 1) {
            return refused("sequence " + sequence + " of client " + clientId + " is not 1 or more");
        }
        if (payload.length > JournaledInput.PAYLOAD_CEILING) {
            return refused("its payload of " + payload.length + " bytes is over the " + JournaledInput.PAYLOAD_CEILING
                    + " a journaled input holds");
        }
        long applied = windows.appliedTick(clientId, sequence);
        if (applied >= 0) {
            return new Offer(Offer.Verdict.APPLIED, applied, "");
        }
        Key key = new Key(clientId, sequence);
        if (pendingKeys.contains(key)) {
            return Offer.QUEUED;
        }
        int window = settings.window();
        if (windows.tooOld(clientId, sequence)) {
            return refused("sequence " + sequence + " of client " + clientId + " is at or below its highest applied "
                    + "sequence " + windows.highest(clientId) + " less the window of " + window + ": whether it "
                    + "applied before is no longer known, and it will not apply now (keep fewer than " + window
                    + " inputs unanswered per world)");
        }
        long[] range = pendingRange.get(clientId);
        long low = range == null ? sequence : Math.min(range[0], sequence);
        long high = Math.max(windows.highest(clientId), range == null ? sequence : Math.max(range[1], sequence));
        if (low <= high - window) {
            return busy("client " + clientId + " has sequences " + low + " to " + high + " queued or applied, more "
                    + "than the window of " + window + "; send it again once the older ones are answered");
        }
        if (pending.size() >= settings.maxPendingInputs()) {
            return busy("world '" + worldId + "' has " + pending.size() + " inputs queued for its next tick (the most "
                    + "it takes); send it again");
        }
        boolean newClient = !windows.knows(clientId) && range == null;
        if (newClient && windows.full(pendingNewClients)) {
            return busy("world '" + worldId + "' remembers " + windows.clients() + " clients, the most it may ("
                    + settings.maxClients() + "); idle clients are forgotten after " + settings.clientExpiryTicks()
                    + " ticks; send it again later");
        }
        pending.add(new Pending(clientId, sequence, client, type, JournaledInput.encode(clientId, sequence, payload)));
        pendingKeys.add(key);
        if (range == null) {
            pendingRange.put(clientId, new long[] {sequence, sequence});
        } else {
            range[0] = low;
            range[1] = Math.max(range[1], sequence);
        }
        if (newClient) {
            pendingNewClients++;
        }
        return Offer.QUEUED;
    }

    private static Offer refused(String why) {
        return new Offer(Offer.Verdict.REFUSED, -1, why);
    }

    private static Offer busy(String why) {
        return new Offer(Offer.Verdict.BUSY, -1, why);
    }

    /**
     * Inputs queued and not yet stamped.
     *
     * @return the count, 0 or more; the next {@link #tick()} stamps them
     */
    public int pendingInputs() {
        return pending.size();
    }

    /**
     * Runs one tick with the inputs queued since the last one and makes it durable.
     *
     * @return the number of the tick that ran; every input queued before the call applied
     *     in it and may be acknowledged
     * @throws FencedException if another incarnation has claimed the world: acknowledge
     *     nothing, {@link #abandon()} and stop
     * @throws IOException if the journal cannot be written or forced, or the periodic
     *     snapshot cannot be stored (the tick itself is durable then)
     * @throws dev.orrery.scheduler.SystemFailedException if a system failed under
     *     {@code FailurePolicy.STOP}: the tick's inputs are journaled and forced before it
     *     throws (see the class comment); acknowledge nothing, {@link #abandon()} and open
     *     the world again
     */
    public long tick() throws IOException {
        checkOpen();
        takeSimulation();
        long t;
        ticking = Thread.currentThread();
        try {
            t = sim.tick();
        } catch (UncheckedIOException e) {
            throw e.getCause();
        } catch (RuntimeException | Error e) {
            journalFailedTick(e);
            throw e;
        } finally {
            ticking = null;
        }
        journal.flush(); // EVERY_TICK: forced to the device here
        if (!store.isCurrent(worldId, epoch)) {
            throw new FencedException(worldId, epoch, "after journaling tick " + t);
        }
        if (settings.snapshotEvery() > 0 && sim.currentTick() % settings.snapshotEvery() == 0) {
            snapshotRollAndRetain();
        }
        return t;
    }

    /**
     * A tick that threw (a system under {@code STOP}): what its input source journaled (the
     * tick's inputs and end, stamped before the systems ran) is written out and forced, as
     * the engine's recorder writes a failed tick's inputs, so that the journal holds what
     * made the tick fail and a reopening replays it. A journal that cannot be written is
     * added to {@code failure}, which is thrown all the same.
     */
    private void journalFailedTick(Throwable failure) {
        try {
            journal.flush();
        } catch (IOException | RuntimeException e) {
            failure.addSuppressed(e);
        }
    }

    /**
     * Makes the calling thread the simulation's tick thread when it is not: an actor's
     * messages come on any dispatcher thread (their handling orders them), and the simulation
     * ticks and snapshots only on its tick thread.
     */
    private void takeSimulation() {
        if (tickThread != Thread.currentThread()) {
            sim.bindTickThread();
            tickThread = Thread.currentThread();
        }
    }

    /** A periodic snapshot: then the journal goes on in a new segment from it, so retention can delete the old one. */
    private void snapshotRollAndRetain() throws IOException {
        long at = sim.currentTick();
        store.writeSnapshot(worldId, epoch, at, StoredSnapshot.write(sim.snapshot(), windows));
        JournalWriter next = JournalWriter.create(store.newSegment(worldId, epoch, at), sim.failurePolicy(),
                Durability.EVERY_TICK);
        JournalWriter done = journal;
        journal = next;
        done.close();
        retain();
    }

    private void snapshotAndRetain() throws IOException {
        store.writeSnapshot(worldId, epoch, sim.currentTick(), StoredSnapshot.write(sim.snapshot(), windows));
        retain();
    }

    private void retain() {
        try {
            filesDeleted += JournalHistory.retain(store, worldId, epoch, settings.keepSnapshots());
        } catch (IOException | RuntimeException e) {
            LOG.log(System.Logger.Level.WARNING, "world '" + worldId + "' epoch " + epoch + ": deleting old snapshots "
                    + "and journal segments failed (" + e + "); the store keeps them until the next snapshot tries "
                    + "again; check that the store is writable");
        }
    }

    /**
     * Hands the world over cleanly (a rebalance or a node leaving): a snapshot at the current
     * tick, so the next holder replays nothing, then retention, the journal closed and the
     * simulation stopped. Idempotent. Inputs queued and not ticked are dropped (never applied).
     * If it throws, the world is closed all the same, its journal let go as by {@link #abandon()}:
     * the next holder replays it from the last snapshot.
     *
     * @throws FencedException if another incarnation already holds the world (nothing is
     *     written then)
     * @throws IOException if the store cannot take the snapshot
     * @throws dev.orrery.ecs.SnapshotException if the simulation cannot write one (a codec
     *     that fails)
     */
    @Override
    public void close() throws IOException {
        if (closed) {
            return;
        }
        boolean handedOver = false;
        try {
            if (!store.isCurrent(worldId, epoch)) {
                throw new FencedException(worldId, epoch, "while handing the world over");
            }
            takeSimulation(); // the snapshot is the tick thread's: this message may run on another thread
            snapshotAndRetain();
            journal.close();
            handedOver = true;
        } finally {
            if (!handedOver) {
                releaseJournal(); // fenced, or no snapshot: the file is let go as a crash would
            }
            release();
        }
    }

    /**
     * Lets the world go without a snapshot or a clean journal end, as a crash would (after a
     * fence, or when the node stops abruptly). Idempotent.
     */
    public void abandon() {
        if (closed) {
            return;
        }
        try {
            releaseJournal();
        } finally {
            release();
        }
    }

    private void releaseJournal() {
        try {
            journal.abandon();
        } catch (IOException e) {
            LOG.log(System.Logger.Level.WARNING,
                    "world '" + worldId + "': releasing journal " + journal.path() + " failed: " + e.getMessage());
        }
    }

    /**
     * Whether the world was closed or abandoned.
     *
     * @return true once {@code close} or {@code abandon} has run; the simulation is closed then
     */
    public boolean isClosed() {
        return closed;
    }

    private void release() {
        closed = true;
        clearPending();
        sim.close();
    }

    private void clearPending() {
        pending.clear();
        pendingKeys.clear();
        pendingRange.clear();
        pendingNewClients = 0;
    }

    private void checkOpen() {
        if (closed) {
            throw new IllegalStateException("world '" + worldId + "' epoch " + epoch
                    + " is closed; open the world again (WorldRuntime.open) to run it");
        }
    }

    @Override
    public String toString() {
        return "WorldRuntime[" + worldId + ", epoch " + epoch + ", tick " + sim.currentTick() + "]";
    }

    /** Stamps the queued inputs into each live tick, journals them and records them in the window. */
    private final class LiveInputs implements InputSource {
        private final InputBatch batch = new InputBatch();

        @Override
        public InputBatch beginTick(long tick) {
            batch.reset(tick);
            windows.tick(tick);
            try {
                for (int i = 0; i < pending.size(); i++) {
                    Pending p = pending.get(i);
                    byte[] j = p.journaled();
                    int seq = batch.add(p.client(), p.type(), j, JournaledInput.HEADER, j.length - JournaledInput.HEADER);
                    journal.recordInput(tick, seq, p.client(), p.type(), j, 0, j.length);
                    windows.applied(p.clientId(), p.sequence(), tick);
                }
                journal.recordTickEnd(tick, pending.size());
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
            clearPending();
            return batch;
        }

        @Override
        public void recordHash(long tick, long stateHash) {
            try {
                journal.recordTickHash(tick, stateHash);
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        }

        @Override
        public void tickSkipped(long tick, String system, int chunk) {
            try {
                journal.recordTickSkipped(tick, system, chunk);
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        }
    }
}
