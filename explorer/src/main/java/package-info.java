/*
 * The source root of the orrery-explorer module. The unnamed package holds no types (Java allows no
 * package declaration here, so this is a plain comment, and the build leaves it out of
 * compilation); module-info.java beside it carries the Javadoc and the export list.
 *
 * What it holds: dev.orrery.explorer, the live explorer. Explorer, ExplorerOptions, EditSink,
 * MapSource and MapPoints are its facade; the HTTP server (its own, on NIO channels), the routes,
 * the safe-point request queue, the tick figures, the JSON views and the timeline's replay are
 * package-private there. The page (HTML, script, style) is under
 * src/main/resources/dev/orrery/explorer/web; uPlot and viz.js come from their WebJars.
 *
 * Neighbours: it depends on orrery-engine (and through it the scheduler and the ecs, plus the
 * journal package the engine exports to it) and java.management; the engine knows
 * nothing of it. The demo attaches it with --explore.
 */
