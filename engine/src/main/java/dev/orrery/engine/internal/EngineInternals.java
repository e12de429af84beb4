package dev.orrery.engine.internal;

import dev.orrery.ecs.Relation;
import dev.orrery.ecs.SnapshotException;
import dev.orrery.ecs.SnapshotInput;
import dev.orrery.ecs.World;
import dev.orrery.ecs.WorldSnapshot;
import dev.orrery.ecs.archetype.Archetypes;
import dev.orrery.ecs.component.Component;
import dev.orrery.ecs.internal.EcsInternals;
import dev.orrery.ecs.internal.FacadeLookup;
import dev.orrery.engine.ReplayDivergenceException;
import dev.orrery.engine.Simulation;
import dev.orrery.scheduler.ResourceKey;
import dev.orrery.scheduler.ScheduleExecutor;
import dev.orrery.scheduler.access.SystemAccess;
import dev.orrery.scheduler.executor.PlannedExecutor;
import dev.orrery.scheduler.executor.SystemHook;
import dev.orrery.scheduler.graph.SystemGraph;
import dev.orrery.scheduler.internal.SchedulerInternals;
import java.io.IOException;
import java.lang.invoke.MethodHandle;
import java.lang.invoke.MethodHandles;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;

/**
 * The door from Orrery's test kit into what the engine's facade keeps package-private: a
 * simulation's executor, for the kit's diagnostic mode that hashes the world after each
 * system, and whether a world ever held an entity (a snapshot or recording goes only into a
 * world that never did) and the ids its next spawns get (which the kit names when two worlds
 * freed ids in another order) and every archetype, empty ones too (which it names when one
 * world made and emptied one the other has not), the number a relation's next pair gets
 * (for the pairs made and removed), the resources a snapshot carries by name (for two
 * recordings' ends), the resources a snapshot leaves out though systems write them,
 * whose commands each sync point a run passes may apply ({@link #pendingCommands}), and the mark
 * a {@code WorldHost} (in this module) puts on the simulations it holds (and its close of the
 * failed ones no thread took back). Exported
 * only to {@code dev.orrery.testkit}, and to {@code dev.orrery.cluster} for the resources a
 * snapshot leaves out though systems write them (which a node names when a world moves, by
 * the same rule as the kit's restored run: {@link #resourcesWritableWithoutCodec}) and for the
 * engine's {@link ReplayDivergenceException} when a node's replay of a world's journal
 * diverges ({@link #replayDivergence}, {@link #replaySkipDivergence}), and to
 * {@code dev.orrery.explorer} for whether a simulation is hosted or closed
 * ({@link #hostedWorld}, {@link #closed}), whether a run is in progress ({@link #running}) and
 * why the last one ended ({@link #stoppedBy}), which it names when no safe point comes to answer a
 * read at.
 *
 * <p><b>Threading:</b> call between ticks, on the simulation's tick thread, except where a
 * method says any thread.
 */
public final class EngineInternals {
    /** {@code Simulation}'s resources section (its layout: {@code ResourceSerializer}). */
    private static final String RESOURCES_SECTION = "orrery.resources";
    private static final FacadeLookup FACADE = FacadeLookup.into(Simulation.class, MethodHandles.lookup());
    private static final MethodHandle EXECUTOR = FACADE.method(Simulation.class, "executor", ScheduleExecutor.class);
    private static final MethodHandle HOSTED_AS = FACADE.method(Simulation.class, "hostedAs", void.class, String.class);
    private static final MethodHandle HOST_TURN = FACADE.method(Simulation.class, "hostTurn", void.class, Thread.class);
    private static final MethodHandle HOSTED_NOW = FACADE.method(Simulation.class, "hostedNow", String.class);
    private static final MethodHandle REQUIRE_TURN = FACADE.method(Simulation.class, "requireNotHosted", void.class,
            String.class);
    private static final MethodHandle CLOSED_NOW = FACADE.method(Simulation.class, "closedNow", boolean.class);
    private static final MethodHandle STOPPED_BY = FACADE.method(Simulation.class, "stoppedByNow", String.class);
    private static final MethodHandle RUNNING = FACADE.method(Simulation.class, "runningNow", boolean.class);
    private static final MethodHandle CLOSE_IF_STILL_ON = FACADE.method(Simulation.class, "closeIfStillOn",
            boolean.class, Thread.class);
    private static final MethodHandle DIVERGENCE = FACADE.constructor(ReplayDivergenceException.class, String.class,
            long.class, long.class, long.class);

