package dev.orrery.demo.net;

import java.util.concurrent.atomic.AtomicLong;

/**
 * The server's live counters. Most are written by the selector thread only; the
 * drop counters are also written by threads handing off replies. Read as a
 * {@link ServerCounters} snapshot.
 */
final class Counters {
    final AtomicLong connectionsAccepted = new AtomicLong();
    final AtomicLong connectionsRefused = new AtomicLong();
    final AtomicLong connectionsOpen = new AtomicLong();
    final AtomicLong messagesOk = new AtomicLong();
    final AtomicLong messagesMalformed = new AtomicLong();
    final AtomicLong messagesOversized = new AtomicLong();
    final AtomicLong messagesBusy = new AtomicLong();
    final AtomicLong repliesDropped = new AtomicLong();
    final AtomicLong statesDropped = new AtomicLong();
    final AtomicLong slowDisconnects = new AtomicLong();
    final AtomicLong readsPaused = new AtomicLong();
    final AtomicLong internalErrors = new AtomicLong();
    final AtomicLong messagesRefused = new AtomicLong();
    final AtomicLong messagesThrottled = new AtomicLong();
    final AtomicLong timeoutDisconnects = new AtomicLong();

    ServerCounters snapshot() {
        return new ServerCounters(connectionsAccepted.get(), connectionsRefused.get(), connectionsOpen.get(),
                messagesOk.get(), messagesMalformed.get(), messagesOversized.get(), messagesBusy.get(),
                repliesDropped.get(), statesDropped.get(), slowDisconnects.get(), readsPaused.get(), internalErrors.get(),
                messagesRefused.get(), messagesThrottled.get(), timeoutDisconnects.get());
    }
}
