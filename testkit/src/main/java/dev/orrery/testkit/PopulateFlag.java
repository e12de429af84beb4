package dev.orrery.testkit;

/**
 * The check's rule for {@code SimulationFactory.create(workers, false)}: the world it returns
 * must never have held an entity, since snapshots are restored and recordings replayed into
 * it. Words the error naming the factory's flag.
 *
 * <p><b>Threading:</b> stateless.
 */
final class PopulateFlag {
    private PopulateFlag() {
    }

    /** The error for a factory whose world, asked for with populate false on {@code workers}, {@code what}. */
    static FactoryRefusedException ignored(int workers, String what, Throwable cause) {
        return new FactoryRefusedException("SimulationFactory.create(" + workers + ", false) returned a simulation whose "
                + "world " + what + "; with populate false the factory must spawn nothing (register the components "
                + "and prepare the shapes only), because the check restores snapshots and replays recordings into "
                + "that world", cause);
    }
}
