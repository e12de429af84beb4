/*
 * The source root of the orrery-scheduler module (the unnamed package holds no types: Java
 * allows no package declaration here, so this is a plain comment; module-info.java beside it
 * carries the Javadoc and the export list).
 *
 * What it holds: systems over one ecs World and how they run. dev.orrery.scheduler is the
 * facade (Schedule and its builders); scheduler.access holds declared access and resource
 * keys; scheduler.graph orders systems into phases, edges and sync points (explicit and
 * automatic, from declared structural effects); scheduler.system is what users implement or
 * receive (ChunkSystem, RangeSystem, ExclusiveSystem, JobContext); scheduler.resource holds
 * resource values and per-worker LongSum reductions; scheduler.executor runs a plan on one
 * thread or on worker threads with adaptive job batching; scheduler.check (checked mode) is
 * exported only to the engine.
 *
 * Neighbours: it depends on orrery-ecs (reading its storage through the packages the ecs
 * exports to it only) and JCTools; orrery-engine builds its tick loop on it.
 */
