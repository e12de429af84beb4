package dev.orrery.testkit;

import dev.orrery.ecs.SnapshotException;
import dev.orrery.ecs.World;
import dev.orrery.ecs.component.Component;
import dev.orrery.engine.InputPipeline;
import dev.orrery.engine.ReplayDivergenceException;
import dev.orrery.engine.RunRecorder;
import dev.orrery.engine.RunReplayer;
import dev.orrery.engine.Simulation;
import dev.orrery.engine.internal.EngineInternals;
import dev.orrery.scheduler.executor.SystemHook;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

/**
 * A committed recording of a game's run that a test replays to prove its behaviour has not
 * changed: the files {@link RunRecorder} writes (the start snapshot, every tick's inputs and
 * state hash, per-component hashes), the world's hash after each system and after each sync
 * point of every tick ({@code systems.hashes}) and the snapshot of the last tick
 * ({@code end.snapshot}).
 *
 * <pre>{@code
 * // once, to make it (then commit the folder):
 * GoldenRecording.record((w, p) -> MyGame.build(w, p), MyGame.SCRIPT, 600, Path.of("src/test/resources/golden"));
 * // in a test:
 * GoldenRecording.assertReplays(Path.of("src/test/resources/golden"), (w, p) -> MyGame.build(w, p));
 * }</pre>
 *
 * <p>When the game now behaves otherwise, {@link #assertReplays} throws a
 * {@link DeterminismFailure} naming the first tick that differs, the first system after which
 * (or after whose commands) the world differs from the recorded one, the components whose
 * values differ at that tick, and the entities and fields (both values) and the resources with
 * a codec that differ at the end of the recording (the hashes after each system cover the world
 * only, so for a resource that differs the report says the system named may be a later one than
 * the writer). A
 * recording stays valid while the game's components (their order and fields), the seed, the
 * systems' names and the systems' behaviour stay the same; change any on purpose and record it
 * again.
 *
 * <p>It records and replays on 1 worker with jobs in forward order, so a result built in the
 * order jobs ran replays the same and passes; {@link DeterminismCheck}'s run with jobs in
 * reverse order is the one that catches it.
 *
 * <p><b>Threading:</b> both methods build and tick on the calling thread.
 */
public final class GoldenRecording {
    /** The snapshot of the last recorded tick, beside the recording's own files. */
    static final String END = "end.snapshot";

    private GoldenRecording() {
    }

    /**
     * The factory for {@code method}, every call refused as {@link FactoryCall#checked} refuses it
     * when the factory returned null, ignored the 1 worker it was asked for (the recording hashes
     * the world after each system, which only a run on 1 worker has; {@code what}: "recorded") or
     * returned a world again: the recording or replay and, for a replay, its diagnosis's re-run and
     * end snapshot.
     */
    private static SimulationFactory oneWorker(SimulationFactory factory, String method, String what) {
        return FactoryCall.checked(factory, "GoldenRecording." + method, workers -> "it cannot be " + what + " (a "
                + "golden recording is recorded and replayed on 1 worker, hashing the world after each system)",
                built -> "record a run on more workers with RunRecorder and compare it with CompareRecordings");
    }

