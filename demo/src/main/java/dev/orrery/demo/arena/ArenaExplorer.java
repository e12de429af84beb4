package dev.orrery.demo.arena;

import dev.orrery.demo.net.ClientCommand;
import dev.orrery.demo.net.ClientReplies;
import dev.orrery.demo.net.ErrorCode;
import dev.orrery.demo.net.Refusal;
import dev.orrery.ecs.component.Field;
import dev.orrery.engine.InputPipeline;
import dev.orrery.explorer.EditSink;
import dev.orrery.explorer.MapPoints;
import dev.orrery.explorer.MapSource;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

/**
 * The arena as the explorer sees it: a live map of agents by team and projectiles, and the way
 * edits from the page come in. An edit is a client {@code SET} from client
 * {@value #CLIENT_ID} (the server numbers its clients from 1): checked against the arena's
 * {@link ClientWrites} allow-list, encoded by {@link InputCodec} and published into the input
 * pipeline, so it is journaled when recording, replayed, and its value is checked by the
 * world's field rules when the input system applies it. The simulation's answer to it comes
 * back through {@link #replies(ClientReplies)} and is kept for the page ({@link #outcomes}).
 *
 * <p><b>Threading:</b> {@link #submit} and {@link #outcomes} on the explorer's HTTP threads
 * (synchronized: one encoding buffer); {@link #sample} on the tick thread between ticks; the
 * replies wrapper on the tick thread.
 */
public final class ArenaExplorer implements EditSink, MapSource {
    /** The client id edits from the explorer carry in the input pipeline and the journal. */
    public static final long CLIENT_ID = 0;
    private static final int KEPT_OUTCOMES = 20;

    private final Arena arena;
    private final InputPipeline pipeline;
    private final byte[] buffer = new byte[InputCodec.MAX_PAYLOAD];
    private final ArrayDeque<String> outcomes = new ArrayDeque<>();
    private final List<String> kinds = new ArrayList<>();
    private long requests;

    /** The explorer's view of {@code arena}; edits go into {@code pipeline} (null: edits refused). */
    public ArenaExplorer(Arena arena, InputPipeline pipeline) {
        this.arena = Objects.requireNonNull(arena, "arena");
        this.pipeline = pipeline;
        for (int t = 0; t < arena.config().teams(); t++) {
            kinds.add("Team" + t);
        }
        kinds.add("Projectile");
    }

    @Override
    public synchronized String submit(long entity, String component, String field, String value) {
        if (pipeline == null) {
            return "this run takes no inputs (a replay); edit a live run started with --explore-edits";
        }
        Refusal no = arena.writes().check(component, field);
        if (no != null) {
            return no.code() + " " + no.message();
        }
        ClientCommand.SetProperty set = new ClientCommand.SetProperty(CLIENT_ID, ++requests, entity, component, field,
                value);
        int length = InputCodec.encode(set, buffer);
        if (!pipeline.tryPublish((int) CLIENT_ID, InputCodec.SET, buffer, 0, length)) {
            return ErrorCode.BUSY + " the input queue is full; retry in a moment";
        }
        return null;
    }

    @Override
    public synchronized List<String> outcomes() {
        return List.copyOf(outcomes);
    }

    private synchronized void outcome(String line) {
        if (outcomes.size() == KEPT_OUTCOMES) {
            outcomes.removeFirst();
        }
        outcomes.addLast(line);
    }

    /**
     * The replies to hand the arena: the explorer's own answers are kept for the page, every
     * other goes on to {@code next} (the server, or a discarding sink).
     */
    public ClientReplies replies(ClientReplies next) {
        Objects.requireNonNull(next, "next");
        return new ClientReplies() {
            @Override
            public boolean reply(long clientId, long requestId, String result) {
                if (clientId != CLIENT_ID) {
                    return next.reply(clientId, requestId, result);
                }
                outcome("edit " + requestId + ": OK");
                return true;
            }

            @Override
            public boolean replyError(long clientId, long requestId, ErrorCode code, String message) {
                if (clientId != CLIENT_ID) {
                    return next.replyError(clientId, requestId, code, message);
                }
                outcome("edit " + requestId + ": " + code + " " + message);
                return true;
            }

            @Override
            public boolean broadcastState(long tick, long entities, String summary) {
                return next.broadcastState(tick, entities, summary);
            }
        };
    }

    @Override
    public List<String> kinds() {
        return kinds;
    }

    @Override
    public float width() {
        return arena.config().side();
    }

    @Override
    public float height() {
        return arena.config().side();
    }

    @Override
    public void sample(MapPoints points) {
        long total = (long) arena.agentCount() + arena.projectileCount();
        points.total(total);
        int every = (int) Math.max(1, (total + points.capacity() - 1) / points.capacity());
        Field x = arena.position.field("x");
        Field y = arena.position.field("y");
        Field team = arena.agent.field("team");
        int projectileKind = kinds.size() - 1;
        long[] seen = {0};
        arena.agents.forEachChunk(chunk -> {
            float[] xs = chunk.readFloats(x);
            float[] ys = chunk.readFloats(y);
            int[] teams = chunk.readInts(team);
            for (int i = 0, n = chunk.size(); i < n; i++) {
                if (seen[0]++ % every == 0) {
                    points.add(chunk.entity(i), xs[i], ys[i], teams[i]);
                }
            }
        });
        arena.projectiles.forEachChunk(chunk -> {
            float[] xs = chunk.readFloats(x);
            float[] ys = chunk.readFloats(y);
            for (int i = 0, n = chunk.size(); i < n; i++) {
                if (seen[0]++ % every == 0) {
                    points.add(chunk.entity(i), xs[i], ys[i], projectileKind);
                }
            }
        });
    }
}
