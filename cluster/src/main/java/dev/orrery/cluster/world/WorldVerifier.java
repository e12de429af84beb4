package dev.orrery.cluster.world;

import dev.orrery.cluster.store.JournalSegment;
import dev.orrery.cluster.store.SnapshotInfo;
import dev.orrery.cluster.store.WorldStore;
import dev.orrery.engine.FailurePolicy;
import dev.orrery.engine.InputBatch;
import dev.orrery.engine.InputSource;
import dev.orrery.engine.Simulation;
import dev.orrery.engine.journal.JournalTick;
import dev.orrery.scheduler.SystemFailedException;
import java.io.IOException;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Checks a world in a store against its own journal, reading only (it claims no epoch, so it
 * may run beside the node holding the world): the world's history is replayed on one fresh
 * simulation, from tick 0 when the store still holds the journal from there, else from the
 * oldest valid snapshot kept, to the last journaled tick. On the way every journaled state
 * hash is compared with the replay's (whatever the blueprint's own {@code hashEvery}), every
 * tick the journal notes skipped ({@code FailurePolicy.SKIP_TICK}) must be skipped by the replay,
 * because the same system failed, and the other way round (as a {@code JournalInputSource} replay checks them; a tick the
 * replay skips as the last of a segment a crash cut right after its end is let pass, its note
 * may be what the crash lost; a segment journaled under {@code SKIP_TICK} replays under it,
 * whatever the blueprint says), every valid snapshot reached is restored into a second
 * simulation and its state hash compared with the replay's at that tick, and every input's
 * client id and sequence are checked to apply only once.
 *
 * <p><b>Threading:</b> stateless; {@link #verify} runs on the calling thread (the
 * simulations it builds are its own), and may run for several worlds at once.
 */
public final class WorldVerifier {
    /**
     * What a verification found.
     *
     * @param worldId the world
     * @param fromSnapshot the tick of the snapshot the replay started from, -1 for tick 0
     * @param nextTick the tick after the last one journaled
     * @param ticksReplayed ticks replayed
     * @param hashesChecked journaled hashes compared
     * @param hashMismatches journaled hashes the replay did not reproduce
     * @param firstMismatchTick the first tick whose hash differed, -1 if none did
     * @param skipsMatched ticks the journal notes skipped that the replay skipped too
     * @param skipMismatches ticks skipped by the recording and run by the replay, or the other
     *     way round, or skipped by both because different systems failed
     * @param firstSkipMismatch the first of those: its tick, which side skipped it and the
     *     system that threw ({@code tick 5: the recording skipped the tick (system 'fragile'
     *     threw) but the replay ran it}); empty if none
     * @param snapshotsChecked snapshots compared with the replay
     * @param snapshotMismatches snapshots whose state differed from the replay's
     * @param inputsApplied client inputs replayed
     * @param duplicateInputs inputs whose client id and sequence had applied before in the replay
     * @param stateHash the replayed world's state hash at {@code nextTick}
     * @param resourcesLeftOut the world's resources without a codec, which its snapshots leave
     *     out ({@link ResourcesLeftOut}): state kept in one is lost on a move, a cause of mismatches
     */
    public record Report(String worldId, long fromSnapshot, long nextTick, long ticksReplayed, long hashesChecked,
            long hashMismatches, long firstMismatchTick, long skipsMatched, long skipMismatches,
            String firstSkipMismatch, int snapshotsChecked, int snapshotMismatches,
            long inputsApplied, long duplicateInputs, long stateHash, List<String> resourcesLeftOut) {
        /**
         * Copies {@code resourcesLeftOut}; a null {@code firstSkipMismatch} is empty.
         *
         * @param worldId the world
         * @param fromSnapshot the start snapshot's tick, -1 for tick 0
         * @param nextTick the tick after the last one journaled
         * @param ticksReplayed ticks replayed
         * @param hashesChecked journaled hashes compared
         * @param hashMismatches hashes not reproduced
         * @param firstMismatchTick the first tick whose hash differed, -1 if none did
         * @param skipsMatched skipped ticks matched
         * @param skipMismatches skipped ticks not matched
         * @param firstSkipMismatch the first skip mismatch, or {@code null} (kept as {@code ""})
         *     for none
         * @param snapshotsChecked snapshots compared
         * @param snapshotMismatches snapshots that differed
         * @param inputsApplied client inputs replayed
         * @param duplicateInputs inputs applied twice
         * @param stateHash the final state hash
         * @param resourcesLeftOut the resources snapshots leave out, not null; copied
         * @throws NullPointerException if {@code resourcesLeftOut} is null or holds a null
         */
        public Report {
            resourcesLeftOut = List.copyOf(resourcesLeftOut);
            firstSkipMismatch = firstSkipMismatch == null ? "" : firstSkipMismatch;
        }

        /**
         * Whether every check passed.
         *
         * @return true when no hash, skip or snapshot differed and no input applied twice
         */
        public boolean ok() {
            return hashMismatches == 0 && skipMismatches == 0 && snapshotMismatches == 0 && duplicateInputs == 0;
        }

        /**
         * One line for a person: what was replayed, what matched, and the final hash.
         *
         * @return one line starting with {@code OK} or {@code FAILED} and the world's id; a failure
         *     also names the likely causes
         */
        public String describe() {
            String from = fromSnapshot < 0 ? "tick 0" : "snapshot " + fromSnapshot;
            String verdict = ok() ? "OK" : "FAILED";
            return String.format("%s %s: replayed ticks from %s to %d (%d ticks, %d inputs): %d of %d journaled hashes "
                    + "matched%s, %d of %d journaled skipped ticks matched%s, %d of %d snapshots matched, %d inputs "
                    + "applied twice; hash=0x%016x", verdict, worldId,
                    from, nextTick, ticksReplayed, inputsApplied, hashesChecked - hashMismatches, hashesChecked,
                    firstMismatchTick < 0 ? "" : " (first mismatch at tick " + firstMismatchTick + ")",
                    skipsMatched, skipsMatched + skipMismatches,
                    skipMismatches == 0 ? "" : " (" + skipMismatches + " differ, first at " + firstSkipMismatch + ")",
                    snapshotsChecked - snapshotMismatches, snapshotsChecked, duplicateInputs, stateHash)
                    + (hashMismatches + skipMismatches + snapshotMismatches == 0 ? "" : "; "
                    + ResourcesLeftOut.replayMismatchCauses(resourcesLeftOut));
        }
    }

