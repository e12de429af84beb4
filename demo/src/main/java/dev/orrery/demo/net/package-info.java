/**
 * The demo's networking layer: a TCP endpoint for clients and a load client to drive it.
 * It knows nothing of the engine; the simulation plugs in through
 * {@link dev.orrery.demo.net.ClientCommandSink} (commands in, offered by the server) and
 * {@link dev.orrery.demo.net.ClientReplies} (replies and {@code STATE} pushes out, which
 * {@link dev.orrery.demo.net.CommandServer} implements; a replay uses
 * {@code ClientReplies.discarding()}).
 *
 * <h2>Protocol</h2>
 * Lines of printable ASCII ending in {@code \n} ({@code \r\n} accepted), at most 512 bytes
 * before the line feed. Each non-blank request line gets the next number on its
 * connection, from 1; every reply carries it:
 * <pre>
 * HELLO &lt;name&gt;                              OK &lt;n&gt; &lt;clientId&gt;   (first, once)
 * MOVE &lt;squad&gt; &lt;x&gt; &lt;y&gt;                      OK &lt;n&gt;              (queued for a tick)
 * SPAWN &lt;count&gt;                             OK &lt;n&gt;              (queued for a tick)
 * GET &lt;entity&gt; &lt;component&gt; &lt;field&gt;         OK &lt;n&gt; &lt;value&gt;      (answered by the simulation)
 * SET &lt;entity&gt; &lt;component&gt; &lt;field&gt; &lt;value&gt; OK &lt;n&gt;              (answered by the simulation)
 * QUIT                                      OK &lt;n&gt; BYE (after every earlier GET/SET's answer), then close
 * any failure                               ERR &lt;n&gt; &lt;CODE&gt; &lt;message&gt;
 * pushed to every greeted client            STATE &lt;tick&gt; &lt;entities&gt; [summary]
 * over the connection limit                 ERR 0 FULL &lt;message&gt;, then close
 * </pre>
 * Replies the server gives itself come in request order; simulation answers come when the
 * simulation handles the command, so clients match replies by number; but {@code BYE}
 * waits for the answers to every {@code GET}/{@code SET} before the {@code QUIT} (at most the
 * stuck limit), and so does the close after a client ends its input. The codes are
 * {@link dev.orrery.demo.net.ErrorCode}'s; {@code demo/PROTOCOL.md} is the full reference.
 *
 * <h2>Threading conventions</h2>
 * One selector thread per server owns every socket and all per-client state
 * ({@code Connection}, {@code RequestDispatcher} are confined to it) and is the only caller
 * of the sink, so the sink has a single producer. Other threads talk to it only through a
 * lock-free hand-off queue ({@link java.util.concurrent.ConcurrentLinkedQueue}): putting a
 * line there happens-before the selector thread takes it, which gives the happens-before
 * edge from the simulation's state when it replied to the bytes on the wire. Counters are
 * atomics, readable from any thread. Nothing on the selector thread blocks: sockets are
 * non-blocking, queues are bounded, and a slow client is paused, trimmed or disconnected
 * rather than waited for.
 *
 * <h2>Limits</h2>
 * See {@link dev.orrery.demo.net.ServerConfig}: request line length, connections, bytes
 * queued per client (with {@code STATE} pushes dropped first), the stuck limit, the
 * hand-off capacity and the largest spawn wave; and
 * {@link dev.orrery.demo.net.ServerCounters} for what is counted.
 */
package dev.orrery.demo.net;
