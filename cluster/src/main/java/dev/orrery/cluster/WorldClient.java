package dev.orrery.cluster;

import dev.orrery.cluster.protocol.InputReply;
import java.time.Duration;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.BooleanSupplier;

/**
 * A client of cluster worlds that makes each input apply exactly once or not at all: it has
 * one random client id ({@link ClusterNode#newClientId()}), numbers its inputs to each world
 * 1, 2, 3, ..., and sends each until the world answers accepted or refused, again with the
 * same sequence after every unknown (a timeout, a world moving or busy), backing off from
 * 100 ms to 1 s, for up to {@code retryFor}. The stage {@link #send} returns completes with
 * the last answer: accepted at tick N, refused, or (after {@code retryFor}, once the client
 * is closed, or at the first unknown once a client of one node finds that node stopped)
 * unknown.
 *
 * <p>It keeps at most {@code maxUnanswered} inputs per world unanswered (the world's
 * de-duplication window must be larger; {@code WorldSettings#window()} is 512 by default);
 * an input beyond is refused here without being sent or numbered.
 *
 * <p><b>Threading:</b> thread-safe: {@link #send} may be called from any thread; stages
 * complete on the route's threads or the retry timer's ({@link CompletableFuture#delayedExecutor}).
 */
public final class WorldClient implements AutoCloseable {
    /** Where the client sends an input: {@code ClusterNode::submit}, or a choice among nodes. */
    @FunctionalInterface
    public interface Route {
        /**
         * Sends one attempt; see {@link ClusterNode#submit}. The stage must complete normally.
         *
         * @param worldId the world's id
         * @param clientId the client's id, the de-duplication key with {@code sequence}
         * @param sequence the input's number among this client's inputs to the world, from 1; the
         *     same on every attempt of one input
         * @param client the client number the simulation sees
         * @param type the command type the simulation sees
         * @param payload the command's bytes; the same array on every attempt
         * @param timeout how long the attempt waits for the world's answer
         * @return a stage that completes normally with the answer, or unknown
         */
        CompletionStage<InputReply> submit(String worldId, long clientId, long sequence, int client, int type,
                byte[] payload, Duration timeout);
    }

    private final Route route;
    private final long clientId;
    private final Duration askTimeout;
    private final Duration retryFor;
    private final int maxUnanswered;
    /** True once the route can never send again (a client of one node: the node stopped); never for a route of several. */
    private final BooleanSupplier routeStopped;
    private final Map<String, AtomicLong> sequences = new ConcurrentHashMap<>();
    private final Map<String, AtomicInteger> unanswered = new ConcurrentHashMap<>();
    private final AtomicLong accepted = new AtomicLong();
    private final AtomicLong refused = new AtomicLong();
    private final AtomicLong unknown = new AtomicLong();
    private final AtomicLong retries = new AtomicLong();
    private volatile boolean closed;

    /**
     * A client sending through {@code route}.
     *
     * @param route         where each attempt goes ({@code node::submit}, or a choice among nodes);
     *     its stages must complete normally
     * @param askTimeout how long one attempt waits for an answer
     * @param retryFor how long an input is sent again before its stage completes unknown
     *     (keep it below the worlds' client expiry)
     * @param maxUnanswered inputs per world that may be unanswered at once
     * @throws NullPointerException if {@code route}, {@code askTimeout} or {@code retryFor} is null
     * @throws IllegalArgumentException if {@code maxUnanswered} is below 1
     */
    public WorldClient(Route route, Duration askTimeout, Duration retryFor, int maxUnanswered) {
        this(route, askTimeout, retryFor, maxUnanswered, () -> false);
    }

    private WorldClient(Route route, Duration askTimeout, Duration retryFor, int maxUnanswered,
            BooleanSupplier routeStopped) {
        this.route = Objects.requireNonNull(route, "route");
        this.routeStopped = routeStopped;
        this.askTimeout = Objects.requireNonNull(askTimeout, "askTimeout");
        this.retryFor = Objects.requireNonNull(retryFor, "retryFor");
        if (maxUnanswered < 1) {
            throw new IllegalArgumentException("maxUnanswered must be 1 or more, got " + maxUnanswered);
        }
        this.maxUnanswered = maxUnanswered;
        this.clientId = ClusterNode.newClientId();
    }

