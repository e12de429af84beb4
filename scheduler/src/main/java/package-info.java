/*
 * The source root of the orrery-scheduler module. The unnamed package holds no types (Java allows no
 * package declaration here, so this is a plain comment, and the build leaves it out of
 * compilation); module-info.java beside it carries the Javadoc and the export list.
 *
 * What it holds: systems over one ecs World and how they run. dev.orrery.scheduler is the
 * facade (Schedule and its builders, resource keys, jobs, events, states, fixed timesteps,
 * LongSum); the layers below (declared access, the system graph and its sync points, the
 * executors with adaptive batching and chunk pipelines, event and flow state, the checked mode,
 * the internal door) are exported only to the Orrery modules that use them, each package to its
 * users (module-info.java lists them); the checked mode (scheduler.check) to none.
 *
 * Neighbours: it depends on orrery-ecs (read transitively; its storage through the packages the
 * ecs exports to Orrery modules only) and JCTools; orrery-engine builds its tick loop on it.
 */
