/*
 * The source root of the orrery-testkit module (the unnamed package holds no types: Java
 * allows no package declaration here, so this is a plain comment; module-info.java beside it
 * carries the Javadoc and the export list).
 *
 * What it holds: dev.orrery.testkit, the determinism test kit for a user's own game
 * (DeterminismCheck, GoldenRecording, CompareRecordings, WorldDiff and their inputs).
 *
 * Neighbours: it depends on orrery-engine (and through it the scheduler and ecs), and reaches
 * the engine's executor only through dev.orrery.engine.internal; users take it in test scope,
 * and the demo and the examples use it in their own tests.
 */
