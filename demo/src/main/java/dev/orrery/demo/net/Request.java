package dev.orrery.demo.net;

/**
 * What one request line turned out to be, as {@link RequestParser} reads it: a session verb
 * the server answers itself, a command for the sink (still without its client and request
 * numbers), or a rejection with the reply to send.
 */
sealed interface Request permits Request.Hello, Request.Quit, Request.Command, Request.Rejected {

    /** {@code HELLO <name>}. */
    record Hello(String name) implements Request {
    }

    /** {@code QUIT}. */
    record Quit() implements Request {
    }

    /**
     * A well-formed sink command; {@link #bind} stamps it with who sent it.
     *
     * @param type      which command
     * @param number    squad or count for MOVE and SPAWN; unused otherwise
     * @param x         MOVE's x
     * @param y         MOVE's y
     * @param entity    GET's and SET's entity
     * @param component GET's and SET's component instance name
     * @param field     GET's and SET's field name
     * @param value     SET's value text
     */
    record Command(CommandType type, int number, float x, float y, long entity, String component, String field,
            String value) implements Request {

        ClientCommand bind(long clientId, long requestId) {
            switch (type) {
                case MOVE:
                    return new ClientCommand.MoveSquad(clientId, requestId, number, x, y);
                case SPAWN:
                    return new ClientCommand.SpawnWave(clientId, requestId, number);
                case GET:
                    return new ClientCommand.GetProperty(clientId, requestId, entity, component, field);
                case SET:
                    return new ClientCommand.SetProperty(clientId, requestId, entity, component, field, value);
                default:
                    throw new AssertionError(type);
            }
        }
    }

    /** A line the protocol refuses; {@code message} names the problem and the fix. */
    record Rejected(ErrorCode code, String message) implements Request {
    }
}
