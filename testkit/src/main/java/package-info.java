/*
 * The source root of the orrery-testkit module. The unnamed package holds no types (Java allows no
 * package declaration here, so this is a plain comment, and the build leaves it out of
 * compilation); module-info.java beside it carries the Javadoc and the export list.
 *
 * What it holds: dev.orrery.testkit, the determinism test kit for a user's own game
 * (DeterminismCheck, GoldenRecording, CompareRecordings, WorldDiff and their inputs).
 *
 * Neighbours: it depends on orrery-engine (and through it the scheduler and the ecs), reaching
 * the engine's internals, journal and the scheduler's executor only through the packages
 * exported to it; users take it in test scope beside JUnit 5, and the demo and the examples use
 * it in their own tests.
 */
