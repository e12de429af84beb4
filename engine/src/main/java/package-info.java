/*
 * The source root of the orrery-engine module. The unnamed package holds no types (Java allows no
 * package declaration here, so this is a plain comment, and the build leaves it out of
 * compilation); module-info.java beside it carries the Javadoc and the export list.
 *
 * What it holds: the simulation around a schedule. dev.orrery.engine is the facade
 * (Simulation and SimulationBuilder, resources and codecs, the input pipeline, RunRecorder and
 * RunReplayer, counter-based randomness, ChromeTrace, the watchdog); dev.orrery.engine.host
 * ticks many simulations on one pool. engine.journal, engine.jfr and engine.internal are
 * exported only to the modules (and jdk.jfr) that read them; engine.tick (the pacing loop's
 * IdleStrategy) is exported to no module, since only the engine itself (and the benchmarks, on
 * the class path) use it.
 *
 * Neighbours: it depends on orrery-scheduler (and through it orrery-ecs) and the LMAX
 * Disruptor; the explorer, the test kit, the cluster, the demo and the benchmarks build on it.
 */
