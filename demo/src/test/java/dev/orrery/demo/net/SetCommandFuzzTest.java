package dev.orrery.demo.net;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.code_intelligence.jazzer.junit.DictionaryEntries;
import com.code_intelligence.jazzer.junit.FuzzTest;
import dev.orrery.demo.arena.Arena;
import dev.orrery.demo.arena.ArenaFixtures;
import dev.orrery.demo.arena.ArenaConfig;
import dev.orrery.demo.arena.InputCodec;
import dev.orrery.demo.run.CommandInputs;
import dev.orrery.engine.InputPipeline;
import dev.orrery.engine.Simulation;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Pattern;

/**
 * Coverage-guided fuzzing of a client's {@code SET} from its line to the world: the request
 * parser ({@link RequestParser}), the server's boundary check and the input queue
 * ({@link CommandInputs}), and the arena's input system, which converts the value for its
 * field, checks it against the field's rules and writes it. The input is the line after
 * {@code SET }, with {@code {E}} standing for a live agent's id.
 *
 * <p>The contract, whatever the bytes: a line the parser refuses gets a {@code MALFORMED}
 * refusal with the command's usage, of one bounded printable line; a parsed {@code SET} whose
 * field is not on the arena's allow-list is refused {@code FORBIDDEN} naming the field, before
 * the queue; every other gets exactly one answer from the tick: {@code OK} when the value is a
 * number whose float is finite and within the field's documented bounds ({@link #BOUNDS}: the
 * {@code @Range}s of {@code Health} and {@code Weapon}, and the arena's side for
 * {@code Position}), and then the field holds that float, -0 stored as 0 (checked on the
 * fields no system writes); else {@code BAD_VALUE} naming the field, which then holds its old value. Never
 * {@code NOT_FOUND} for the live agent, never an exception (a system failing would throw out of
 * the tick), never a NaN or an infinity stored. A new arena for each input, so an input replays
 * alone. {@code mvn verify} runs the committed corpus ({@code SetCommandFuzzTestInputs/setValue});
 * a longer run is described in docs/design/engine-and-cluster.md.
 */
class SetCommandFuzzTest {
    private static final int MAX_INPUT = 256;
    private static final long CLIENT = 3;
    private static final long REQUEST = 41;
    private static final ArenaConfig CONFIG = new ArenaConfig(16, 2, 5);
    private static final float EDGE = Math.nextDown(CONFIG.side());
    /** The documented bounds of each field a client may {@code SET}: {min, max}. */
    private static final Map<String, double[]> BOUNDS = Map.ofEntries(
            Map.entry("Health.hp", new double[] {0, 1_000_000}),
            Map.entry("Position.x", new double[] {0, EDGE}), Map.entry("Position.y", new double[] {0, EDGE}),
            weapon("cooldown", 0, 60), weapon("reload", 0.05, 60), weapon("damage", 0, 1_000_000),
            weapon("speed", 0.1, 1_000), weapon("spread", 0, 100));
    /** The fields no system writes: a value set there is still there after the tick. */
    private static final Set<String> KEPT = Set.of("reload", "damage", "speed", "spread");
    private static final Pattern LINE = Pattern.compile("[ -~]{1," + ServerConfig.MAX_OUTBOUND_LINE_BYTES + "}");

    private static Map.Entry<String, double[]> weapon(String field, double min, double max) {
        return Map.entry("Primary." + field + "|Secondary." + field, new double[] {min, max});
    }

    private static double[] bounds(String key) {
        for (Map.Entry<String, double[]> e : BOUNDS.entrySet()) {
            if (Set.of(e.getKey().split("\\|")).contains(key)) {
                return e.getValue();
            }
        }
        return null;
    }

