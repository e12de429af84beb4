package dev.orrery.demo.net;

import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;

/**
 * A stand-in for the simulation: a sink that records every command per client and a
 * "tick thread" that answers GET and SET through {@link ClientReplies#reply}, as the real
 * simulation will. Entity 404 does not exist; every other entity's fields read as 1.5.
 */
final class FakeSimulation implements ClientCommandSink, AutoCloseable {
    private final Map<Long, List<ClientCommand>> byClient = new ConcurrentHashMap<>();
    private final LinkedBlockingQueue<ClientCommand> toAnswer = new LinkedBlockingQueue<>();
    private final Thread tickThread;
    private volatile ClientReplies replies = ClientReplies.discarding();
    private volatile boolean refuse;
    private volatile boolean running = true;

    FakeSimulation() {
        tickThread = new Thread(this::answerLoop, "fake-tick");
        tickThread.setDaemon(true);
        tickThread.start();
    }

    /** Starts a server on an ephemeral loopback port that feeds this simulation. */
    CommandServer start(ServerConfig config) throws java.io.IOException {
        CommandServer server = CommandServer.start(config, this);
        replies = server; // the simulation sees only the reply interface, as the engine will
        return server;
    }

    void refuseEverything(boolean on) {
        refuse = on;
    }

    @Override
    public boolean offer(ClientCommand command) {
        if (refuse) {
            return false;
        }
        byClient.computeIfAbsent(command.clientId(), k -> new CopyOnWriteArrayList<>()).add(command);
        if (command.type().answeredBySimulation()) {
            toAnswer.add(command);
        }
        return true;
    }

    /** The commands a client sent, in the order the sink received them. */
    List<ClientCommand> received(long clientId) {
        List<ClientCommand> list = byClient.get(clientId);
        return list == null ? List.of() : List.copyOf(list);
    }

    int receivedCount() {
        return byClient.values().stream().mapToInt(List::size).sum();
    }

    private void answerLoop() {
        while (running) {
            ClientCommand c;
            try {
                c = toAnswer.poll(50, TimeUnit.MILLISECONDS);
            } catch (InterruptedException e) {
                return;
            }
            if (c == null) {
                continue;
            }
            long entity = c instanceof ClientCommand.GetProperty ? ((ClientCommand.GetProperty) c).entity()
                    : ((ClientCommand.SetProperty) c).entity();
            if (entity == 404) {
                replies.replyError(c.clientId(), c.requestId(), ErrorCode.NOT_FOUND,
                        "entity 404 does not exist; query the ids a STATE line lists");
            } else {
                replies.reply(c.clientId(), c.requestId(), c.type() == CommandType.GET ? "1.5" : "");
            }
        }
    }

    /** Waits until the condition holds, failing the test after ten seconds. */
    static void await(String what, BooleanSupplier condition) throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
        while (!condition.getAsBoolean()) {
            if (System.nanoTime() > deadline) {
                throw new AssertionError("gave up waiting for: " + what);
            }
            Thread.sleep(5);
        }
    }

    @Override
    public void close() {
        running = false;
        try {
            tickThread.join();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while stopping the fake simulation's tick thread", e);
        }
    }
}