    /** Receives every client input of the replayed history, in order. */
    @FunctionalInterface
    public interface InputVisitor {
        /**
         * Input {@code sequence} of client {@code clientId} applied in {@code tick}, {@code index}-th of the tick.
         *
         * @param tick     the tick that applied the input
         * @param index    its position among that tick's inputs, from 0
         * @param clientId the id of the client that sent it
         * @param sequence its number among that client's inputs to the world, from 1
         * @param type     the command type the simulation saw
         * @param payload the client's bytes (a scratch array: valid during the call, {@code length} long)
         * @param length   how many bytes of {@code payload} are the input's
         */
        void input(long tick, int index, long clientId, long sequence, int type, byte[] payload, int length);
    }

    /**
     * Verifies {@code worldId} in {@code store} with {@code blueprint} (the one its nodes ran).
     *
     * @param store the store the world's nodes used
     * @param worldId the world's id
     * @param blueprint the blueprint the world's nodes ran
     * @return what was replayed and what matched; {@link Report#ok()} says whether all did
     * @throws IOException if the store cannot be read, or its history has a gap (ticks missing
     *     between two segments, or after the journal's end before a stored snapshot)
     * @throws IllegalArgumentException if the store holds no journal of {@code worldId}
     * @throws dev.orrery.ecs.SnapshotException if a valid stored snapshot it starts from or
     *     compares is damaged (its header or the simulation's part), or the blueprint's
     *     simulation cannot restore it, naming the world and what was wrong
     * @throws SystemFailedException if a journaled tick fails in the replay under the policy
     *     it replays with: the tick that failed under {@code FailurePolicy.STOP}, the last of the
     *     journal, failing again (the blueprint still throws there), or an earlier tick (the
     *     blueprint is not the world's), as {@link WorldRuntime#open} throws it; a
     *     {@link ReplayedTickFailure} suppressed in it says which tick, and which of the two
     */
    public static Report verify(WorldStore store, String worldId, WorldBlueprint blueprint) throws IOException {
        return verify(store, worldId, blueprint, (tick, index, clientId, sequence, type, payload, length) -> {
        });
    }

