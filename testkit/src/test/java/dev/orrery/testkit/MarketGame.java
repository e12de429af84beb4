package dev.orrery.testkit;

import dev.orrery.engine.Simulation;

/** The market without mistakes as a class the command line can load by name ({@code --game}). */
public final class MarketGame implements SimulationFactory {
    /** Needed by {@code CompareRecordings --game}. */
    public MarketGame() {
    }

    @Override
    public Simulation create(int workers, boolean populate) {
        return Market.build(workers, populate, Market.Bug.NONE);
    }
}
