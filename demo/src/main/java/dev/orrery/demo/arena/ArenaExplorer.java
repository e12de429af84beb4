package dev.orrery.demo.arena;

import dev.orrery.demo.net.ClientCommand;
import dev.orrery.demo.net.ClientReplies;
import dev.orrery.demo.net.ErrorCode;
import dev.orrery.demo.net.Refusal;
import dev.orrery.ecs.component.Field;
import dev.orrery.engine.InputPipeline;
import dev.orrery.explorer.Edit;
import dev.orrery.explorer.EditSink;
import dev.orrery.explorer.MapPoints;
import dev.orrery.explorer.MapSource;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.function.LongSupplier;

/**
 * The arena as the explorer sees it: a live map of agents by team and projectiles, and the way
 * edits from the page come in. An edit is a client {@code SET} from client
 * {@value #CLIENT_ID} (the server numbers its clients from 1) whose request id is the edit's
 * number: checked against the arena's {@link ClientWrites} allow-list (a field off it is shown
 * read-only on the page, with the reason), encoded by {@link InputCodec} and published into
 * the input pipeline, so it is journaled when recording, replayed, and its value is checked
 * by the world's field rules when the input system applies it. The simulation's answer comes
 * back through {@link #replies(ClientReplies)}, and is reported against the edit: applied at
 * the tick, or refused with the server's code and reason.
 *
 * <p><b>Threading:</b> {@link #submit} and {@link #readOnly} on the explorer's HTTP threads;
 * {@link #sample} on the tick thread between ticks; the replies wrapper on the tick thread.
 * The edits waiting for their answer are kept in a synchronized map.
 */
public final class ArenaExplorer implements EditSink, MapSource {
    /** The client id edits from the explorer carry in the input pipeline and the journal. */
    public static final long CLIENT_ID = 0;
    /** Edits kept waiting for their answer; older ones are forgotten (the page then shows no outcome). */
    private static final int KEPT_WAITING = 1000;

    private final Arena arena;
    private final InputPipeline pipeline;
    private final LongSupplier tick;
    private final byte[] buffer = new byte[InputCodec.MAX_PAYLOAD];
    private final Map<Long, Edit> waiting = new LinkedHashMap<>();
    private final List<String> kinds = new ArrayList<>();

    /**
     * The explorer's view of {@code arena}; edits go into {@code pipeline} (null: edits
     * refused), and their outcome is stamped with the tick {@code tick} reads (the simulation's
     * current tick, read on the tick thread while the input system runs).
     */
    public ArenaExplorer(Arena arena, InputPipeline pipeline, LongSupplier tick) {
        this.arena = Objects.requireNonNull(arena, "arena");
        this.pipeline = pipeline;
        this.tick = Objects.requireNonNull(tick, "tick");
        for (int t = 0; t < arena.config().teams(); t++) {
            kinds.add("Team" + t);
        }
        kinds.add("Projectile");
    }

    @Override
    public String readOnly(String component, String field) {
        if (pipeline == null) {
            return "this run takes no inputs (a replay); edit a live run started with --explore-edits";
        }
        Refusal no = arena.writes().check(component, field);
        return no == null ? null : no.code() + " " + no.message();
    }

    @Override
    public String submit(Edit edit) {
        String no = readOnly(edit.component(), edit.field());
        if (no != null) {
            return no;
        }
        ClientCommand.SetProperty set = new ClientCommand.SetProperty(CLIENT_ID, edit.id(), edit.entity(),
                edit.component(), edit.field(), edit.value());
        synchronized (this) {
            int length = InputCodec.encode(set, buffer);
            waiting.put(edit.id(), edit);
            if (waiting.size() > KEPT_WAITING) {
                waiting.remove(waiting.keySet().iterator().next());
            }
            if (!pipeline.tryPublish((int) CLIENT_ID, InputCodec.SET, buffer, 0, length)) {
                waiting.remove(edit.id());
                return ErrorCode.BUSY + " the input queue is full; retry in a moment";
            }
        }
        return null;
    }

    private synchronized Edit answered(long requestId) {
        return waiting.remove(requestId);
    }

    /**
     * The replies to hand the arena: the answers to the explorer's edits are reported against
     * them, every other goes on to {@code next} (the server, or a discarding sink).
     */
    public ClientReplies replies(ClientReplies next) {
        Objects.requireNonNull(next, "next");
        return new ClientReplies() {
            @Override
            public boolean reply(long clientId, long requestId, String result) {
                if (clientId != CLIENT_ID) {
                    return next.reply(clientId, requestId, result);
                }
                Edit e = answered(requestId);
                if (e != null) {
                    e.applied(tick.getAsLong());
                }
                return true;
            }

            @Override
            public boolean replyError(long clientId, long requestId, ErrorCode code, String message) {
                if (clientId != CLIENT_ID) {
                    return next.replyError(clientId, requestId, code, message);
                }
                Edit e = answered(requestId);
                if (e != null) {
                    e.refused(code + " " + message);
                }
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
        arena.agents.forEachChunkReadOnly(chunk -> { // looking between ticks: no change tick taken
            float[] xs = chunk.readFloats(x);
            float[] ys = chunk.readFloats(y);
            int[] teams = chunk.readInts(team);
            for (int i = 0, n = chunk.size(); i < n; i++) {
                if (seen[0]++ % every == 0) {
                    points.add(chunk.entity(i), xs[i], ys[i], teams[i]);
                }
            }
        });
        arena.projectiles.forEachChunkReadOnly(chunk -> {
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