    /**
     * {@link #verify(WorldStore, String, WorldBlueprint)}, handing every replayed input to {@code visitor}.
     *
     * @param store the store the world's nodes used
     * @param worldId the world's id
     * @param blueprint the blueprint the world's nodes ran
     * @param visitor receives every replayed input, in order, on the calling thread
     * @return what was replayed and what matched; {@link Report#ok()} says whether all did
     * @throws IOException as {@link #verify(WorldStore, String, WorldBlueprint)}: the store cannot
     *     be read, or its history has a gap
     * @throws IllegalArgumentException if the store holds no journal of {@code worldId}
     * @throws dev.orrery.ecs.SnapshotException as {@link #verify(WorldStore, String, WorldBlueprint)}:
     *     a stored snapshot is damaged or cannot be restored
     * @throws SystemFailedException as {@link #verify(WorldStore, String, WorldBlueprint)}: a
     *     journaled tick fails in the replay, its tick in a {@link ReplayedTickFailure}
     */
    public static Report verify(WorldStore store, String worldId, WorldBlueprint blueprint, InputVisitor visitor)
            throws IOException {
        List<JournalSegment> segments = store.segments(worldId);
        if (segments.isEmpty()) {
            throw new IllegalArgumentException("world '" + worldId + "' has no journal in " + store
                    + "; check the world id and the store directory");
        }
        List<SnapshotInfo> valid = JournalHistory.validSnapshots(store, worldId);
        boolean fromStart = segments.get(0).startTick() == 0;
        SnapshotInfo start = null;
        if (!fromStart) {
            if (valid.isEmpty()) {
                throw new IOException("world '" + worldId + "': its journal starts at tick "
                        + segments.get(0).startTick() + " and no valid snapshot is stored to start from");
            }
            start = valid.get(valid.size() - 1);
        }
        List<SnapshotInfo> ascending = new ArrayList<>(valid);
        Collections.reverse(ascending);
        try (Simulation sim = blueprint.build(worldId, start == null)) {
            if (start != null) {
                sim.restore(StoredSnapshot.read(store.readSnapshot(worldId, start), worldId).simulation());
            }
            Checker checker = new Checker(worldId, visitor);
            sim.inputs(checker);
            long from = sim.currentTick();
            int[] snapshots = {0, 0};
            int[] nextSnapshot = {0};
            FailurePolicy built = sim.failurePolicy();
            long next = JournalHistory.forEachTick(store, worldId, from, (tick, segment, policy, cutAfter) -> {
                compareSnapshots(store, worldId, blueprint, sim, ascending, nextSnapshot, snapshots);
                sim.onSystemFailure(JournalHistory.replayPolicy(policy, built));
                checker.next(tick, cutAfter);
                try {
                    sim.tick();
                } catch (SystemFailedException e) { // names the system, not the tick: the note says which, as open's
                    throw ReplayedTickFailure.attach(e, store, worldId, tick);
                }
                checker.ticked();
            });
            compareSnapshots(store, worldId, blueprint, sim, ascending, nextSnapshot, snapshots);
            if (!valid.isEmpty() && valid.get(0).tick() > next) { // newest first
                SnapshotInfo past = valid.get(0);
                throw new IOException("world '" + worldId + "': its journal ends at tick " + next + " but a snapshot of "
                        + "tick " + past.tick() + " (epoch " + past.epoch() + ") is stored, and a node stores a snapshot "
                        + "only after its ticks are journaled: ticks " + next + " to " + (past.tick() - 1) + " of the "
                        + "journal are lost; the store is damaged (restore the journal from a backup)");
            }
            return new Report(worldId, start == null ? -1 : start.tick(), next, next - from, checker.hashes,
                    checker.mismatches, checker.firstMismatch, checker.skipsMatched, checker.skipMismatches,
                    checker.firstSkipMismatch, snapshots[0], snapshots[1], checker.inputs,
                    checker.duplicates, sim.world().stateHash(), ResourcesLeftOut.of(sim));
        }
    }

