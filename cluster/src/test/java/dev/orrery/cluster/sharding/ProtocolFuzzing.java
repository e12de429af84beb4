package dev.orrery.cluster.sharding;

import com.typesafe.config.ConfigFactory;
import dev.orrery.cluster.protocol.InputReply;
import dev.orrery.cluster.protocol.WorldMessage;
import dev.orrery.cluster.protocol.WorldStatus;
import java.io.NotSerializableException;
import java.lang.management.ManagementFactory;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HexFormat;
import java.util.List;
import java.util.Random;
import org.apache.pekko.actor.ExtendedActorSystem;
import org.apache.pekko.actor.typed.ActorRef;
import org.apache.pekko.actor.typed.ActorSystem;
import org.apache.pekko.actor.typed.javadsl.Adapter;
import org.apache.pekko.actor.typed.javadsl.Behaviors;

/**
 * The protocol fuzzing harness shared by {@link ProtocolSerializerTest} (seeded mutations)
 * and {@link ProtocolSerializerFuzzTest} (Jazzer): one local actor system (for actor
 * references), the serializer, a valid sample of every message type, the mutations, and
 * {@link #decode}, which fails unless the serializer either returns a message or throws
 * {@link NotSerializableException}, allocating at most {@link #allocationBound} bytes.
 */
final class ProtocolFuzzing {
    /** The manifests of the protocol, then ones it does not know. */
    static final String[] MANIFESTS = {"S", "G", "H", "R", "W", "", "Z", "SS"};

    private static ProtocolFuzzing shared;

