package dev.orrery.demo.arena;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.orrery.demo.net.ClientCommand;
import dev.orrery.engine.InputBatch;
import org.junit.jupiter.api.Test;

class InputCodecTest {
    private final byte[] buf = new byte[InputCodec.MAX_PAYLOAD];
    private final byte[] scratch = new byte[InputCodec.MAX_PAYLOAD];

    private InputBatch one(ClientCommand c) {
        InputBatch b = new InputBatch();
        b.reset(5);
        b.add((int) c.clientId(), InputCodec.typeOf(c), buf, 0, InputCodec.encode(c, buf));
        return b;
    }

    @Test
    void shouldCarryMoveAndSpawnThroughTheirPayloads() {
        InputBatch move = one(new ClientCommand.MoveSquad(7, 3, 65, -12.5f, 40f));
        assertEquals(InputCodec.MOVE, move.type(0));
        assertEquals(7, InputCodec.clientId(move, 0));
        assertEquals(3, InputCodec.requestId(move, 0));
        assertEquals(65, move.payloadInt(0, 16));
        assertEquals(-12.5f, move.payloadFloat(0, 20));
        assertEquals(40f, move.payloadFloat(0, 24));
        InputBatch spawn = one(new ClientCommand.SpawnWave(8, 4, 250));
        assertEquals(InputCodec.SPAWN, spawn.type(0));
        assertEquals(250, spawn.payloadInt(0, 16));
    }

    @Test
    void shouldCarrySetNamesAndValueKinds() {
        InputBatch set = one(new ClientCommand.SetProperty(9, 12, 4294967297L, "Secondary", "damage", "-2.5e1"));
        assertEquals(InputCodec.SET, set.type(0));
        assertEquals(12, InputCodec.requestId(set, 0));
        assertEquals(4294967297L, set.payloadLong(0, 16));
        assertEquals(InputCodec.NUMBER, set.payloadByte(0, 24));
        assertEquals(-25.0, set.payloadDouble(0, 25));
        assertEquals("Secondary", InputCodec.setComponent(set, 0, scratch));
        assertEquals("damage", InputCodec.setField(set, 0, scratch));
        InputBatch flag = one(new ClientCommand.SetProperty(9, 13, 1, "A", "b", "true"));
        assertEquals(InputCodec.BOOLEAN, flag.payloadByte(0, 24));
        assertEquals(1.0, flag.payloadDouble(0, 25));
    }

    @Test
    void shouldRefuseToEncodeAGet() {
        assertEquals(0, InputCodec.typeOf(new ClientCommand.GetProperty(1, 1, 1, "Health", "hp")));
        assertThrows(IllegalArgumentException.class,
                () -> InputCodec.encode(new ClientCommand.GetProperty(1, 1, 1, "Health", "hp"), buf));
    }
}
