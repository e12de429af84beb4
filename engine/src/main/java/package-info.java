/*
 * The source root of the orrery-engine module (the unnamed package holds no types: Java
 * allows no package declaration here, so this is a plain comment; module-info.java beside it
 * carries the Javadoc and the export list).
 *
 * What it holds: the simulation around a schedule. engine.tick is the tick loop
 * (Simulation, SimulationBuilder, failure policy, watchdog); engine.input is the input ring
 * (LMAX Disruptor); engine.journal and engine.replay record and replay runs; engine.resource
 * serializes the scheduler's Resources into snapshots; engine.random is the counter-based
 * random source; engine.jfr and engine.trace report ticks and jobs.
 *
 * Neighbours: it depends on orrery-scheduler (and through it orrery-ecs) and the Disruptor;
 * the demo and the benchmarks build on it.
 */
