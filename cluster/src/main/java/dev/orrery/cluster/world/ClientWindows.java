package dev.orrery.cluster.world;

import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.util.HashMap;
import java.util.Iterator;
import java.util.Map;

/**
 * Which inputs a world has applied, per client id: the highest sequence and, for the
 * {@code window} sequences up to it, the tick each applied in. Updated as ticks are stamped
 * (live or replayed), written into the world's snapshots, and forgotten per client after
 * {@code expiryTicks} ticks without an input (checked every {@value #EXPIRE_EVERY} ticks, at
 * the same ticks live and in replay).
 *
 * <p><b>Threading:</b> the world's tick thread only (one thread at a time, as its runtime).
 */
final class ClientWindows {
    static final int EXPIRE_EVERY = 256;
    private static final int FORMAT = 1;

    private final int window;
    private final int maxClients;
    private final long expiryTicks;
    private final Map<Long, Client> clients = new HashMap<>();

    /** One client's window: slot {@code seq % capacity} holds the seq and its tick when applied. */
    private static final class Client {
        long high;
        long lastTick;
        long[] seqs;
        long[] ticks;

        Client(int capacity) {
            seqs = new long[capacity];
            ticks = new long[capacity];
        }
    }

    ClientWindows(int window, int maxClients, long expiryTicks) {
        this.window = window;
        this.maxClients = maxClients;
        this.expiryTicks = expiryTicks;
    }

    int clients() {
        return clients.size();
    }

    boolean knows(long clientId) {
        return clients.containsKey(clientId);
    }

    boolean full(int more) {
        return clients.size() + more >= maxClients;
    }

    /** The tick {@code seq} of {@code clientId} applied in, or -1 if it has not (as far as the window reaches). */
    long appliedTick(long clientId, long seq) {
        Client c = clients.get(clientId);
        if (c == null || seq > c.high || seq <= c.high - window) {
            return -1;
        }
        int slot = (int) Math.floorMod(seq, (long) c.seqs.length);
        return c.seqs[slot] == seq ? c.ticks[slot] : -1;
    }

    /** Whether {@code seq} lies below the window of {@code clientId}: its outcome is no longer known. */
    boolean tooOld(long clientId, long seq) {
        Client c = clients.get(clientId);
        return c != null && seq <= c.high - window;
    }

    /** The highest sequence of {@code clientId} applied (0 if none, or forgotten). */
    long highest(long clientId) {
        Client c = clients.get(clientId);
        return c == null ? 0 : c.high;
    }

    /** Input {@code seq} of {@code clientId} applied in {@code tick}. */
    void applied(long clientId, long seq, long tick) {
        Client c = clients.computeIfAbsent(clientId, id -> new Client(Math.min(window, 8)));
        if (seq > c.high) {
            c.high = seq;
        }
        c.lastTick = Math.max(c.lastTick, tick);
        long floor = c.high - window; // sequences at or below it are out of the window
        if (seq <= floor) {
            return; // applied below the window (a client past its contract): nothing to remember
        }
        // Slots are seq % capacity: the remembered sequences must span less than the capacity.
        int cap = c.seqs.length;
        if (cap < window) {
            long lowest = seq;
            for (long s : c.seqs) {
                if (s > floor && s < lowest) {
                    lowest = s;
                }
            }
            long span = c.high - lowest;
            if (span >= cap) {
                regrow(c, (int) Math.min(window, Math.max(span + 1, 2L * cap)), floor);
            }
        }
        int slot = (int) Math.floorMod(seq, (long) c.seqs.length);
        c.seqs[slot] = seq;
        c.ticks[slot] = tick;
    }

    private static void regrow(Client c, int capacity, long floor) {
        long[] seqs = new long[capacity];
        long[] ticks = new long[capacity];
        for (int i = 0; i < c.seqs.length; i++) {
            long s = c.seqs[i];
            if (s > floor) {
                int slot = (int) Math.floorMod(s, (long) capacity);
                seqs[slot] = s;
                ticks[slot] = c.ticks[i];
            }
        }
        c.seqs = seqs;
        c.ticks = ticks;
    }

    /** At tick {@code tick}: forgets the clients idle for longer than the expiry, every {@value #EXPIRE_EVERY} ticks. */
    void tick(long tick) {
        if (tick % EXPIRE_EVERY != 0) {
            return;
        }
        for (Iterator<Client> it = clients.values().iterator(); it.hasNext(); ) {
            if (tick - it.next().lastTick > expiryTicks) {
                it.remove();
            }
        }
    }

    void write(DataOutputStream out) throws IOException {
        out.writeInt(FORMAT);
        out.writeInt(clients.size());
        for (Map.Entry<Long, Client> e : clients.entrySet()) {
            Client c = e.getValue();
            out.writeLong(e.getKey());
            out.writeLong(c.high);
            out.writeLong(c.lastTick);
            int n = 0;
            for (long s : c.seqs) {
                n += s != 0 && s > c.high - window ? 1 : 0;
            }
            out.writeInt(n);
            for (int i = 0; i < c.seqs.length; i++) {
                if (c.seqs[i] != 0 && c.seqs[i] > c.high - window) {
                    out.writeLong(c.seqs[i]);
                    out.writeLong(c.ticks[i]);
                }
            }
        }
    }

    void read(DataInputStream in, String worldId) throws IOException {
        clients.clear();
        int format = in.readInt();
        if (format != FORMAT) {
            throw new IOException("world '" + worldId + "': the snapshot's input window has format " + format + ", not "
                    + FORMAT + "; it was written by another Orrery version");
        }
        int n = in.readInt();
        if (n < 0 || n > in.available() / 28) {
            throw new IOException("world '" + worldId + "': the snapshot's input window claims " + n
                    + " clients, more than its bytes hold; the snapshot is damaged");
        }
        for (int i = 0; i < n; i++) {
            long id = in.readLong();
            long high = in.readLong();
            long lastTick = in.readLong();
            int entries = in.readInt();
            if (entries < 0 || entries > window || entries > in.available() / 16) {
                throw new IOException("world '" + worldId + "': the snapshot's window of client " + id + " claims "
                        + entries + " sequences (window " + window + "); the snapshot is damaged, or the nodes run "
                        + "with different windows");
            }
            Client c = new Client(Math.min(window, 8));
            c.high = high;
            c.lastTick = lastTick;
            clients.put(id, c);
            for (int k = 0; k < entries; k++) {
                long seq = in.readLong();
                long tick = in.readLong();
                if (seq < 1 || seq > high) {
                    throw new IOException("world '" + worldId + "': the snapshot's window of client " + id
                            + " holds sequence " + seq + " above its highest " + high + "; the snapshot is damaged");
                }
                applied(id, seq, tick);
            }
        }
    }
}
