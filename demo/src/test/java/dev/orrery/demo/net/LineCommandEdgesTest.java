package dev.orrery.demo.net;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.orrery.demo.arena.Arena;
import dev.orrery.demo.arena.ArenaFixtures;
import dev.orrery.demo.arena.ArenaConfig;
import dev.orrery.demo.arena.InputCodec;
import dev.orrery.demo.arena.SquadTargets;
import dev.orrery.demo.run.CommandInputs;
import dev.orrery.engine.InputPipeline;
import dev.orrery.engine.Simulation;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * The numeric arguments of the line commands at their edges, from the line to the world: the
 * request parser ({@code --max-spawn} {@value #MAX_SPAWN} here), the server's boundary
 * ({@link CommandInputs}, the world's cap {@value #ROOM} entities over what it holds) and the
 * arena's tick. {@code SPAWN <count>} 0, 1, the largest, one past, the cap exactly and one past,
 * negative, signed, decimal, past an int and a long; {@code MOVE <squad> <x> <y>} the squad 0,
 * the largest, one past, negative, coordinates below 0 and past the arena's side, padded with
 * zeros past 9 digits (taken: zeros before the whole part and after the fraction are not
 * counted), a fraction whose own leading zeros make it 10 places (refused: they count, and the
 * message says which zeros are not counted and that these are) and
 * -0 (stored as 0); {@code GET}
 * and {@code SET} of entity 0, an id whose index is negative, the largest long, one past it;
 * {@code SET}'s value padded with zeros past its 19, 17 and 3 digits (taken: those zeros are
 * not counted), one digit too many, a fraction of 18 places that are zeros but the last (refused,
 * the message saying which zeros count and, for SET, to write it with an exponent),
 * and -0 (stored as 0, as is a negative too small
 * for a float).
 * Each gets its documented answer: {@code OK} (and the world shows it: the wave spawned, the
 * squad's point set, clamped to the arena), or the error code with a message naming the
 * argument and its range; a refused line changes nothing.
 */
class LineCommandEdgesTest {
    static final int MAX_SPAWN = 200;
    static final int ROOM = 150;
    static final ArenaConfig CONFIG = new ArenaConfig(16, 2, 5);

    @ParameterizedTest(name = "{0}")
    @CsvSource(delimiter = '|', value = {
        // line                                   | answer     | says (for an error) or what the world then shows
        "SPAWN 1                                  | OK         | spawned=1",
        "SPAWN 2                                  | OK         | spawned=2",
        "SPAWN 001                                | OK         | spawned=1",
        "SPAWN 00000000001                        | OK         | spawned=1",
        "SPAWN 0000000000000000000000150          | OK         | spawned=150",
        "SPAWN 150                                | OK         | spawned=150",
        "SPAWN 151                                | QUOTA      | a wave of 151 does not fit",
        "SPAWN 200                                | QUOTA      | --max-entities",
        "SPAWN 0                                  | MALFORMED  | count '0' is out of range; usage: SPAWN <count>, count 1 to 200",
        "SPAWN 201                                | MALFORMED  | count '201' is out of range; usage: SPAWN <count>, count 1 to 200",
        "SPAWN -1                                 | MALFORMED  | count '-1' is out of range",
        "SPAWN +1                                 | MALFORMED  | count '+1' is out of range",
        "SPAWN 1.0                                | MALFORMED  | count '1.0' is out of range",
        "SPAWN 1e2                                | MALFORMED  | count '1e2' is out of range",
        "SPAWN 2147483648                         | MALFORMED  | count '2147483648' is out of range",
        "SPAWN 9223372036854775808                | MALFORMED  | count '9223372036854775808' is out of range",
        "SPAWN                                    | MALFORMED  | usage: SPAWN <count>, count 1 to 200",
        "SPAWN 1 1                                | MALFORMED  | usage: SPAWN <count>, count 1 to 200",
        "MOVE 0 0 0                               | OK         | squad=0 x=0.0 y=0.0",
        "MOVE 0 1.5 2.5                           | OK         | squad=0 x=1.5 y=2.5",
        "MOVE 63 1 1                              | OK         | squad=63 x=1.0 y=1.0",
        "MOVE 64 1 1                              | OK         | squad=0 x=1.0 y=1.0",
        "MOVE 999999999 3 3                       | OK         | squad=63 x=3.0 y=3.0",
        "MOVE 0 -1 -999999999.999999999           | OK         | squad=0 x=0.0 y=0.0",
        "MOVE 0 999999999.999999999 999999999     | OK         | squad=0 x=side y=side",
        "MOVE 0000000001 1 1                      | OK         | squad=1 x=1.0 y=1.0",
        "MOVE 0000000000000000000000063 2 2       | OK         | squad=63 x=2.0 y=2.0",
        "MOVE 000000000000000000000 3 3           | OK         | squad=0 x=3.0 y=3.0",
        "MOVE 01000000000 1 1                     | MALFORMED  | squad '01000000000' is not a whole number 0 to 999999999",
        "MOVE 1000000000 1 1                      | MALFORMED  | squad '1000000000' is not a whole number 0 to 999999999",
        "MOVE -1 1 1                              | MALFORMED  | squad '-1' is not a whole number 0 to 999999999",
        "MOVE 9223372036854775808 1 1             | MALFORMED  | squad '9223372036854775808' is not a whole number",
        "MOVE 0 1e3 1                             | MALFORMED  | coordinates '1e3' '1' must be decimals",
        "MOVE 0 NaN 1                             | MALFORMED  | coordinates 'NaN' '1' must be decimals",
        "MOVE 0 1 1234567890                      | MALFORMED  | must be decimals of up to 9 digits",
        "MOVE 1 0000000001 2                      | OK         | squad=1 x=1.0 y=2.0",
        "MOVE 2 00000000000002.5 +0003.2500000000 | OK         | squad=2 x=2.5 y=3.25",
        "MOVE 3 000000000999999999.000000000000 3 | OK         | squad=3 x=side y=3.0",
        "MOVE 0 -0 -0                             | OK         | squad=0 x=0.0 y=0.0",
        "MOVE 0 -0.000000000 -000000000000.0      | OK         | squad=0 x=0.0 y=0.0",
        "MOVE 0 01234567890 1                     | MALFORMED  | must be decimals of up to 9 digits",
        "MOVE 0 1.0000000001 1                    | MALFORMED  | must be decimals of up to 9 digits",
        "MOVE 4 0.000000001 1                     | OK         | squad=4 x=1.0E-9 y=1.0",
        "MOVE 0 0.0000000001 1                    | MALFORMED  | must be decimals of up to 9 digits",
        "MOVE 0 0.0000000001 2                    | MALFORMED  | zeros at the start of the whole part and at the end of the fraction are not counted; zeros at the start of the fraction count",
        "MOVE 0 1. 1                              | MALFORMED  | must be decimals of up to 9 digits",
        "MOVE 0 .5 1                              | MALFORMED  | must be decimals of up to 9 digits",
        "MOVE 0 1                                 | MALFORMED  | got 2 arguments",
        "GET {E} Health hp                        | OK         | value",
        "GET 00000000000000000000{E} Health hp    | OK         | value",
        "GET 00000000000000000000 Health hp       | NOT_FOUND  | entity 0 is not alive",
        "GET 0 Health hp                          | NOT_FOUND  | entity 0 is not alive",
        "GET 1 Health hp                          | NOT_FOUND  | entity 1 is not alive",
        "GET 4294967295 Health hp                 | NOT_FOUND  | entity 4294967295 is not alive",
        "GET 9223372036854775807 Health hp        | NOT_FOUND  | entity 9223372036854775807 is not alive",
        "GET 9223372036854775808 Health hp        | MALFORMED  | entity '9223372036854775808' is not an entity id (a whole number 0 to 9223372036854775807)",
        "GET -1 Health hp                         | MALFORMED  | entity '-1' is not an entity id",
        "SET {E} Health hp 0                      | OK         | set",
        "SET 00000000000000000000{E} Health hp 0  | OK         | set",
        "SET 0009223372036854775807 Health hp 5   | NOT_FOUND  | entity 9223372036854775807 is not alive",
        "SET 0009223372036854775808 Health hp 5   | MALFORMED  | entity '0009223372036854775808' is not an entity id",
        "SET 0 Health hp 5                        | NOT_FOUND  | entity 0 is not alive",
        "SET 4294967295 Health hp 5               | NOT_FOUND  | entity 4294967295 is not alive",
        "SET 9223372036854775807 Health hp 5      | NOT_FOUND  | entity 9223372036854775807 is not alive",
        "SET 9223372036854775807 Health hp -1     | BAD_VALUE  | Health.hp",
        "SET 9223372036854775808 Health hp 5      | MALFORMED  | entity '9223372036854775808' is not an entity id",
        "SET {E} Secondary damage 00000000000000000000000000007  | OK | Secondary.damage=7.0",
        "SET {E} Secondary damage 2.50000000000000000000000000   | OK | Secondary.damage=2.5",
        "SET {E} Secondary damage +0001234567890123456789e-00014 | OK | Secondary.damage=12345.679",
        "SET {E} Secondary damage 1e-00000000000000000000000005  | OK | Secondary.damage=1.0E-5",
        "SET {E} Secondary damage -0                             | OK | Secondary.damage=0.0",
        "SET {E} Primary spread -000.000e-000                    | OK | Primary.spread=0.0",
        "SET {E} Primary spread -1e-50                           | OK | Primary.spread=0.0",
        "SET {E} Secondary damage 12345678901234567890           | MALFORMED | up to 19 digits before the point, 17 after it",
        "SET {E} Secondary damage 0.123456789012345678           | MALFORMED | up to 19 digits before the point, 17 after it",
        "SET {E} Secondary damage 0.00000000000000001            | OK | Secondary.damage=1.0E-17",
        "SET {E} Secondary damage 0.000000000000000001           | MALFORMED | up to 19 digits before the point, 17 after it",
        "SET {E} Secondary damage 0.000000000000000002           | MALFORMED | leading zeros of the whole part or exponent and trailing zeros of the fraction are not counted; write 1e-18, not 0.000000000000000001",
        "SET {E} Secondary damage 0.000000000000000003           | MALFORMED | write 1e-18, not 0.000000000000000001",
        "SET {E} Secondary damage 1e1000                         | MALFORMED | and 3 in an exponent",
        "SET {E} Secondary damage .5                             | MALFORMED | value '.5' must be true, false or a decimal",
        "SET {E} Secondary damage 1.                             | MALFORMED | value '1.' must be true, false or a decimal",
    })
    void shouldAnswerEachEdgeAsDocumented(String template, String answer, String says) throws Exception {
        Arena arena = new Arena(CONFIG);
        arena.populate();
        List<String> replies = new ArrayList<>();
        ClientReplies to = new ClientReplies() {
            @Override
            public boolean reply(long clientId, long requestId, String result) {
                replies.add("OK " + result);
                return true;
            }

            @Override
            public boolean replyError(long clientId, long requestId, ErrorCode code, String message) {
                replies.add(code + " " + message);
                return true;
            }

            @Override
            public boolean broadcastState(long tick, long entities, String summary) {
                return true;
            }
        };
        arena.replies(to);
        long agent = ArenaFixtures.firstAgent(arena);
        assertTrue(SquadTargets.SQUADS == 64, "the table's squads wrap at 64");
        byte[] line = template.replace("{E}", Long.toString(agent)).getBytes(StandardCharsets.US_ASCII);
        Request parsed = new RequestParser(MAX_SPAWN).parse(line, line.length);
        if (parsed instanceof Request.Rejected no) {
            assertEquals(answer, no.code().name(), no.message());
            assertTrue(no.message().contains(says), "'" + says + "' not in: " + no.message());
            return;
        }
        assertTrue(!answer.equals("MALFORMED"), template + " parsed: " + parsed);
        ClientCommand command = ((Request.Command) parsed).bind(3, 41);
        long entitiesBefore = arena.world().entityCount();
        try (Simulation sim = arena.build(1, 0); InputPipeline inputs = InputPipeline.builder().ringSize(16)
                .maxPayloadBytes(InputCodec.MAX_PAYLOAD).maxInputsPerTick(16).build()) {
            sim.inputs(inputs);
            CommandInputs sink = new CommandInputs(inputs, arena.writes(), entitiesBefore, entitiesBefore + ROOM);
            Refusal refusal = sink.check(command);
            if (refusal != null) {
                assertEquals(answer, refusal.code().name(), refusal.message());
                assertTrue(refusal.message().contains(says), "'" + says + "' not in: " + refusal.message());
                return;
            }
            assertTrue(sink.offer(command), "the queue refused " + template);
            sim.tick();
            sink.answerGets(arena, to);
            if (command instanceof ClientCommand.SpawnWave) {
                assertEquals("OK", answer, template + " was taken");
                assertEquals(Long.parseLong(says.substring("spawned=".length())), arena.stats().spawnedByClients());
            } else if (command instanceof ClientCommand.MoveSquad) {
                assertEquals("OK", answer, template + " was taken");
                String[] want = says.split(" ");
                long squad = arena.squadEntity(Integer.parseInt(want[0].substring(6)));
                float side = Math.nextDown(CONFIG.side());
                assertEquals(want[1].endsWith("side") ? side : Float.parseFloat(want[1].substring(2)),
                        (float) arena.world().getProperty(squad, "Squad", "x"), template);
                assertEquals(want[2].endsWith("side") ? side : Float.parseFloat(want[2].substring(2)),
                        (float) arena.world().getProperty(squad, "Squad", "y"), template);
            } else {
                assertEquals(1, replies.size(), "one answer: " + replies);
                assertTrue(replies.get(0).startsWith(answer + " "), template + ": " + replies);
                if (!answer.equals("OK")) {
                    assertTrue(replies.get(0).contains(says), "'" + says + "' not in: " + replies);
                } else if (says.contains("=")) { // Component.field=the float it holds now, its sign included
                    String[] at = says.split("[.=]", 3);
                    assertEquals(Float.valueOf(at[2]), arena.world().getProperty(agent, at[0], at[1]), template);
                }
            }
        }
    }
}
