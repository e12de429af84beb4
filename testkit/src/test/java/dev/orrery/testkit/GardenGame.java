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

    /**
     * The garden whose 'mistake' system spawns a Seed with a value from a static counter, as a
     * class the command line can load by name: each run's commands differ.
     */
    public static final class CounterSpawn implements SimulationFactory {
        /** Needed by {@code CompareRecordings --game}. */
        public CounterSpawn() {
        }

        @Override
        public Simulation create(int workers, boolean populate) {
            return Garden.build(workers, populate, Garden.Mistake.STATIC_COUNTER_SPAWN);
        }
    }

    /** As {@link CounterSpawn}, with the spawn applied at a sync point before the system 'season'. */
    public static final class CounterSpawnMidTick implements SimulationFactory {
        /** Needed by {@code CompareRecordings --game}. */
        public CounterSpawnMidTick() {
        }

        @Override
        public Simulation create(int workers, boolean populate) {
            return Garden.build(workers, populate, Garden.Mistake.STATIC_COUNTER_SPAWN_MID_TICK);
        }
    }
}
