package dev.orrery.scheduler.flow;

import dev.orrery.scheduler.FixedTimestep;
import dev.orrery.scheduler.ResourceKey;
import dev.orrery.scheduler.RunCondition;
import dev.orrery.scheduler.States;
import java.util.Objects;

/**
 * How often a phase runs in one run of the schedule: once (the default), only while a
 * {@link RunCondition} holds, as many times as a {@link FixedTimestep} accumulator says, or
 * only on a state transition (the hidden phases holding {@code onEnter}/{@code onExit}
 * systems). The schedule builder makes them; the graph prints them; the executors obey them.
 *
 * <p><b>Threading:</b> immutable.
 */
public final class PhaseRule {
    /** A phase that runs once per run. */
    public static final PhaseRule ALWAYS = new PhaseRule(null, null, null, null, false);

    private final RunCondition condition;
    private final ResourceKey<FixedTimestep> fixedStep;
    private final ResourceKey<?> state;
    private final Enum<?> stateValue;
    private final boolean enter;

    private PhaseRule(RunCondition condition, ResourceKey<FixedTimestep> fixedStep, ResourceKey<?> state,
            Enum<?> stateValue, boolean enter) {
        this.condition = condition;
        this.fixedStep = fixedStep;
        this.state = state;
        this.stateValue = stateValue;
        this.enter = enter;
    }

    /** The rule of the phase holding the systems run on entering ({@code enter}) or leaving {@code value}. */
    public static <S extends Enum<S>> PhaseRule transition(ResourceKey<States<S>> state, S value, boolean enter) {
        return new PhaseRule(null, null, Objects.requireNonNull(state, "state"), Objects.requireNonNull(value, "value"),
                enter);
    }

    /** This rule, run only while {@code c} holds (and-ed with a condition it has). */
    public PhaseRule withCondition(RunCondition c) {
        requireOrdinary("a run condition");
        return new PhaseRule(condition == null ? c : condition.and(c), fixedStep, null, null, false);
    }

    /** This rule, run as many times per run as {@code accumulator}'s value says. */
    public PhaseRule withFixedStep(ResourceKey<FixedTimestep> accumulator) {
        requireOrdinary("a fixed timestep");
        if (fixedStep != null) {
            throw new IllegalArgumentException("the phase already steps by " + fixedStep.name() + "; give it one "
                    + "accumulator");
        }
        return new PhaseRule(condition, Objects.requireNonNull(accumulator, "accumulator"), null, null, false);
    }

    private void requireOrdinary(String what) {
        if (state != null) {
            throw new IllegalArgumentException("the " + (enter ? "on-enter" : "on-exit") + " phase of " + state.name()
                    + " = " + stateValue + " runs only on transitions and cannot take " + what);
        }
    }

    /** The phase's run condition, or {@code null}. */
    public RunCondition condition() {
        return condition;
    }

    /** The fixed-timestep accumulator's key, or {@code null}. */
    public ResourceKey<FixedTimestep> fixedStep() {
        return fixedStep;
    }

    /** True for an on-enter or on-exit phase, which runs only on state transitions. */
    public boolean transition() {
        return state != null;
    }

    /** The state machine of a transition phase, or {@code null}. */
    public ResourceKey<?> state() {
        return state;
    }

    /** The value a transition phase enters or leaves, or {@code null}. */
    public Enum<?> stateValue() {
        return stateValue;
    }

    /** True for an on-enter phase (false for on-exit and ordinary ones). */
    public boolean onEnter() {
        return enter;
    }

    /** True for a phase that simply runs once per run. */
    public boolean always() {
        return condition == null && fixedStep == null && state == null;
    }

    /**
     * {@code ""} for a phase that always runs once, else what the graph prints, e.g.
     * {@code "runs if raining"}, {@code "runs per whole step of physics clock"} or
     * {@code "runs on enter mode = PLAYING"}.
     */
    @Override
    public String toString() {
        if (state != null) {
            return "runs on " + (enter ? "enter " : "exit ") + state.name() + " = " + stateValue;
        }
        StringBuilder sb = new StringBuilder();
        if (fixedStep != null) {
            sb.append("runs per whole step of ").append(fixedStep.name());
        }
        if (condition != null) {
            sb.append(sb.length() > 0 ? ", " : "").append("runs if ").append(condition);
        }
        return sb.toString();
    }
}
