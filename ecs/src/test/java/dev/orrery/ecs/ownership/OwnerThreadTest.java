package dev.orrery.ecs.ownership;

import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

class OwnerThreadTest {
    @Test
    void shouldAcceptEveryCallerWhileUnbound() {
        OwnerThread owner = new OwnerThread("thing");
        assertNull(owner.owner());
        assertNull(OtherThread.run(() -> owner.checkCaller("poke")));
        assertTrue(owner.checkCaller("poke"));
    }

    @Test
    void shouldRefuseAnotherThreadNamingObjectOperationAndBothThreads() {
        OwnerThread owner = new OwnerThread("thing 7");
        owner.bind(Thread.currentThread());
        assertTrue(owner.checkCaller("poke"));
        Throwable t = OtherThread.run(() -> owner.checkCaller("poke"));
        AssertionError e = assertInstanceOf(AssertionError.class, t);
        String m = e.getMessage();
        assertTrue(m.contains("thing 7") && m.contains("poke") && m.contains("intruder")
                && m.contains(Thread.currentThread().getName()) && m.contains("bindOwner"), m);
    }

    @Test
    void shouldMoveWithARebinding() {
        OwnerThread owner = new OwnerThread("thing");
        Thread worker = new Thread(() -> owner.checkCaller("poke"));
        owner.bind(worker);
        assertSame(worker, owner.owner());
        assertInstanceOf(AssertionError.class, OtherThread.run(() -> owner.checkCaller("poke")));
        owner.bind(null);
        assertNull(OtherThread.run(() -> owner.checkCaller("poke")), "unbinding lifts the check");
    }
}
