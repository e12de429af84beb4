package dev.orrery.demo.net;

import java.nio.ByteBuffer;

/**
 * Turns the request lines of a connection into session changes ({@code HELLO},
 * {@code QUIT}), sink offers and replies, and counts each outcome. It is the protocol half of
 * the selector thread's work; {@link CommandServer} keeps the socket half (reading, writing,
 * back-pressure).
 *
 * <p><b>Threading:</b> used by the selector thread only, like the connections it is given.
 */
final class RequestDispatcher {
    /** Queues a reply on a connection (and closes it if its queue overflows). */
    @FunctionalInterface
    interface Sender {
        void send(Connection c, ByteBuffer line, long now);
    }

    private final ServerConfig config;
    private final ClientCommandSink sink;
    private final Counters counters;
    private final Sender sender;
    private final RequestParser parser;

    RequestDispatcher(ServerConfig config, ClientCommandSink sink, Counters counters, Sender sender) {
        this.config = config;
        this.sink = sink;
        this.counters = counters;
        this.sender = sender;
        this.parser = new RequestParser(config.maxSpawnCount());
    }

    /**
     * Scans the bytes of {@code c.in} (in read mode) for lines and handles each, up to the end
     * of the buffer, or until the connection quits or closes or its outbound queue reaches
     * {@code highWater} bytes (the rest stays in {@code c.in} for later). A line longer than the
     * limit is answered {@code TOO_LONG} once and skipped up to its line feed; nothing here
     * grows with the input: a line is assembled in {@code c.line}, of the limit's size.
     */
    void scan(Connection c, long highWater, long now) {
        ByteBuffer in = c.in;
        int max = config.maxLineBytes();
        while (in.hasRemaining() && !c.quitting && !c.closed && c.outboundBytes() < highWater) {
            byte b = in.get();
            if (b == '\n') {
                if (c.discarding) {
                    c.discarding = false;
                } else {
                    endLine(c, now);
                }
                c.lineLength = 0;
            } else if (!c.discarding) {
                if (c.lineLength == max + 1) {
                    c.discarding = true;
                    c.lineLength = 0;
                    tooLong(c, now);
                } else {
                    c.line[c.lineLength++] = b;
                }
            }
        }
    }

    /** The line feed ending the line assembled in {@code c.line} was read. */
    void endLine(Connection c, long now) {
        int max = config.maxLineBytes();
        int len = c.lineLength;
        if (len > 0 && c.line[len - 1] == '\r') {
            len--;
        }
        if (len > max) {
            tooLong(c, now);
            return;
        }
        for (int i = 0; i < len; i++) {
            if (c.line[i] != ' ' && c.line[i] != '\t') {
                handleLine(c, len, now);
                return;
            }
        }
        // A blank line: ignored, and it gets no request number.
    }

    /** The line being read passed the limit; the rest of it will be skipped. */
    void tooLong(Connection c, long now) {
        counters.messagesOversized.incrementAndGet();
        sender.send(c, Lines.error(++c.requests, ErrorCode.TOO_LONG, "the line is longer than " + config.maxLineBytes()
                + " bytes and was discarded up to its line feed; send shorter lines"), now);
    }

    private void handleLine(Connection c, int length, long now) {
        long request = ++c.requests;
        Request r = parser.parse(c.line, length);
        if (r instanceof Request.Rejected) {
            Request.Rejected rejected = (Request.Rejected) r;
            reject(c, request, rejected.code(), rejected.message(), now);
        } else if (r instanceof Request.Hello) {
            if (c.greeted()) {
                reject(c, request, ErrorCode.PROTOCOL, "this connection already said HELLO as '" + c.name
                        + "'; send commands, or QUIT and connect again to use another name", now);
                return;
            }
            c.name = ((Request.Hello) r).name();
            counters.messagesOk.incrementAndGet();
            sender.send(c, Lines.ok(request, Long.toString(c.clientId)), now);
        } else if (r instanceof Request.Quit) {
            c.windDown(now);
            c.quitting = true;
            counters.messagesOk.incrementAndGet();
            if (c.awaitingAnswers()) {
                c.byeRequest = request; // sent by sayBye once the last owed answer is routed
            } else {
                sayBye(c, request, now);
            }
        } else {
            offer(c, request, (Request.Command) r, now);
        }
    }

    private void offer(Connection c, long request, Request.Command command, long now) {
        if (!c.greeted()) {
            reject(c, request, ErrorCode.PROTOCOL, "send HELLO <name> first; this connection has not said who it is",
                    now);
            return;
        }
        ClientCommand bound = command.bind(c.clientId, request);
        if (bound instanceof ClientCommand.SpawnWave spawn && c.spawned + spawn.count() > config.spawnBudget()) {
            refuse(c, request, ErrorCode.QUOTA, "this connection has spawned " + c.spawned + " agents and its budget is "
                    + config.spawnBudget() + "; a wave of " + spawn.count()
                    + " does not fit, so spawn fewer or ask the operator to raise --spawn-budget", now);
            return;
        }
        boolean taken;
        try {
            Refusal refusal = sink.check(bound);
            if (refusal != null) {
                refuse(c, request, refusal.code(), refusal.message(), now);
                return;
            }
            if (!c.takeToken(now)) {
                counters.messagesBusy.incrementAndGet();
                counters.messagesThrottled.incrementAndGet();
                sender.send(c, Lines.error(request, ErrorCode.BUSY, "this connection is over its share of the input ("
                        + config.clientRate() + " commands a second, " + config.clientBurst()
                        + " at once); send more slowly and send the request again later"), now);
                return;
            }
            taken = sink.offer(bound);
            if (!taken) {
                c.returnToken();
            }
        } catch (RuntimeException e) {
            counters.internalErrors.incrementAndGet();
            sender.send(c, Lines.error(request, ErrorCode.INTERNAL, "the simulation's input failed (" + e.getClass().getSimpleName()
                    + "); the request was not applied; report this to the operator"), now);
            return;
        }
        if (!taken) {
            counters.messagesBusy.incrementAndGet();
            sender.send(c, Lines.error(request, ErrorCode.BUSY,
                    "the simulation's input queue is full; send the request again later"), now);
            return;
        }
        counters.messagesOk.incrementAndGet();
        if (bound instanceof ClientCommand.SpawnWave spawn) {
            c.spawned += spawn.count();
        }
        if (command.type().answeredBySimulation()) {
            c.owed++;
        } else {
            sender.send(c, Lines.ok(request, ""), now);
        }
    }

    /**
     * Queues {@code OK <request> BYE}; after it no answer from the simulation is written, so
     * call it once every owed answer was routed (or the wait for them was given up).
     */
    void sayBye(Connection c, long request, long now) {
        c.answersClosed = true;
        c.byeRequest = 0;
        sender.send(c, Lines.ok(request, "BYE"), now);
    }

    private void refuse(Connection c, long request, ErrorCode code, String message, long now) {
        counters.messagesRefused.incrementAndGet();
        sender.send(c, Lines.error(request, code, message), now);
    }

    private void reject(Connection c, long request, ErrorCode code, String message, long now) {
        counters.messagesMalformed.incrementAndGet();
        sender.send(c, Lines.error(request, code, message), now);
    }
}
