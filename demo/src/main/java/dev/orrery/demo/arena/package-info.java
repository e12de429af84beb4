/**
 * The arena simulation built on the engine: its components, systems, spatial grid, the
 * byte form of client commands (`InputCodec`) and the allow-list of fields clients may
 * write (`ClientWrites`). It knows nothing of sockets; {@code demo.run} wires it to
 * {@code demo.net}.
 *
 * <p><b>Threading:</b> everything here runs on the simulation's tick thread or inside its
 * scheduled jobs, under the declared access of each system.
 */
package dev.orrery.demo.arena;
