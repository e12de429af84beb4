package dev.orrery.testkit;

import dev.orrery.engine.Simulation;

/** The garden without mistakes as a class the command line can load by name ({@code --game}). */
public final class GardenGame implements SimulationFactory {
    /** Needed by {@code CompareRecordings --game}. */
    public GardenGame() {
    }

    @Override
    public Simulation create(int workers, boolean populate) {
        return Garden.build(workers, populate, Garden.Mistake.NONE);
    }
}
