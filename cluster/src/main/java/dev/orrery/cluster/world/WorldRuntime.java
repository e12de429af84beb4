package dev.orrery.cluster.world;

import dev.orrery.cluster.store.JournalSegment;
import dev.orrery.cluster.store.SnapshotInfo;
import dev.orrery.cluster.store.WorldStore;
import dev.orrery.engine.Durability;
import dev.orrery.engine.InputBatch;
import dev.orrery.engine.InputSource;
import dev.orrery.engine.Simulation;
import dev.orrery.engine.journal.JournalTick;
import dev.orrery.engine.journal.JournalWriter;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * One world's incarnation on a node. {@link #open} claims the world's next epoch in the
 * store (fencing any older incarnation), builds its simulation from the blueprint, restores
 * the latest valid snapshot, replays the journal history after it (checking every recorded
 * state hash) and starts a new journal segment at the tick where the world left off. Then
 * each {@link #tick()} stamps the inputs {@link #offer offered} since the last tick, journals
 * them, runs the tick, forces the journal to the device and checks the fence: when it
 * returns, every input stamped in that tick is durable and this epoch still holds the
 * world, so the inputs may be acknowledged. Same blueprint and same journaled inputs give
 * the same hashes as one uninterrupted run on one node.
 *
 * <p>Game time stops while a world moves: the new incarnation continues at the next tick,
 * it does not catch up on the wall-clock time the move took.
 *
 * <p>A system failure under {@code FailurePolicy.STOP} ends the incarnation (the tick
 * throws); since the journal holds the failing tick's inputs, reopening the world fails the
 * same way at the same tick: build worlds with {@code SKIP_TICK} to keep them running.
 *
 * <p><b>Threading:</b> one thread at a time; calls from different threads need a
 * happens-before edge between them (an actor's message handling gives it). A tick from a
 * thread other than the last one's hands the simulation over ({@code bindTickThread()}).
 */
public final class WorldRuntime implements AutoCloseable {
    private final String worldId;
    private final WorldStore store;
    private final long epoch;
    private final Simulation sim;
    private final int snapshotEvery;
    private final RecoveryReport recovery;
    private final JournalWriter journal;
    private final List<Pending> pending = new ArrayList<>();
    private Thread tickThread;
    private boolean closed;

    private record Pending(int client, int type, byte[] payload) {
    }

    private WorldRuntime(String worldId, WorldStore store, long epoch, Simulation sim, int snapshotEvery,
            RecoveryReport recovery, JournalWriter journal) {
        this.worldId = worldId;
        this.store = store;
        this.epoch = epoch;
        this.sim = sim;
        this.snapshotEvery = snapshotEvery;
        this.recovery = recovery;
        this.journal = journal;
        sim.inputs(new LiveInputs());
        tickThread = Thread.currentThread();
    }

    /**
     * Opens {@code worldId} on this node: claim, restore, replay, new journal segment.
     *
     * @param snapshotEvery take a snapshot every this many ticks (0: only on {@link #close()});
     *     it bounds what a crash costs to replay
     * @throws IOException if the store fails, or its history is damaged or has a gap
     * @throws IllegalStateException if a replayed tick's state hash differs from the one
     *     journaled (the blueprint is not the one the world ran with, or is not deterministic)
     */
    public static WorldRuntime open(String worldId, WorldStore store, WorldBlueprint blueprint, int snapshotEvery)
            throws IOException {
        Objects.requireNonNull(blueprint, "blueprint");
        if (snapshotEvery < 0) {
            throw new IllegalArgumentException("snapshotEvery must be 0 (only on close) or positive, got " + snapshotEvery);
        }
        long epoch = store.claim(worldId);
        long started = System.nanoTime();
        Optional<SnapshotInfo> snapshot = JournalHistory.latestValidSnapshot(store, worldId);
        Simulation sim = blueprint.build(worldId, snapshot.isEmpty());
        try {
            if (snapshot.isPresent()) {
                sim.restore(store.readSnapshot(worldId, snapshot.get()));
            }
            long restored = System.nanoTime();
            ReplayInputs replay = new ReplayInputs(worldId);
            sim.inputs(replay);
            long from = sim.currentTick();
            long next = JournalHistory.forEachTick(store, worldId, from, (tick, segment) -> {
                replay.next(tick, segment);
                sim.tick();
            });
            long replayed = System.nanoTime();
            RecoveryReport report = new RecoveryReport(worldId, epoch, snapshot.map(SnapshotInfo::tick).orElse(-1L),
                    next - from, next, restored - started, replayed - restored);
            JournalWriter journal = JournalWriter.create(store.newSegment(worldId, epoch, next), sim.failurePolicy(),
                    Durability.EVERY_TICK);
            return new WorldRuntime(worldId, store, epoch, sim, snapshotEvery, report, journal);
        } catch (IOException | RuntimeException e) {
            sim.close();
            throw e;
        }
    }

    /** The world id. */
    public String worldId() {
        return worldId;
    }

    /** The epoch this incarnation claimed. */
    public long epoch() {
        return epoch;
    }

    /** What opening the world cost. */
    public RecoveryReport recovery() {
        return recovery;
    }

    /** The simulation (read it between ticks; do not tick it directly). */
    public Simulation simulation() {
        return sim;
    }

    /** The next tick to run. */
    public long currentTick() {
        return sim.currentTick();
    }

    /** The world's state hash now (computed; costs a pass over the world). */
    public long stateHash() {
        return sim.world().stateHash();
    }

    /**
     * Queues an input for the next tick.
     *
     * @return its sequence within that tick (inputs are stamped in the order offered)
     */
    public int offer(int client, int type, byte[] payload) {
        checkOpen();
        pending.add(new Pending(client, type, payload.clone()));
        return pending.size() - 1;
    }

    /** Inputs offered and not yet stamped. */
    public int pendingInputs() {
        return pending.size();
    }

    /**
     * Runs one tick with the inputs offered since the last one and makes it durable.
     *
     * @return the number of the tick that ran; its inputs, sequences 0 to
     *     {@link #pendingInputs()} before the call minus 1, may be acknowledged
     * @throws FencedException if another incarnation has claimed the world: acknowledge
     *     nothing, {@link #abandon()} and stop
     * @throws IOException if the journal cannot be written or forced
     */
    public long tick() throws IOException {
        checkOpen();
        if (tickThread != Thread.currentThread()) {
            sim.bindTickThread();
            tickThread = Thread.currentThread();
        }
        long t;
        try {
            t = sim.tick();
        } catch (UncheckedIOException e) {
            throw e.getCause();
        }
        journal.flush(); // EVERY_TICK: forced to the device here
        if (!store.isCurrent(worldId, epoch)) {
            throw new FencedException(worldId, epoch, "after journaling tick " + t);
        }
        if (snapshotEvery > 0 && sim.currentTick() % snapshotEvery == 0) {
            store.writeSnapshot(worldId, epoch, sim.currentTick(), sim.snapshot());
        }
        return t;
    }

    /**
     * Hands the world over cleanly (a rebalance or a node leaving): a snapshot at the current
     * tick, so the next holder replays nothing, then the journal closed and the simulation
     * stopped. Idempotent. Inputs offered and not ticked are dropped (never acknowledged).
     *
     * @throws FencedException if another incarnation already holds the world (nothing is
     *     written then)
     */
    @Override
    public void close() throws IOException {
        if (closed) {
            return;
        }
        try {
            if (!store.isCurrent(worldId, epoch)) {
                throw new FencedException(worldId, epoch, "while handing the world over");
            }
            store.writeSnapshot(worldId, epoch, sim.currentTick(), sim.snapshot());
            journal.close();
        } finally {
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
            journal.abandon();
        } catch (IOException e) {
            System.getLogger(WorldRuntime.class.getName()).log(System.Logger.Level.WARNING,
                    "world '" + worldId + "': releasing journal " + journal.path() + " failed: " + e.getMessage());
        } finally {
            release();
        }
    }

    private void release() {
        closed = true;
        pending.clear();
        sim.close();
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

    /** Stamps the pending inputs into each live tick and journals the tick as it runs. */
    private final class LiveInputs implements InputSource {
        private final InputBatch batch = new InputBatch();

        @Override
        public InputBatch beginTick(long tick) {
            batch.reset(tick);
            try {
                for (int i = 0; i < pending.size(); i++) {
                    Pending p = pending.get(i);
                    int seq = batch.add(p.client(), p.type(), p.payload(), 0, p.payload().length);
                    journal.recordInput(tick, seq, p.client(), p.type(), p.payload(), 0, p.payload().length);
                }
                journal.recordTickEnd(tick, pending.size());
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
            pending.clear();
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

    /** Hands each journaled tick to the replay and checks its recorded hash. */
    private static final class ReplayInputs implements InputSource {
        private final String worldId;
        private JournalTick current;
        private JournalSegment segment;

        ReplayInputs(String worldId) {
            this.worldId = worldId;
        }

        void next(JournalTick tick, JournalSegment from) {
            this.current = tick;
            this.segment = from;
        }

        @Override
        public InputBatch beginTick(long tick) {
            if (current == null || current.tick() != tick) {
                throw new IllegalStateException("world '" + worldId + "': replay ran tick " + tick
                        + " but the journal's next tick is " + (current == null ? "none" : current.tick()));
            }
            return current.inputs();
        }

        @Override
        public void recordHash(long tick, long stateHash) {
            if (current.hasHash() && current.stateHash() != stateHash) {
                throw new IllegalStateException("world '" + worldId + "': replay of tick " + tick + " from "
                        + segment.path() + " gave state hash 0x" + Long.toHexString(stateHash) + " but 0x"
                        + Long.toHexString(current.stateHash()) + " was journaled; the blueprint differs from the one "
                        + "the world ran with, or a system is not deterministic");
            }
        }
    }
}
