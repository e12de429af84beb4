/**
 * Events between systems: typed channels ({@link dev.orrery.scheduler.EventKey}) that
 * jobs send to ({@code job.send(key, event)}, into a per-worker buffer, no lock) and later
 * systems read ({@code job.events(key)}, an {@link dev.orrery.scheduler.EventReader}).
 * Writers declare {@code .writesEvents(key)} and readers {@code .readsEvents(key)}; the graph
 * orders writers before later readers of the same phase, and an undeclared send or read
 * throws {@link dev.orrery.scheduler.UndeclaredEventAccessException}. The events live in
 * an {@link dev.orrery.scheduler.event.EventChannel}, a resource of the schedule's store,
 * merged by the commands' sort key (system, chunk, sequence) so their order is the same on
 * any worker count; they are readable during the run they are merged in and the next one,
 * and a reader that did not run for longer is told by {@code EventReader.missed()}.
 */
package dev.orrery.scheduler.event;

import dev.orrery.scheduler.EventKey;
import dev.orrery.scheduler.EventReader;
import dev.orrery.scheduler.UndeclaredEventAccessException;
