package dev.orrery.demo.net;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.Test;

/**
 * The server's counters print as the demo's other lines do, {@code name=value} pairs; the run's
 * last {@code server:} line once printed the raw record ({@code ServerCounters[connectionsAccepted=4, ...]}).
 */
class ServerCountersTest {
    @Test
    void shouldPrintEveryCounterAsNameEqualsValue() {
        ServerCounters c = new ServerCounters(1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15);
        assertEquals("connections_accepted=1 connections_refused=2 connections_open=3 messages_ok=4 "
                + "messages_malformed=5 messages_oversized=6 messages_busy=7 replies_dropped=8 states_dropped=9 "
                + "slow_disconnects=10 reads_paused=11 internal_errors=12 messages_refused=13 messages_throttled=14 "
                + "timeout_disconnects=15", c.line());
    }
}