    /** Compares each valid snapshot at the replay's current tick with the replayed state. */
    private static void compareSnapshots(WorldStore store, String worldId, WorldBlueprint blueprint, Simulation sim,
            List<SnapshotInfo> ascending, int[] next, int[] counts) throws IOException {
        long now = sim.currentTick();
        while (next[0] < ascending.size() && ascending.get(next[0]).tick() <= now) {
            SnapshotInfo s = ascending.get(next[0]++);
            if (s.tick() < now) {
                continue; // before where the replay started
            }
            long replayed = sim.world().stateHash();
            long stored = restoredHash(store, worldId, blueprint, s);
            counts[0]++;
            counts[1] += stored == replayed ? 0 : 1;
        }
    }

    /** The state hash of stored snapshot {@code s} of {@code worldId}, restored on a fresh simulation of {@code blueprint}. */
    static long restoredHash(WorldStore store, String worldId, WorldBlueprint blueprint, SnapshotInfo s)
            throws IOException {
        try (Simulation restored = blueprint.build(worldId, false)) {
            restored.restore(StoredSnapshot.read(store.readSnapshot(worldId, s), worldId).simulation());
            return restored.world().stateHash();
        }
    }

    /** Feeds journaled ticks (client payloads only) and counts hashes, skips, mismatches and duplicates. */
    private static final class Checker implements InputSource {
        private final String worldId;
        private final InputVisitor visitor;
        private final InputBatch batch = new InputBatch();
        private final JournaledInput input = new JournaledInput();
        private final Map<Long, Set<Long>> applied = new HashMap<>();
        private JournalTick current;
        private final SkipCheck skips = new SkipCheck();
        long hashes;
        long mismatches;
        long firstMismatch = -1;
        long inputs;
        long duplicates;
        long skipsMatched;
        long skipMismatches;
        String firstSkipMismatch;

        private byte[] payload = new byte[64];

        private byte[] scratch(int n) {
            if (payload.length < n) {
                payload = new byte[Math.max(n, payload.length * 2)];
            }
            return payload;
        }

        Checker(String worldId, InputVisitor visitor) {
            this.worldId = worldId;
            this.visitor = visitor;
        }

        /** The next tick to replay; {@code cutAfter} as {@link JournalHistory.TickVisitor} says. */
        void next(JournalTick tick, boolean cutAfter) {
            this.current = tick;
            skips.next(tick, cutAfter);
        }

        /** After the replay ran (or skipped) the current tick: a tick the journal notes skipped must be skipped. */
        void ticked() {
            String difference = skips.ticked();
            if (difference != null) {
                skipMismatch(current.tick(), difference);
            }
        }

        private void skipMismatch(long tick, String difference) {
            skipMismatches++;
            if (firstSkipMismatch == null) {
                firstSkipMismatch = "tick " + tick + ": " + difference;
            }
        }

        @Override
        public boolean wantsHash(long tick) {
            return current.hasHash(); // every journaled hash checked, whatever the blueprint's hashEvery
        }

        @Override
        public void tickSkipped(long tick, SystemFailedException failure, List<String> systems) {
            String difference = skips.skipped(failure, systems);
            if (difference != null) {
                skipMismatch(tick, difference);
            } else if (skips.matched()) {
                skipsMatched++;
            }
        }

        @Override
        public InputBatch beginTick(long tick) {
            batch.reset(tick);
            InputBatch journaled = current.inputs();
            for (int i = 0; i < journaled.size(); i++) {
                input.read(journaled, i, worldId);
                batch.add(input.client, input.type, input.buffer(), JournaledInput.HEADER, input.length);
                inputs++;
                if (!applied.computeIfAbsent(input.clientId, c -> new HashSet<>()).add(input.sequence)) {
                    duplicates++;
                }
                System.arraycopy(input.buffer(), JournaledInput.HEADER, scratch(input.length), 0, input.length);
                visitor.input(tick, i, input.clientId, input.sequence, input.type, payload, input.length);
            }
            return batch;
        }

        @Override
        public void recordHash(long tick, long stateHash) {
            if (current.hasHash()) {
                hashes++;
                if (current.stateHash() != stateHash) {
                    mismatches++;
                    if (firstMismatch < 0) {
                        firstMismatch = tick;
                    }
                }
            }
        }
    }

    private WorldVerifier() {
    }
}