    /**
     * Records {@code ticks} ticks of a new simulation on 1 worker, fed by {@code inputs}, into
     * {@code dir} (created if missing).
     *
     * @param factory builds the game; called for 1 worker
     * @param inputs the inputs each tick receives ({@link InputScript#NONE} for none)
     * @param ticks the ticks to record, from tick 0
     * @param dir the recording's folder, without a recording in it yet; created if missing
     * @throws UncheckedIOException when {@code dir} already holds a recording, its cause the
     *     {@link java.nio.file.FileAlreadyExistsException} naming the journal there, as
     *     {@link RunRecorder#start(Simulation, Path, InputPipeline.Builder)} refuses such a
     *     folder (nothing is written then), or when the folder cannot be written
     * @throws IllegalStateException when the factory returned null or, asked for 1 worker,
     *     built its simulation on more (as {@link DeterminismCheck} refuses it), when the game
     *     journals no state hash (built with {@code hashEvery(0)}: the replay would check
     *     nothing; the files written are deleted), or when the kit is on the class path and the
     *     engine on the module path, naming the fix
     */
    public static void record(SimulationFactory factory, InputScript inputs, long ticks, Path dir) {
        KitModule.check("GoldenRecording.record");
        Path journal = dir.resolve(RunRecorder.JOURNAL);
        if (Files.exists(journal)) { // refused as RunRecorder.start refuses it, wrapped as every file failure here
            FileAlreadyExistsException there = new FileAlreadyExistsException(journal.toString(), null,
                    "golden recording folder " + dir + " already holds a recording; delete the folder to record it "
                    + "again");
            throw new UncheckedIOException(there.getMessage(), there);
        }
        try {
            Files.createDirectories(dir);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot create " + dir + ": " + e.getMessage(), e);
        }
        try (Simulation sim = oneWorker(factory, "record", "recorded").create(1, true);
             SystemHashes.Writer perSystem = new SystemHashes.Writer(dir, sim.schedule().systemNames(),
                     names(sim.world().columns()));
             RunRecorder rec = RunRecorder.start(sim, dir, ScriptPipelines.forScript(inputs, ticks))) {
            EngineInternals.afterEachSystem(sim, new SystemHook() {
                @Override
                public void after(int position, String system, boolean ran, World world) {
                    perSystem.system(position, world.stateHash());
                }

                @Override
                public void afterSyncPoint(int[] recordedBy, int count, World world) {
                    perSystem.syncPoint(recordedBy, count, world.stateHash());
                }
            });
            for (long t = 0; t < ticks; t++) {
                long tick = t;
                inputs.inputs(tick, (client, type, payload) -> ScriptPipelines.publish(rec.inputs(), tick, client, type,
                        payload));
                sim.tick();
                perSystem.endTick(tick);
            }
            Files.write(dir.resolve(END), sim.snapshot());
        } catch (IOException e) {
            throw new UncheckedIOException("recording into " + dir + " failed: " + e.getMessage(), e);
        }
        refuseUnhashed(dir, ticks);
    }

    /**
     * Throws, once the recording in {@code dir} is written, when its {@code ticks} ticks hold no
     * state hash (RunRecorder logs the components' hashes with each one, so an empty log means
     * none): a game built with {@code hashEvery(0)} journals none, and a replay would check
     * nothing. The files written are deleted first, so the fixed game can record there.
     */
    private static void refuseUnhashed(Path dir, long ticks) {
        try {
            if (ticks < 1 || Files.size(dir.resolve(RunRecorder.COLUMNS)) > 0) {
                return;
            }
            for (String f : List.of(RunRecorder.SNAPSHOT, RunRecorder.JOURNAL, RunRecorder.COLUMNS, SystemHashes.FILE,
                    END)) {
                Files.deleteIfExists(dir.resolve(f));
            }
        } catch (IOException e) {
            throw new UncheckedIOException("recording into " + dir + " failed: " + e.getMessage(), e);
        }
        throw new IllegalStateException("GoldenRecording.record: the game journaled no state hash in " + ticks
                + (ticks == 1 ? " tick" : " ticks") + " (its simulation is built with hashEvery(0)), so a replay of "
                + "the recording would check nothing; build it with hashEvery(1), the default, in the factory given "
                + "to the kit. Nothing was recorded in " + dir);
    }

    /**
     * Replays the recording in {@code dir} into a new simulation on 1 worker and checks every
     * recorded hash.
     *
     * @param dir a folder {@link #record} wrote
     * @param factory builds the game as it is now; called for 1 worker
     * @throws DeterminismFailure naming the first tick, the system and the components that
     *     differ, and the entities and fields that differ at the end, when the game now
     *     behaves otherwise; or, at tick 0 with no system, when the game is now built so that
     *     the recording's snapshot cannot be restored into it (a system renamed, added or
     *     removed, other resources or components), with the engine's refusal as its cause
     * @throws UncheckedIOException when the recording cannot be read
     * @throws IllegalStateException when the factory returned null, a world it returned before
     *     or, asked for 1 worker, a simulation on more (as {@link DeterminismCheck} refuses it),
     *     for the replay or for the diagnosis of a replay that diverged, or when the kit is on the
     *     class path and the engine on the module path, naming the fix
     */
    public static void assertReplays(Path dir, SimulationFactory factory) {
        KitModule.check("GoldenRecording.assertReplays");
        SimulationFactory game = oneWorker(factory, "assertReplays", "replayed");
        try (Simulation sim = game.create(1, false)) {
            RunReplayer.replay(dir, sim);
        } catch (ReplayDivergenceException e) {
            throw explain(dir, game, e);
        } catch (SnapshotException e) {
            // the game is built otherwise now (systems, resources, components), or the snapshot is damaged
            throw new DeterminismFailure("determinism check failed: the golden recording " + dir.getFileName()
                    + " cannot be replayed, its snapshot is refused: " + e.getMessage() + "\n  if the game changed "
                    + "on purpose, delete the folder " + dir + ", record it again with GoldenRecording.record and "
                    + "commit it",
                    "the golden recording " + dir.getFileName(), 0, null, List.of(), e);
        } catch (IOException e) {
            throw new UncheckedIOException("replaying " + dir + " failed: " + e.getMessage(), e);
        }
    }