    /** Rebuilt from the tick and the seed, so their leaving snapshots loses nothing. */
    private static final Set<ResourceKey<?>> BUILT_INS = Set.of(Simulation.CLOCK, Simulation.INPUTS, Simulation.RANDOM);

    private EngineInternals() {
    }

    /**
     * The resources of {@code sim} that a system declares it writes or reduces into
     * ({@code writesResource}, {@code reducesResource}) but that have no codec, so
     * {@code Simulation.snapshot()} leaves them out and a restored run gets them as the code
     * building it puts them: the name of each, in the order put, with the names of the systems
     * that write it, in schedule order. Empty when every written resource has a codec. A
     * resource rebuilt every tick (a spatial grid, a count reset each tick) is rightly left out;
     * one a system keeps state in across ticks makes a restored run diverge. Declared accesses
     * only: {@link #resourcesWritableWithoutCodec} adds what exclusive systems may write.
     */
    public static Map<String, List<String>> resourcesWrittenWithoutCodec(Simulation sim) {
        SystemGraph graph = SchedulerInternals.graph(sim.schedule());
        Map<String, List<String>> out = new LinkedHashMap<>();
        for (ResourceKey<?> key : sim.resources().keys()) {
            if (BUILT_INS.contains(key) || sim.resourceCodecs().of(key) != null) {
                continue;
            }
            List<String> writers = new ArrayList<>();
            for (int p = 0; p < graph.size(); p++) {
                SystemAccess access = graph.system(p).access();
                if (access.resourceWrites().contains(key) || access.resourceReductions().contains(key)) {
                    writers.add(graph.system(p).name());
                }
            }
            if (!writers.isEmpty()) {
                out.put(key.name(), List.copyOf(writers));
            }
        }
        return out;
    }

    /**
     * The resources of {@code sim} that a snapshot leaves out (no codec; the built-ins aside)
     * and that a system writes or may write, each name, in the order put, with why: the one
     * rule the cluster (a moved world's line, a replay's causes) and the test kit (a restored
     * run's likely cause) both name them by. A resource that systems declare they write or
     * reduce into is named with them, {@code written by 'index', 'regrid'}. An exclusive system
     * may write any resource whatever it declares (the scheduler lets its body write every one:
     * {@code SystemAccess.canWriteResource} is true for all), so in a simulation with one, every
     * other resource without a codec is named too, {@code exclusive system 'inputs' may write any
     * resource} ({@code exclusive systems 'a', 'b' ...} for several), and a written one names the
     * exclusive systems that are not among its declared writers after them,
     * {@code written by 'orders'; exclusive system 'census' may write any resource}: the one that
     * keeps the state may well be the exclusive one. Without one, read-only configuration is not
     * named: the code that builds the simulation puts it the same again.
     */
    public static Map<String, String> resourcesWritableWithoutCodec(Simulation sim) {
        Map<String, List<String>> declared = resourcesWrittenWithoutCodec(sim);
        List<String> exclusive = exclusiveSystems(sim);
        Map<String, String> out = new LinkedHashMap<>();
        for (ResourceKey<?> key : sim.resources().keys()) {
            if (BUILT_INS.contains(key) || sim.resourceCodecs().of(key) != null) {
                continue;
            }
            List<String> writers = declared.get(key.name());
            List<String> undeclared = new ArrayList<>(exclusive);
            if (writers != null) {
                undeclared.removeAll(writers);
                out.put(key.name(), "written by '" + String.join("', '", writers) + "'"
                        + (undeclared.isEmpty() ? "" : "; " + mayWriteAny(undeclared)));
            } else if (!undeclared.isEmpty()) {
                out.put(key.name(), mayWriteAny(undeclared));
            }
        }
        return out;
    }

    /** {@code exclusive system 'x' may write any resource}, or {@code exclusive systems 'a', 'b' ...}. */
    private static String mayWriteAny(List<String> exclusive) {
        return "exclusive system" + (exclusive.size() > 1 ? "s '" : " '") + String.join("', '", exclusive)
                + "' may write any resource";
    }

