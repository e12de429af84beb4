package dev.orrery.examples.javadoc;

import dev.orrery.ecs.World;
import dev.orrery.ecs.component.Component;
import dev.orrery.ecs.component.FieldValidator;

/**
 * The Javadoc examples of package {@code dev.orrery.ecs.component}, as compiled code, with the
 * variables they take for granted as parameters; see {@code JavadocExamplesTest}.
 */
final class ComponentExamples {
    record Agent(int team) {}
    record Shot(long victim) {}

    private ComponentExamples() {
    }

    /** {@link FieldValidator}. */
    static void fieldValidator(World world, Component<Agent> agent, Component<Shot> shot, int teams) {
        world.validator(agent.field("team"), FieldValidator.range(0, teams - 1));
        world.validator(shot.field("victim"),
                FieldValidator.ofLongs("0 or a live entity", v -> v == 0 || world.isAlive(v)));
    }
}