    /** The failure of a replay that diverged; {@code factory} is the checked one the replay used. */
    private static DeterminismFailure explain(Path dir, SimulationFactory factory, ReplayDivergenceException e) {
        String name = "the golden recording " + dir.getFileName();
        long t = e.tick();
        StringBuilder m = new StringBuilder("determinism check failed: ").append(name)
                .append(" replays differently from tick ").append(t);
        if (e.recordedHash() != e.replayedHash()) {
            m.append(String.format(": state hash 0x%016x where the recording has 0x%016x", e.replayedHash(),
                    e.recordedHash()));
            if (e.detail() != null) {
                m.append("; ").append(e.detail());
            }
        } else {
            m.append(": ").append(e.getMessage());
        }
        String system = null;
        List<Difference> diffs = List.of();
        try {
            SystemHashes recorded = SystemHashes.readIfPresent(dir);
            long end = JournalInputs.lastTick(dir.resolve(RunRecorder.JOURNAL));
            try (SystemTrail.Rerun rerun = SystemTrail.rerun(factory, dir)) {
                Simulation now = rerun.simulation();
                String[] culprit = new String[1];
                List<String> applied = new ArrayList<>();
                boolean named = false;
                while (now.currentTick() <= end) {
                    long tick = now.currentTick();
                    List<SystemTrail.Point> points = rerun.tick();
                    long[] was = recorded == null ? null : recorded.ticks.get(tick);
                    if (!named && was != null && tick <= t) {
                        List<SystemTrail.Point> held = recorded.points == null ? null : recorded.points.get(tick);
                        String found = held != null
                                ? SystemTrail.between(held, points, tick, rerun.exclusive(), culprit)
                                : SystemTrail.againstRecorded(points, was, tick, tick == t, applied, rerun.pending(),
                                        rerun.exclusive(), culprit);
                        if (found != null) {
                            named = true;
                            system = culprit[0];
                            m.append("\n  ").append(found).append(held != null ? " (the world hashed after each system "
                                    + "and after each sync point, against the hashes recorded)" : " (the world hashed "
                                    + "after each system, against the hashes recorded)");
                        }
                    }
                }
                Path endFile = dir.resolve(END);
                if (Files.isRegularFile(endFile)) {
                    try (Simulation then = factory.create(1, false)) {
                        then.restore(Files.readAllBytes(endFile));
                        Set<String> components = new LinkedHashSet<>();
                        diffs = WorldDiff.between(then.world(), now.world(), 10, components);
                        m.append("\n  differences at the end of the recording, tick ").append(end)
                                .append(" (the reference is the recording; the first 10 at most):");
                        for (Difference x : diffs) {
                            m.append("\n    ").append(x);
                        }
                        resources(m, ResourceState.differences(then, now), named);
                    }
                }
            }
            if (recorded == null) {
                m.append("\n  the recording has no ").append(SystemHashes.FILE).append(": record it with "
                        + "GoldenRecording.record to have the system named");
            }
        } catch (IOException | RuntimeException diagnosis) {
            if (diagnosis instanceof RuntimeException r) {
                FactoryRefusedException.rethrowIfRefusal(r); // refused as the replay itself refuses it
            }
            m.append("\n  (the diagnostic replay failed: ").append(diagnosis).append(')');
        }
        m.append("\n  if the change is meant, delete the folder ").append(dir).append(", record it again with "
                + "GoldenRecording.record and commit it");
        return new DeterminismFailure(m.toString(), name, t, system, diffs, e);
    }

    /**
     * The resources with a codec that differ at the end of the recording, each as a line of
     * {@code m}, and, where a system was named ({@code named}), why it may not be the one that
     * wrote them: the recorded hashes after each system cover the world only.
     */
    private static void resources(StringBuilder m, List<String> resources, boolean named) {
        if (resources.isEmpty()) {
            return;
        }
        m.append("\n  resources that differ at the end of the recording (the reference is the recording):");
        for (String r : resources) {
            m.append("\n    ").append(r);
        }
        if (named) {
            m.append("\n  ").append(ResourceState.WORLD_ONLY_HASHES).append("; look at the systems that write the "
                    + "resources above");
        }
    }

    static List<String> names(List<Component<?>> columns) {
        List<String> out = new ArrayList<>(columns.size());
        for (Component<?> c : columns) {
            out.add(c.toString());
        }
        return out;
    }
}
