/**
 * The live explorer: {@link dev.orrery.explorer.Explorer#attach} serves a page, a JSON API and
 * a stream of per-tick figures over a running simulation, reading the world only at a safe
 * point on the tick thread; {@link dev.orrery.explorer.ExplorerOptions} says where and whether
 * edits are on ({@link dev.orrery.explorer.EditSink}) and whether a map is drawn
 * ({@link dev.orrery.explorer.MapSource}).
 */
package dev.orrery.explorer;
