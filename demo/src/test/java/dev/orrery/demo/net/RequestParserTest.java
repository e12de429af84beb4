package dev.orrery.demo.net;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

class RequestParserTest {
    private final RequestParser parser = new RequestParser(100);

    private Request parse(String line) {
        byte[] bytes = line.getBytes(StandardCharsets.ISO_8859_1);
        return parser.parse(bytes, bytes.length);
    }

    private ClientCommand command(String line) {
        return assertInstanceOf(Request.Command.class, parse(line)).bind(7, 3);
    }

    private Request.Rejected rejected(String line, ErrorCode code) {
        Request.Rejected r = assertInstanceOf(Request.Rejected.class, parse(line), line);
        assertEquals(code, r.code(), line);
        return r;
    }

    @Test
    void shouldParseEachCommandIntoItsTypedRecord() {
        assertEquals(new ClientCommand.MoveSquad(7, 3, 2, -12.5f, 40f), command("MOVE 2 -12.5 40"));
        assertEquals(new ClientCommand.SpawnWave(7, 3, 100), command("SPAWN 100"));
        assertEquals(new ClientCommand.GetProperty(7, 3, 4294967297L, "Fog", "density"),
                command("GET 4294967297 Fog density"));
        assertEquals(new ClientCommand.SetProperty(7, 3, 9, "Health", "hp", "-3.25e2"),
                command("SET 9 Health hp -3.25e2"));
        assertEquals(new Request.Hello("bot-1.a"), parse("HELLO bot-1.a"));
        assertEquals(new Request.Quit(), parse("QUIT"));
    }

    @Test
    void shouldAcceptAnyCaseVerbsAndRunsOfSpacesOrTabs() {
        assertEquals(new ClientCommand.SpawnWave(7, 3, 5), command("spawn \t  5 "));
        assertEquals(CommandType.MOVE, command("Move 1\t2 3").type());
    }

    @Test
    void shouldRejectWrongArgumentCountsWithTheUsage() {
        assertTrue(rejected("MOVE 1 2", ErrorCode.MALFORMED).message().contains("usage: MOVE <squad> <x> <y>"));
        assertTrue(rejected("GET 1 Fog", ErrorCode.MALFORMED).message().contains("usage: GET"));
        assertTrue(rejected("SET 1 Fog density", ErrorCode.MALFORMED).message().contains("usage: SET"));
        rejected("HELLO", ErrorCode.MALFORMED);
        rejected("HELLO a b", ErrorCode.MALFORMED);
        rejected("QUIT now", ErrorCode.MALFORMED);
        rejected("SPAWN", ErrorCode.MALFORMED);
    }

    @Test
    void shouldRejectArgumentsOfTheWrongForm() {
        rejected("MOVE -1 2 3", ErrorCode.MALFORMED);
        rejected("MOVE 1 NaN 3", ErrorCode.MALFORMED);
        rejected("MOVE 1 2 Infinity", ErrorCode.MALFORMED);
        rejected("MOVE 1 0x10 3", ErrorCode.MALFORMED);
        rejected("MOVE 1 1e9 3", ErrorCode.MALFORMED);
        rejected("SPAWN 0", ErrorCode.MALFORMED);
        assertTrue(rejected("SPAWN 101", ErrorCode.MALFORMED).message().contains("count 1 to 100"));
        rejected("SPAWN 99999999999999999999", ErrorCode.MALFORMED);
        rejected("GET 99999999999999999999 Fog density", ErrorCode.MALFORMED);
        rejected("GET -5 Fog density", ErrorCode.MALFORMED);
        rejected("GET 5 9Fog density", ErrorCode.MALFORMED);
        rejected("SET 5 Fog density lots", ErrorCode.MALFORMED);
        rejected("HELLO " + "x".repeat(33), ErrorCode.MALFORMED);
    }

    @Test
    void shouldRejectUnknownVerbsAndNonAsciiBytes() {
        assertTrue(rejected("JUMP 1", ErrorCode.UNKNOWN).message().contains("send HELLO, MOVE, SPAWN, GET, SET or QUIT"));
        assertTrue(rejected("MOVE 1 2 \u00e93", ErrorCode.MALFORMED).message().contains("column 10"));
        rejected("SPAWN\u00001", ErrorCode.MALFORMED);
    }

    @Test
    void shouldCutEchoedClientTextSoRepliesStayShort() {
        String reply = rejected("JUMP" + "x".repeat(400), ErrorCode.UNKNOWN).message();
        assertTrue(reply.length() < 120, reply);
    }
}
