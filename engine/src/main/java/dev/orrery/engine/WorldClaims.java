package dev.orrery.engine;

import dev.orrery.ecs.World;
import java.lang.ref.WeakReference;
import java.util.Map;
import java.util.WeakHashMap;

/**
 * Which open simulation drives each world: a simulation claims its world as it is built and
 * gives it back when it is released after {@code close()}, so a second simulation built on a
 * world that an open one drives is refused (two would tick, snapshot and restore one world
 * with two schedules' change bookkeeping, two clocks and two input sources) while a world
 * whose simulation was closed may be driven by a new one.
 *
 * <p>The map holds its worlds and its simulations weakly: a simulation dropped without a
 * {@code close()} can never tick again, so once it is collected its world is free too, and
 * the map never keeps a world alive.
 *
 * <p><b>Threading:</b> any thread; every method synchronizes on the class. Called once per
 * build and once per close, never on the tick path.
 */
final class WorldClaims {
    private static final Map<World, Claim> OPEN = new WeakHashMap<>(); // World keeps identity equality

    /** The open simulation that holds a world, and the thread that built it (for the message). */
    private record Claim(WeakReference<Simulation> sim, String builtOn) {
    }

    private WorldClaims() {
    }

    /**
     * Claims {@code world} for {@code sim}, being built on the calling thread.
     *
     * @throws IllegalStateException when another open simulation drives {@code world}, naming
     *     the world and the fix
     */
    static synchronized void claim(World world, Simulation sim) {
        Claim held = OPEN.get(world);
        Simulation other = held == null ? null : held.sim().get();
        if (other != null && other != sim) {
            throw new IllegalStateException("Simulation.builder(world).build(): " + describe(world)
                    + " is driven already by another open Simulation (built on thread '" + held.builtOn()
                    + "', next tick " + other.currentTick() + "); two simulations on one world would tick, snapshot "
                    + "and restore it with two schedules' change bookkeeping, two clocks and two input sources. "
                    + "Either close the first (sim.close()) before building another on this world, or build each "
                    + "simulation on a world of its own (new World())");
        }
        OPEN.put(world, new Claim(new WeakReference<>(sim), Thread.currentThread().getName()));
    }

    /** Gives {@code world} back if {@code sim} holds it (a closed or failed build's simulation). */
    static synchronized void release(World world, Simulation sim) {
        Claim held = OPEN.get(world);
        if (held != null && held.sim().get() == sim) {
            OPEN.remove(world);
        }
    }

    /** How a message names {@code world}: it has no name of its own, so its identity. */
    static String describe(World world) {
        return "World@" + Integer.toHexString(System.identityHashCode(world));
    }
}
