package dev.orrery.demo.net;

import java.util.Objects;

/**
 * One parsed, validated client request on its way to the simulation: who sent it
 * ({@link #clientId()}), which of that client's requests it is ({@link #requestId()}, the
 * number the reply must carry), and its typed arguments. Each {@link CommandType} has its
 * own record, so the simulation never parses text.
 *
 * <p><b>Threading:</b> instances are immutable (records of primitives and strings, all
 * fields final), so once a ring or queue has published one, any thread may read it.
 */
public sealed interface ClientCommand
        permits ClientCommand.MoveSquad, ClientCommand.SpawnWave, ClientCommand.GetProperty,
        ClientCommand.SetProperty {

    /** The id the server gave the sending connection, as answered to its {@code HELLO}. */
    long clientId();

    /** The request's number on its connection (1 is the connection's first line). */
    long requestId();

    /** Which command this is; lets a ring translator switch without {@code instanceof}. */
    CommandType type();

    /**
     * {@code MOVE <squad> <x> <y>}.
     *
     * @param clientId  the sending client
     * @param requestId the request number the reply must carry
     * @param squad     the client's squad number, 0 or more
     * @param x         target x, finite; -0 is stored as 0
     * @param y         target y, finite; -0 is stored as 0
     */
    record MoveSquad(long clientId, long requestId, int squad, float x, float y) implements ClientCommand {
        /**
         * Checks the arguments: a squad of 0 or more and finite coordinates. A coordinate of -0
         * ({@code MOVE 0 -0 -0}) becomes 0, so the squad's point, its hash and its snapshot hold
         * the one zero whatever sign the client wrote.
         */
        public MoveSquad {
            if (squad < 0 || !Float.isFinite(x) || !Float.isFinite(y)) {
                throw new IllegalArgumentException("MOVE needs squad >= 0 and finite x, y; got " + squad + ", " + x + ", " + y);
            }
            x = NegativeZero.toZero(x);
            y = NegativeZero.toZero(y);
        }

        @Override
        public CommandType type() {
            return CommandType.MOVE;
        }
    }

    /**
     * {@code SPAWN <count>}.
     *
     * @param clientId  the sending client
     * @param requestId the request number the reply must carry
     * @param count     how many agents to spawn, 1 or more
     */
    record SpawnWave(long clientId, long requestId, int count) implements ClientCommand {
        /** Checks that the count is positive. */
        public SpawnWave {
            if (count < 1) {
                throw new IllegalArgumentException("SPAWN needs a count of 1 or more; got " + count);
            }
        }

        @Override
        public CommandType type() {
            return CommandType.SPAWN;
        }
    }

    /**
     * {@code GET <entity> <component> <field>}: the simulation answers
     * {@code OK <request> <value>} or {@code ERR <request> NOT_FOUND ...}.
     *
     * @param clientId  the sending client
     * @param requestId the request number the reply must carry
     * @param entity    the entity id (index in the low 32 bits, generation in the high 32)
     * @param component the component instance name, for example {@code Health} or {@code Fog}
     * @param field     the field name within that component
     */
    record GetProperty(long clientId, long requestId, long entity, String component, String field)
            implements ClientCommand {
        /** Checks that the names are present. */
        public GetProperty {
            Objects.requireNonNull(component, "component");
            Objects.requireNonNull(field, "field");
        }

        @Override
        public CommandType type() {
            return CommandType.GET;
        }
    }

    /**
     * {@code SET <entity> <component> <field> <value>}: the simulation answers
     * {@code OK <request>} or {@code ERR <request> NOT_FOUND|BAD_VALUE ...}.
     *
     * @param clientId  the sending client
     * @param requestId the request number the reply must carry
     * @param entity    the entity id
     * @param component the component instance name
     * @param field     the field name within that component
     * @param value     the value as the client wrote it: a decimal number or {@code true}/{@code false};
     *                  the simulation converts it to the field's type; -0 is stored as 0 ({@code InputCodec}
     *                  journals it as 0), so the field's hash and snapshot hold the one zero
     */
    record SetProperty(long clientId, long requestId, long entity, String component, String field, String value)
            implements ClientCommand {
        /** Checks that the names and the value are present. */
        public SetProperty {
            Objects.requireNonNull(component, "component");
            Objects.requireNonNull(field, "field");
            Objects.requireNonNull(value, "value");
        }

        @Override
        public CommandType type() {
            return CommandType.SET;
        }
    }
}
