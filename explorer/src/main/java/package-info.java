/*
 * The source root of the orrery-explorer module (the unnamed package holds no types: Java
 * allows no package declaration here, so this is a plain comment; module-info.java beside it
 * carries the Javadoc and the export list).
 *
 * What it holds: dev.orrery.explorer, the live explorer. Explorer, ExplorerOptions, EditSink,
 * MapSource and MapPoints are its facade; the HTTP routes, the safe-point request queue, the
 * tick-figure ring and the JSON views are package-private there. The page (HTML, script,
 * style) is under src/main/resources/dev/orrery/explorer/web; uPlot and viz.js come from
 * their WebJars and are served from the class path.
 *
 * Neighbours: it depends on orrery-engine (and through it the scheduler and the ecs) and the
 * JDK's jdk.httpserver; the engine knows nothing of it. The demo attaches it with --explore.
 */