    /**
     * The names of {@code sim}'s exclusive systems, in schedule order: each gets the whole world
     * and may reach any resource, whatever it declares, so a resource no system declares it
     * writes may still be written by one of them.
     */
    public static List<String> exclusiveSystems(Simulation sim) {
        SystemGraph graph = SchedulerInternals.graph(sim.schedule());
        List<String> out = new ArrayList<>();
        for (int p = 0; p < graph.size(); p++) {
            if (graph.system(p).access().exclusive()) {
                out.add(graph.system(p).name());
            }
        }
        return List.copyOf(out);
    }

    /**
     * A follower of {@code sim}'s schedule that says, told each system as it runs, whose commands
     * the sync points since the system before may have applied, and whose the sync point at the
     * end of a tick may apply (see {@link PendingCommands}): the test kit reads it to know which
     * sync points a run that applied no commands there passed through, where another run may
     * have applied some.
     */
    public static PendingCommands pendingCommands(Simulation sim) {
        return PendingCommands.of(sim);
    }

    /**
     * Calls {@code hook} after each system of every tick from now on ({@code null}: stops).
     *
     * @throws UnsupportedOperationException when the simulation runs on more than one worker
     */
    public static void afterEachSystem(Simulation sim, SystemHook hook) {
        ScheduleExecutor executor;
        try {
            executor = (ScheduleExecutor) EXECUTOR.invokeExact(sim);
        } catch (Throwable t) {
            throw FacadeLookup.rethrow(t);
        }
        ((PlannedExecutor) executor).afterEachSystem(hook);
    }

    /**
     * For {@code WorldHost}: marks {@code sim} hosted as {@code world} (for example
     * {@code world 'match-3'}), so that a tick, snapshot, close or setter from a thread whose
     * turn it is not is refused naming the world and the fix; {@code null} when the world
     * leaves the host. Any thread.
     *
     * @throws IllegalStateException when another thread is inside {@code sim.tick()} now (nothing is marked)
     */
    public static void hostedAs(Simulation sim, String world) {
        try {
            HOSTED_AS.invokeExact(sim, world);
        } catch (Throwable t) {
            throw FacadeLookup.rethrow(t);
        }
    }

    /** For {@code WorldHost}: pool thread {@code turn} begins its turn with hosted {@code sim}, or (null) ended it. */
    public static void hostTurn(Simulation sim, Thread turn) {
        try {
            HOST_TURN.invokeExact(sim, turn);
        } catch (Throwable t) {
            throw FacadeLookup.rethrow(t);
        }
    }

    /**
     * For {@code WorldHost.close()}: hands {@code sim}, a failed world's simulation, to the
     * calling thread ({@code bindTickThread()}) and closes it, when its tick thread is still
     * {@code left}, the pool thread whose tick failed, which the caller has joined (so no
     * thread has taken it back); a simulation taken back, or closed already, is left as it is.
     * Atomic with a {@code bindTickThread()} on another thread meanwhile: that one either comes
     * first (the simulation stays open) or lands on the closed simulation.
     *
     * @param sim the failed world's simulation; not null
     * @param left the pool thread whose tick failed, ended
     * @return true when this call closed it
     * @throws RuntimeException what the input source's {@code bindTickThread} threw (the
     *     simulation closed all the same)
     */
    public static boolean closeIfStillOn(Simulation sim, Thread left) {
        try {
            return (boolean) CLOSE_IF_STILL_ON.invokeExact(sim, left);
        } catch (Throwable t) {
            throw FacadeLookup.rethrow(t);
        }
    }

    /**
     * For the explorer: the world {@code sim} is hosted as ({@code world 'name'}) while a
     * {@code WorldHost} holds it, or null (never hosted, or between two hosts). Any thread: a
     * volatile read, which may be stale by the time the caller uses it.
     *
     * @param sim the simulation; not null
     * @return the hosted world's description, or null
     */
    public static String hostedWorld(Simulation sim) {
        try {
            return (String) HOSTED_NOW.invokeExact(sim);
        } catch (Throwable t) {
            throw FacadeLookup.rethrow(t);
        }
    }

