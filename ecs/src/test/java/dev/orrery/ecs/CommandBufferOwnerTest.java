package dev.orrery.ecs;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.orrery.ecs.ownership.OtherThread;
import org.junit.jupiter.api.Test;

/** A bound command buffer asserts (under {@code -ea}) that only its owner records. */
class CommandBufferOwnerTest {
    @Test
    void shouldRefuseRecordingFromAThreadThatDoesNotOwnTheBuffer() {
        assertTrue(OtherThread.assertionsEnabled(), "this test needs -ea, as surefire sets it");
        CommandBuffer buffer = new CommandBuffer(7);
        buffer.bindOwner(Thread.currentThread());
        long mine = buffer.spawn();
        AssertionError e = assertInstanceOf(AssertionError.class, OtherThread.run(buffer::spawn));
        assertTrue(e.getMessage().contains("command buffer 7") && e.getMessage().contains("intruder"), e.getMessage());
        assertInstanceOf(AssertionError.class, OtherThread.run(() -> buffer.despawn(mine)));
        assertEquals(1, buffer.commandCount(), "the refused commands were not recorded");
        assertEquals(mine + 1, buffer.spawn(), "a refused spawn used no provisional handle");
    }

    @Test
    void shouldLetAnyOneThreadRecordWhileUnbound() {
        CommandBuffer buffer = new CommandBuffer(3);
        assertNull(OtherThread.run(buffer::spawn));
        assertEquals(1, buffer.commandCount());
    }
}