    final ActorSystem<Void> system;
    final ProtocolSerializer serializer;
    private final com.sun.management.ThreadMXBean threads =
            (com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean();
    long decodes;
    long refusals;
    long maxAllocated;

    private ProtocolFuzzing() {
        system = ActorSystem.create(Behaviors.empty(), "fuzz", ConfigFactory.parseString(String.join("\n",
                "pekko.loglevel = OFF", "pekko.stdout-loglevel = OFF", "pekko.log-dead-letters = off",
                "pekko.daemonic = on"))
                .withFallback(ConfigFactory.load()));
        serializer = new ProtocolSerializer((ExtendedActorSystem) Adapter.toClassic(system));
        threads.setThreadAllocatedMemoryEnabled(true);
        warmUp();
    }

    /**
     * Runs every decoding path once, unmeasured, so that loading classes on a path's first
     * use (the resolver's set-up, exception classes) is not counted against one decode.
     */
    private void warmUp() {
        Random rnd = new Random(-1);
        List<WorldMessage> samples = samples();
        Mutation[] mutations = Mutation.values();
        for (int i = 0; i < 5_000; i++) {
            WorldMessage m = samples.get(i % samples.size());
            byte[] bytes = i < samples.size() ? serializer.toBinary(m)
                    : mutate(serializer.toBinary(m), mutations[i % mutations.length], rnd);
            try {
                serializer.fromBinary(bytes, MANIFESTS[i % MANIFESTS.length]);
                serializer.fromBinary(bytes, serializer.manifest(m));
            } catch (NotSerializableException expected) {
                // the path is warm now
            }
        }
    }

    /** The harness of this JVM, started on first use (Jazzer and JUnit share it; the system is a daemon). */
    static synchronized ProtocolFuzzing get() {
        if (shared == null) {
            shared = new ProtocolFuzzing();
        }
        return shared;
    }

    /** A valid message of every type, with edge values: empty and largest payload, long and non-ASCII text. */
    List<WorldMessage> samples() {
        ActorRef<InputReply> replies = system.deadLetters();
        ActorRef<WorldStatus> statuses = system.deadLetters();
        byte[] big = new byte[serializer.maxPayloadBytes()];
        new Random(1).nextBytes(big);
        String longText = "w".repeat(serializer.maxTextBytes() / 2) + "\u00e9\u4e16\ud83c\udf0d";
        List<WorldMessage> out = new ArrayList<>();
        out.add(new SubmitInput(0x1234_5678_9abc_def0L, 1, 7, 3, new byte[] {1, 2, 3, 4, 5, 6, 7, 8}, replies));
        out.add(new SubmitInput(-1, Long.MAX_VALUE, -1, Integer.MIN_VALUE, new byte[0], replies));
        out.add(new SubmitInput(42, 9, 1, 2, big, replies));
        out.add(new GetStatus(statuses));
        out.add(new Hold(true, statuses));
        out.add(new Hold(false, statuses));
        out.add(InputReply.accepted("arena-3", 99, 12, 4_500, 7));
        out.add(InputReply.refused("w", -5, 1, -1, "too old"));
        out.add(InputReply.unknown(longText.substring(0, 64), 1, 2, 3, longText.substring(0, 400)));
        out.add(new WorldStatus("arena-0", "pekko://orrery@127.0.0.1:25520", 3, 900, 0x0123_4567_89ab_cdefL, true, 600,
                300, 12.5, 1_700_000_000_000L));
        out.add(new WorldStatus(longText, longText, -1, -1, -1, false, -1, 0, Double.NaN, 0));
        return out;
    }

    /**
     * Decodes {@code bytes} as {@code manifest}: returns the message, or null if the
     * serializer refused it with its own exception.
     *
     * @throws AssertionError for any other outcome (another exception, an Error, or an
     *     allocation over the bound), with the input in hex
     */
    Object decode(byte[] bytes, String manifest) {
        long before = threads.getCurrentThreadAllocatedBytes();
        Object message;
        try {
            message = serializer.fromBinary(bytes, manifest);
        } catch (NotSerializableException refused) {
            message = null;
            refusals++;
            if (refused.getMessage() == null || refused.getMessage().isBlank()) {
                throw new AssertionError("a refusal without a message for " + describe(bytes, manifest));
            }
        } catch (Throwable other) {
            throw new AssertionError("the serializer threw " + other + " (not NotSerializableException) for "
                    + describe(bytes, manifest), other);
        }
        long allocated = threads.getCurrentThreadAllocatedBytes() - before;
        decodes++;
        maxAllocated = Math.max(maxAllocated, allocated);
        if (allocated > allocationBound(bytes.length)) {
            throw new AssertionError("decoding allocated " + allocated + " bytes, over the bound of "
                    + allocationBound(bytes.length) + " for " + describe(bytes, manifest));
        }
        return message;
    }

    /**
     * What one decode may allocate: a few times the message (the copied payload, decoded
     * text, the resolver parsing a reference) plus 256 KiB for what a first use of a code
     * path loads; nothing proportional to a length field's value.
     */
    static long allocationBound(int length) {
        return 8L * length + 256 * 1024;
    }

    static String describe(byte[] bytes, String manifest) {
        byte[] head = Arrays.copyOf(bytes, Math.min(bytes.length, 96));
        return "manifest '" + manifest + "', " + bytes.length + " bytes: " + HexFormat.of().formatHex(head)
                + (bytes.length > head.length ? "..." : "");
    }

    /** The kinds of damage done to a valid message. */
    enum Mutation {
        RANDOM, TRUNCATED, BIT_FLIPPED, LENGTH_INFLATED, APPENDED, SPLICED
    }

    /** Lengths a hostile sender puts in a length field. */
    static final int[] HOSTILE_LENGTHS = {Integer.MAX_VALUE, Integer.MIN_VALUE, -1, 0x7fff_fff0, 0x0100_0000, 65_537,
        65_536, 16_385, 4_097};

    /** {@code valid} damaged by {@code m}, with {@code rnd} choosing where. */
    static byte[] mutate(byte[] valid, Mutation m, Random rnd) {
        switch (m) {
            case RANDOM: {
                byte[] b = new byte[rnd.nextInt(rnd.nextInt(8) == 0 ? 70_000 : 200)];
                rnd.nextBytes(b);
                return b;
            }
            case TRUNCATED:
                return Arrays.copyOf(valid, valid.length == 0 ? 0 : rnd.nextInt(valid.length));
            case BIT_FLIPPED: {
                byte[] b = valid.clone();
                for (int i = 0, n = 1 + rnd.nextInt(3); i < n && b.length > 0; i++) {
                    b[rnd.nextInt(b.length)] ^= (byte) (1 << rnd.nextInt(8));
                }
                return b;
            }
            case LENGTH_INFLATED: {
                byte[] b = valid.clone();
                if (b.length >= 4) {
                    putInt(b, rnd.nextInt(b.length - 3), HOSTILE_LENGTHS[rnd.nextInt(HOSTILE_LENGTHS.length)]);
                }
                return b;
            }
            case APPENDED: {
                byte[] b = Arrays.copyOf(valid, valid.length + 1 + rnd.nextInt(16));
                return b;
            }
            default: {
                byte[] b = valid.clone();
                if (b.length > 0) {
                    int at = rnd.nextInt(b.length);
                    byte[] noise = new byte[Math.min(b.length - at, 1 + rnd.nextInt(12))];
                    rnd.nextBytes(noise);
                    System.arraycopy(noise, 0, b, at, noise.length);
                }
                return b;
            }
        }
    }

    static void putInt(byte[] b, int at, int v) {
        b[at] = (byte) (v >>> 24);
        b[at + 1] = (byte) (v >>> 16);
        b[at + 2] = (byte) (v >>> 8);
        b[at + 3] = (byte) v;
    }
}
