package dev.orrery.demo.net;

/**
 * The kinds of {@link ClientCommand} that reach the simulation. {@code HELLO} and
 * {@code QUIT} are session verbs the server answers itself; they never reach the sink.
 */
public enum CommandType {
    /** {@code MOVE <squad> <x> <y>}: send the client's squad towards a point. */
    MOVE(false),
    /** {@code SPAWN <count>}: spawn a wave of agents for the client. */
    SPAWN(false),
    /** {@code GET <entity> <component> <field>}: read one field of a component instance. */
    GET(true),
    /** {@code SET <entity> <component> <field> <value>}: write one field of a component instance. */
    SET(true);

    private final boolean answeredBySimulation;

    CommandType(boolean answeredBySimulation) {
        this.answeredBySimulation = answeredBySimulation;
    }

    /**
     * Whether the simulation owes this command its reply. When false, the server answers
     * {@code OK <request>} as soon as the sink accepts the command (the command is queued
     * for a coming tick); when true, the server stays silent and the simulation answers
     * through {@link CommandServer#reply} or {@link CommandServer#replyError}, because only
     * it knows whether the entity, component and field exist.
     */
    public boolean answeredBySimulation() {
        return answeredBySimulation;
    }
}