    /**
     * A client of {@code node}: 3 s per attempt, retried for up to 2 minutes, 256 unanswered per
     * world. Once the node has stopped (it left, crashed or was downed) it can never answer
     * otherwise, so an input answered unknown then completes with that answer at once ("node
     * H:P has stopped ...; send it through another node") rather than being sent again.
     *
     * @param node the node every attempt goes through, not null
     */
    public WorldClient(ClusterNode node) {
        this(node::submit, Duration.ofSeconds(3), Duration.ofMinutes(2), 256, node::isTerminated);
    }

    /**
     * This client's id, journaled with each of its inputs.
     *
     * @return the id, random, never 0, fixed for the client's life
     */
    public long clientId() {
        return clientId;
    }

    /**
     * Sends an input to {@code worldId} with the world's next sequence, until it is accepted
     * or refused.
     *
     * @param worldId the world's id
     * @param client  the client number the simulation sees
     * @param type    the command type the simulation sees, the application's own numbering
     * @param payload the command's bytes, copied before this returns; not null
     * @return the last answer (never a failed stage)
     */
    public CompletionStage<InputReply> send(String worldId, int client, int type, byte[] payload) {
        AtomicInteger open = unanswered.computeIfAbsent(worldId, w -> new AtomicInteger());
        if (open.incrementAndGet() > maxUnanswered) {
            open.decrementAndGet();
            refused.incrementAndGet();
            return CompletableFuture.completedFuture(InputReply.refused(worldId, clientId, 0, -1, "not sent: "
                    + maxUnanswered + " inputs to this world are unanswered, the most this client keeps"));
        }
        long sequence = sequences.computeIfAbsent(worldId, w -> new AtomicLong()).incrementAndGet();
        byte[] copy = payload.clone();
        CompletableFuture<InputReply> result = new CompletableFuture<>();
        attempt(worldId, sequence, client, type, copy, System.nanoTime() + retryFor.toNanos(), 100, result);
        return result.whenComplete((r, e) -> {
            open.decrementAndGet();
            if (r != null) {
                (r.accepted() ? accepted : r.refused() ? refused : unknown).incrementAndGet();
            }
        });
    }

    private void attempt(String worldId, long sequence, int client, int type, byte[] payload, long deadline,
            long backoffMillis, CompletableFuture<InputReply> result) {
        CompletionStage<InputReply> sent;
        try {
            sent = route.submit(worldId, clientId, sequence, client, type, payload, askTimeout);
        } catch (RuntimeException e) {
            // the route could not send (its node stopped meanwhile): as good as no answer, so retry
            sent = CompletableFuture.failedFuture(e);
        }
        // a route whose node stopped may never complete its stage: give up on it a little after the ask's timeout
        sent.toCompletableFuture().copy().orTimeout(askTimeout.toMillis() + 2000, TimeUnit.MILLISECONDS)
                .whenComplete((reply, failure) -> {
                    InputReply r = failure == null ? reply : InputReply.unknown(worldId, clientId, sequence, -1,
                            "sending failed: " + failure);
                    if (!r.unknown() || closed || System.nanoTime() > deadline || routeStopped.getAsBoolean()) {
                        result.complete(r);
                        return;
                    }
                    retries.incrementAndGet();
                    CompletableFuture.delayedExecutor(backoffMillis, TimeUnit.MILLISECONDS).execute(() -> attempt(
                            worldId, sequence, client, type, payload, deadline, Math.min(1000, backoffMillis * 2),
                            result));
                });
    }

    /**
     * Inputs answered accepted so far.
     *
     * @return the count, 0 or more
     */
    public long accepted() {
        return accepted.get();
    }

    /**
     * Inputs answered refused so far (the world's refusals and those not sent).
     *
     * @return the count, 0 or more
     */
    public long refused() {
        return refused.get();
    }

    /**
     * Inputs whose stage completed unknown (retried for {@code retryFor}, cut short by
     * {@link #close()}, or answered by a node that has stopped).
     *
     * @return the count, 0 or more
     */
    public long unknown() {
        return unknown.get();
    }

    /**
     * Inputs sent and not answered accepted or refused yet, over all worlds.
     *
     * @return the count now, 0 or more
     */
    public long unanswered() {
        long n = 0;
        for (AtomicInteger i : unanswered.values()) {
            n += i.get();
        }
        return n;
    }

    /**
     * Attempts sent again after an unknown, so far.
     *
     * @return the count, 0 or more; one input may be sent again many times
     */
    public long retries() {
        return retries.get();
    }

    /** Stops retrying: each input still unanswered completes with its next answer, unknown if that is unknown. */
    @Override
    public void close() {
        closed = true;
    }
}
