/**
 * The demo's command line (`Main`, picocli): runs the arena simulation, serves it over TCP,
 * drives it with the load client, records and replays. Its rooms are {@code demo.arena}
 * (the simulation), {@code demo.net} (the client protocol) and {@code demo.run} (the wiring).
 */
package dev.orrery.demo;
