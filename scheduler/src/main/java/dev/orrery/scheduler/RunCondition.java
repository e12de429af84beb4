package dev.orrery.scheduler;

import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.function.Predicate;

/**
 * A test over resources that decides whether a system or a phase runs this time:
 * {@code .runIf(condition)} on a system, {@code Schedule.Builder.runIf(phase, condition)} on a
 * phase. The resources it reads are declared reads of the system it guards, so the graph
 * orders every writer of them before it, and the result is the same on any worker count.
 *
 * <pre>{@code
 * RunCondition raining = RunCondition.resource(WEATHER, w -> w.rain() > 0).describedAs("raining");
 * Schedule.builder(world)
 *     .system("puddles").runIf(raining.and(RunCondition.inState(GAME, Mode.PLAYING))).query(ground).writes(wet)
 *     .forEachChunk(job -> {
 *         float[] level = job.chunk().writeFloats(wetLevel);
 *         for (int i = 0; i < job.chunk().size(); i++) level[i] += 0.1f;
 *     })
 * }</pre>
 *
 * A system's condition is tested on the executor's owner thread as the system would start
 * (after every system it waits for, before its jobs, after its sync point if it has one);
 * a phase's as the phase would start. A skipped system's jobs do not run; its sync point,
 * if the graph placed one before it, is still applied, so what later systems see does not
 * depend on the condition.
 *
 * <p><b>Threading:</b> immutable. The test runs on the executor's owner thread; it must
 * only read the resources it names, and must not keep state between calls. A test that
 * iterates a query or reads or writes an entity by id is refused (other systems' jobs may run
 * meanwhile): count or look in a system that writes a resource, and test that resource.
 */
public final class RunCondition {
    private final String description;
    private final List<ResourceKey<?>> reads;
    private final List<ResourceKey<?>> states;
    private final Predicate<Resources> test;

    private RunCondition(String description, List<ResourceKey<?>> reads, List<ResourceKey<?>> states,
            Predicate<Resources> test) {
        this.description = Objects.requireNonNull(description, "description");
        this.reads = List.copyOf(reads);
        this.states = List.copyOf(states);
        this.test = Objects.requireNonNull(test, "test");
    }

    /**
     * Holds when {@code test} holds for the value under {@code key}.
     *
     * @param <T> the resource's type
     * @param key the resource tested, which becomes a declared read; it must hold a value when the
     *     test runs (an {@code IllegalStateException} naming the key otherwise)
     * @param test given the value under {@code key}, never null; not null
     * @return the condition, described as {@code "test of " + key.name()} until
     *     {@link #describedAs}
     * @throws NullPointerException if {@code test} is null
     */
    public static <T> RunCondition resource(ResourceKey<T> key, Predicate<? super T> test) {
        Objects.requireNonNull(test, "test");
        return new RunCondition("test of " + key.name(), List.of(key), List.of(), r -> test.test(r.value(key)));
    }

    /**
     * A condition over several resources: {@code test} gets the store and reads only
     * {@code reads}, which become declared reads of the guarded system.
     *
     * @param description what the graph output shows for it, not null
     * @param test given the resource store; not null
     * @param reads every resource the test reads (none is allowed)
     * @return the condition
     * @throws NullPointerException if {@code description}, {@code test} or one of {@code reads} is
     *     null
     */
    public static RunCondition of(String description, Predicate<Resources> test, ResourceKey<?>... reads) {
        return new RunCondition(description, List.of(reads), List.of(), test);
    }

    /**
     * Holds while the state machine under {@code key} is in {@code value} (see
     * {@link States}); naming it here also makes the schedule apply the machine's requested
     * transitions.
     *
     * @param <S> the state enum
     * @param key the state machine's resource key
     * @param value the state in which the condition holds, not null
     * @return the condition, described as {@code key.name() + " == " + value}
     * @throws NullPointerException if {@code value} is null
     */
    public static <S extends Enum<S>> RunCondition inState(ResourceKey<States<S>> key, S value) {
        Objects.requireNonNull(value, "state value");
        return new RunCondition(key.name() + " == " + value, List.of(key), List.of(key),
                r -> r.value(key).current() == value);
    }

    /**
     * The same test, shown in graph output as {@code description}.
     *
     * @param description what the graph output shows instead, not null
     * @return a new condition; this one is unchanged
     */
    public RunCondition describedAs(String description) {
        return new RunCondition(description, reads, states, test);
    }

    /**
     * Holds when both hold; {@code other} is not tested when this one fails.
     *
     * @param other the second condition, not null
     * @return a new condition reading the resources of both
     */
    public RunCondition and(RunCondition other) {
        return new RunCondition("(" + description + " and " + other.description + ")", union(reads, other.reads),
                union(states, other.states), r -> test.test(r) && other.test.test(r));
    }

    /**
     * Holds when either holds; {@code other} is not tested when this one holds.
     *
     * @param other the second condition, not null
     * @return a new condition reading the resources of both
     */
    public RunCondition or(RunCondition other) {
        return new RunCondition("(" + description + " or " + other.description + ")", union(reads, other.reads),
                union(states, other.states), r -> test.test(r) || other.test.test(r));
    }

    /**
     * Holds when this one fails.
     *
     * @return a new condition reading the same resources
     */
    public RunCondition negate() {
        return new RunCondition("not " + description, reads, states, r -> !test.test(r));
    }

    /**
     * Tests the condition against {@code resources}.
     *
     * @param resources the store holding every resource in {@link #reads()}
     * @return true when the system or phase should run
     */
    public boolean test(Resources resources) {
        return test.test(resources);
    }

    /**
     * The resources the test reads.
     *
     * @return an unmodifiable list, without duplicates
     */
    public List<ResourceKey<?>> reads() {
        return reads;
    }

    /**
     * The state machines named by {@link #inState} parts.
     *
     * @return an unmodifiable list, empty when no {@code inState} part is in the condition
     */
    public List<ResourceKey<?>> stateKeys() {
        return states;
    }

    /** What the graph prints. */
    @Override
    public String toString() {
        return description;
    }

    private static List<ResourceKey<?>> union(List<ResourceKey<?>> a, List<ResourceKey<?>> b) {
        List<ResourceKey<?>> out = new ArrayList<>(a);
        for (ResourceKey<?> k : b) {
            if (!out.contains(k)) {
                out.add(k);
            }
        }
        return out;
    }
}
