/**
 * The graph maths of a schedule, kept apart from the executor that runs it: system
 * declarations (name, access, phase, explicit order), and the {@link
 * dev.orrery.scheduler.graph.SystemGraph} built from them. The graph fixes one linear
 * order (phases in order; inside a phase, registration order, with each system's explicit
 * before/after predecessors moved up to just before it) and adds an edge for every pair of systems whose accesses conflict,
 * from the earlier to the later one. Any run that respects the edges therefore gives the
 * same result as running the systems one by one in the linear order.
 */
package dev.orrery.scheduler.graph;