    @FuzzTest(maxDuration = "10m")
    @DictionaryEntries({"{E}", "Health hp ", "Position x ", "Position y ", "Primary reload ", "Secondary damage ",
        "Secondary speed ", "Primary spread ", "Primary cooldown ", "Agent team ", "true", "false", "e-", "E+",
        "3.4028235e38", "0.05", "1000000", "-0", "60.000000000000001"})
    void setValue(byte[] data) {
        if (data.length > MAX_INPUT) {
            return; // the server refuses a line over its limit before parsing it
        }
        Arena arena = new Arena(CONFIG);
        arena.populate();
        List<String> replies = new ArrayList<>();
        arena.replies(new ClientReplies() {
            @Override
            public boolean reply(long clientId, long requestId, String result) {
                replies.add(requestId + " OK " + result);
                return true;
            }

            @Override
            public boolean replyError(long clientId, long requestId, ErrorCode code, String message) {
                replies.add(requestId + " " + code + " " + message);
                return true;
            }

            @Override
            public boolean broadcastState(long tick, long entities, String summary) {
                return true;
            }
        });
        long agent = ArenaFixtures.firstAgent(arena);
        byte[] line = ("SET " + new String(data, StandardCharsets.ISO_8859_1).replace("{E}", Long.toString(agent)))
                .getBytes(StandardCharsets.ISO_8859_1);
        Request parsed = new RequestParser(500).parse(line, line.length);
        if (parsed instanceof Request.Rejected no) {
            assertEquals(ErrorCode.MALFORMED, no.code(), no.message());
            assertTrue(LINE.matcher(no.message()).matches() && no.message().length() < 400, no.message());
            assertTrue(no.message().contains("usage: SET <entity> <component> <field> <value>")
                    || no.message().contains("is not printable ASCII"), no.message());
            return;
        }
        Request.Command command = (Request.Command) parsed;
        assertEquals(CommandType.SET, command.type());
        ClientCommand.SetProperty set = (ClientCommand.SetProperty) command.bind(CLIENT, REQUEST);
        String key = set.component() + "." + set.field();
        try (Simulation sim = arena.build(1, 0); InputPipeline inputs = InputPipeline.builder().ringSize(16)
                .maxPayloadBytes(InputCodec.MAX_PAYLOAD).maxInputsPerTick(16).build()) {
            sim.inputs(inputs);
            CommandInputs sink = new CommandInputs(inputs, arena.writes(), arena.agentCount(), 1_000);
            Refusal refusal = sink.check(set);
            double[] bounds = bounds(key);
            if (bounds == null) { // not on the allow-list
                assertNotNull(refusal, "a SET of " + key + " passed the boundary");
                assertEquals(ErrorCode.FORBIDDEN, refusal.code());
                assertTrue(refusal.message().startsWith(key + " is server-owned"), refusal.message());
                return;
            }
            assertEquals(null, refusal, "a SET of " + key + " refused at the boundary");
            boolean mine = set.entity() == agent;
            Object before = mine ? arena.world().getProperty(agent, set.component(), set.field()) : null;
            assertTrue(sink.offer(set), "the input queue refused the one SET");
            sim.tick();
            assertEquals(1, replies.size(), "one answer to one SET: " + replies);
            String reply = replies.get(0);
            assertTrue(reply.startsWith(REQUEST + " ") && LINE.matcher(reply).matches(), reply);
            if (!mine) { // another id: another agent, a squad, or no entity
                assertTrue(reply.equals(REQUEST + " OK ") || reply.startsWith(REQUEST + " NOT_FOUND ")
                        || reply.startsWith(REQUEST + " BAD_VALUE ") && reply.contains(key), reply);
                return;
            }
            Float expected = expected(set.value(), bounds);
            if (expected == null) {
                assertTrue(reply.startsWith(REQUEST + " BAD_VALUE ") && reply.contains(key),
                        "'" + set.value() + "' for " + key + ": " + reply);
            } else {
                assertEquals(REQUEST + " OK ", reply, "'" + set.value() + "' for " + key);
            }
            if (!arena.world().isAlive(agent)) {
                return; // hp 0: the agent died in the tick and a new one took its place
            }
            Object after = arena.world().getProperty(agent, set.component(), set.field());
            assertTrue(after instanceof Float f && Float.isFinite(f), key + " holds " + after);
            if (KEPT.contains(set.field())) {
                assertEquals(expected != null ? expected : before, after, key + " after SET " + set.value());
            }
        }
    }

    /** The float a {@code SET} of {@code value} must store, or null when it must be refused. */
    private static Float expected(String value, double[] bounds) {
        if (value.equals("true") || value.equals("false")) {
            return null; // every field on the list is a float
        }
        double v = Double.parseDouble(value);
        float f = (float) v;
        if (!Float.isFinite(f) || Math.abs(v) > Float.MAX_VALUE || f < bounds[0] || f > bounds[1]) {
            return null;
        }
        return f + 0.0f; // -0 (written so, or a negative too small for a float) is stored as 0
    }
}
