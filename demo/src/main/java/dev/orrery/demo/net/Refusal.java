package dev.orrery.demo.net;

import java.util.Objects;

/**
 * Why a well-formed command is refused before it reaches the simulation: the code and the
 * message of the {@code ERR} reply, as {@link ClientCommandSink#check} returns it.
 *
 * @param code    the reply's code, for example {@link ErrorCode#FORBIDDEN}
 * @param message what is wrong and what to do about it; names the field or limit involved
 */
public record Refusal(ErrorCode code, String message) {
    /** Checks that both parts are present. */
    public Refusal {
        Objects.requireNonNull(code, "code");
        Objects.requireNonNull(message, "message");
    }
}
