/**
 * What decides whether, and how often, systems run: {@link dev.orrery.scheduler.RunCondition}
 * ({@code runIf} on a system or a phase, a test over declared resources),
 * {@link dev.orrery.scheduler.FixedTimestep} (the accumulator of a phase that runs once
 * per whole fixed step, fed by the simulation's step), {@link dev.orrery.scheduler.States}
 * (an enum state machine whose requested transitions run on-exit and on-enter systems at the
 * next run boundary) and {@link dev.orrery.scheduler.flow.PhaseRule} (a phase's rule, as the
 * graph prints it). All are decided on the executor's owner thread from resources, so a
 * schedule's run is the same on any worker count.
 */
package dev.orrery.scheduler.flow;

import dev.orrery.scheduler.FixedTimestep;
import dev.orrery.scheduler.RunCondition;
import dev.orrery.scheduler.States;