    /**
     * For the explorer: refuses {@code what} (a call of its own, {@code "Explorer.attach()"}) on
     * a thread other than the hosting pool thread's turn while a {@code WorldHost} holds
     * {@code sim}, in the host's own words, naming {@code what} and the fix; does nothing for a
     * simulation no host holds. Any thread.
     *
     * @param sim the simulation; not null
     * @param what the call, named in the refusal
     * @throws IllegalStateException when a host holds {@code sim} and it is not this thread's turn
     */
    public static void requireHostTurn(Simulation sim, String what) {
        try {
            REQUIRE_TURN.invokeExact(sim, what);
        } catch (Throwable t) {
            throw FacadeLookup.rethrow(t);
        }
    }

    /**
     * For the explorer: whether {@code sim} was closed (by its own thread, another, or the
     * {@code WorldHost} that held it); once true it stays true, so no tick runs on it again.
     * Any thread: a volatile read.
     *
     * @param sim the simulation; not null
     * @return true once {@code close()} was called
     */
    public static boolean closed(Simulation sim) {
        try {
            return (boolean) CLOSED_NOW.invokeExact(sim);
        } catch (Throwable t) {
            throw FacadeLookup.rethrow(t);
        }
    }

    /**
     * For the explorer: what stopped {@code sim}, from the failure that left {@code tick()} or
     * {@code run()} until the next tick begins: a system's under {@code FailurePolicy.STOP}
     * ({@code tick N failed under FailurePolicy.STOP: } and the failure's message, which names the
     * system), or, whatever the policy, a step outside the systems ({@code tick N did not run: }
     * and the input source's step, or {@code tick N ran its systems and counts ...} or
     * {@code tick N was skipped ...} and the listener, hook or input source's step that threw;
     * then the fix and what it threw), or a run's after-tick listener ({@code tick N ran in full
     * ...}); null when the last tick ended, none ran, or the next one has begun. The tick thread
     * writes it: sets it before the failure leaves {@code tick()} (or {@code run()}), and clears it
     * as the next tick begins, before that
     * tick asks its input source for inputs (which may block) or runs a system. Any thread reads it
     * (a volatile read): a reader that has seen anything the next tick did, through a
     * happens-before edge ({@code currentTick()} past the failed tick, a latch the input source or
     * a system counted down), reads null.
     *
     * @param sim the simulation; not null
     * @return the failed tick and its failure, or null
     */
    public static String stoppedBy(Simulation sim) {
        try {
            return (String) STOPPED_BY.invokeExact(sim);
        } catch (Throwable t) {
            throw FacadeLookup.rethrow(t);
        }
    }

    /**
     * For the explorer: whether a {@code Simulation.run()} is in progress on {@code sim} (from
     * its start until it returns: stopped, its ticks done, or a tick threw). False does not mean
     * that no tick can come: the tick thread may call {@code tick()} or {@code run()} at any
     * moment, so the explorer only names it when no safe point came, and never reads the world
     * on its strength. Any thread: a volatile read.
     *
     * @param sim the simulation; not null
     * @return true while a run is in progress
     */
    public static boolean running(Simulation sim) {
        try {
            return (boolean) RUNNING.invokeExact(sim);
        } catch (Throwable t) {
            throw FacadeLookup.rethrow(t);
        }
    }

    /**
     * For the cluster: the engine's {@link ReplayDivergenceException} for a world's replay whose
     * state hash after {@code tick} is {@code replayedHash} where the journal holds
     * {@code recordedHash}, so that a replay mismatch is one type whether a
     * {@code JournalInputSource} or a node finds it. {@code message} names the world, the
     * journal segment, the tick, both hashes, the causes and the fix. Any thread.
     */
    public static ReplayDivergenceException replayDivergence(String message, long tick, long recordedHash,
            long replayedHash) {
        try {
            return (ReplayDivergenceException) DIVERGENCE.invokeExact(message, tick, recordedHash, replayedHash);
        } catch (Throwable t) {
            throw FacadeLookup.rethrow(t);
        }
    }

    /**
     * For the cluster: the engine's {@link ReplayDivergenceException} for a world's replay that
     * skipped tick {@code tick} where the journal ran it, or ran it where the journal notes it
     * skipped ({@code FailurePolicy.SKIP_TICK}), as a {@code JournalInputSource} throws it;
     * its hashes are 0, as for the engine's own skip that differs. {@code message} names the
     * world, the journal segment, the tick, which side skipped it and for which system, the
     * causes and the fix. Any thread.
     */
    public static ReplayDivergenceException replaySkipDivergence(String message, long tick) {
        return replayDivergence(message, tick, 0, 0);
    }

