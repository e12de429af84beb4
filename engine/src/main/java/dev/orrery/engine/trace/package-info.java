/**
 * Observability: Chrome traces of ticks and jobs. The JFR tick event lives beside the tick
 * loop ({@code dev.orrery.engine.tick.TickEvent}).
 */
package dev.orrery.engine.trace;
