package dev.orrery.ecs;


/**
 * Thrown when observer hooks, round after round, try to record more commands than one
 * cascade may ({@link World#observerCascadeLimit(int)}, default 1 000 000, spawns included):
 * a cascade is bounded by its work, so a hook that spawns a thousand entities per event is
 * refused after a million commands, long before memory runs out, however few its rounds. The
 * command past the limit is refused before it is stored. A loop that records little per round
 * (an add a hook removes and another adds back) is refused after 10 000 rounds. The message names the chain (the
 * first event of each round: hook kind, component, entity; the first eight rounds and the
 * last), the commands and spawns recorded, and the fix. The changes applied by the earlier
 * rounds stay; the commands recorded in the refused round are dropped, so the world is
 * consistent. Under a scheduler it fails the sync point's run like a failing system
 * ({@code SystemFailedException}), which a simulation's skip-tick policy absorbs.
 */
public final class ObserverCascadeException extends RuntimeException {
    private static final long serialVersionUID = 1L;

    /**
     * A cascade error with its message.
     *
     * @param message the chain, the commands recorded and the fix
     */
    public ObserverCascadeException(String message) {
        super(message);
    }
}