    /**
     * True when {@code world} has ever held an entity, despawned ones included (their ids stay
     * used): such a world takes no snapshot restore and no replay.
     */
    public static boolean everHeldEntities(World world) {
        return EcsInternals.storage(world).entityTable().highWater() != 0;
    }

    /**
     * The ids the next {@code n} spawns in {@code world} would get if nothing is despawned in
     * between, in order: its free list in reuse order (each at its next generation), then new
     * indices. The kit names them when two worlds differ only in the order they freed ids.
     */
    public static long[] nextIds(World world, int n) {
        return EcsInternals.storage(world).entityTable().nextIds(n);
    }

    /**
     * For the explorer: the live entity at {@code index} in {@code world} now, or
     * {@code Entity.NULL} when the slot is free or was never used; so a stale id's answer can
     * name the entity that holds its slot now. The world's thread.
     */
    public static long liveIdAt(World world, int index) {
        return EcsInternals.storage(world).entityTable().idAt(index);
    }

    /**
     * The components of every archetype of {@code world}, in creation order (the order its state
     * hash walks them), empty ones too, each in its column order; with {@link #archetypeSizes},
     * the kit names an archetype made and emptied in one of two worlds, which the public chunk
     * walk skips.
     */
    public static List<List<Component<?>>> archetypeColumns(World world) {
        Archetypes all = EcsInternals.storage(world).archetypes();
        List<List<Component<?>>> out = new ArrayList<>(all.count());
        for (int i = 0; i < all.count(); i++) {
            out.add(all.get(i).components());
        }
        return out;
    }

    /** The entity count of every archetype of {@code world}, in creation order, as {@link #archetypeColumns}. */
    public static int[] archetypeSizes(World world) {
        Archetypes all = EcsInternals.storage(world).archetypes();
        int[] out = new int[all.count()];
        for (int i = 0; i < out.length; i++) {
            out[i] = all.get(i).size();
        }
        return out;
    }

    /**
     * The number the next pair of {@code r} in {@code world} will get (pairs are numbered from 1
     * as they are made, and the state hash covers the numbers): the kit counts the pairs made
     * and removed after the last one alive.
     */
    public static long nextPairNumber(World world, Relation r) {
        return EcsInternals.nextPairSeq(world.relations(), r);
    }

    /**
     * The resources a snapshot taken by {@code Simulation.snapshot()} carries, by name (sorted),
     * each as the bytes its codec wrote, read without a simulation and without the codecs: the
     * kit compares two recordings' end snapshots by name, whatever order each game put its
     * resources in. Any thread.
     *
     * @throws SnapshotException for a damaged snapshot, or one without the simulation's
     *     sections, naming the section, the offset and what was wrong
     */
    public static Map<String, byte[]> snapshotResources(byte[] snapshot) {
        byte[] section = new WorldSnapshot().readExtras(snapshot).get(RESOURCES_SECTION);
        if (section == null) {
            throw new SnapshotException("snapshot has no " + RESOURCES_SECTION + " section; it was written by "
                    + "WorldSnapshot, not Simulation.snapshot()");
        }
        SnapshotInput in = SnapshotInput.of(RESOURCES_SECTION, section);
        Map<String, byte[]> out = new TreeMap<>();
        try {
            int n = in.readCount("resource", 2 + 4, Integer.MAX_VALUE);
            for (int i = 0; i < n; i++) {
                int at = in.position();
                String name = in.readUTF();
                byte[] bytes = new byte[in.readCount("byte of resource " + SnapshotInput.quote(name), 1,
                        Integer.MAX_VALUE)];
                in.readFully(bytes);
                if (out.put(name, bytes) != null) {
                    throw in.corruptAt(at, "resource " + SnapshotInput.quote(name) + " is given twice");
                }
            }
            in.requireEnd();
        } catch (IOException e) {
            throw new SnapshotException(e.getMessage(), e); // the input's own: names the section and the offset
        }
        return out;
    }

    /** How many ids {@code world} has freed and not handed out again (the length of its free list). */
    public static int freeIds(World world) {
        return EcsInternals.storage(world).entityTable().freeCount();
    }
}
