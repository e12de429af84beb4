/**
 * The scheduler: system declarations (name, query, reads, writes, order), the dependency
 * graph built from them, and the executor that runs systems as chunk-parallel jobs on
 * long-lived worker threads. It knows nothing of ticks; the engine drives it.
 */
package dev.orrery.scheduler;
