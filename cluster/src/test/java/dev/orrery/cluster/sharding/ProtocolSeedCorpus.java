package dev.orrery.cluster.sharding;

import dev.orrery.cluster.protocol.WorldMessage;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.Random;

/**
 * Writes the seed corpus of {@link ProtocolSerializerFuzzTest}: for every sample message,
 * the valid message and a truncated, a bit-flipped and a length-inflated copy (each length
 * field set to 2^31-1), each prefixed with its manifest's index. Run from the repository
 * root after changing the protocol, then commit the files:
 * {@code java -cp <cluster test classpath> dev.orrery.cluster.sharding.ProtocolSeedCorpus
 * cluster/src/test/resources/dev/orrery/cluster/sharding/ProtocolSerializerFuzzTestInputs/decode}.
 */
public final class ProtocolSeedCorpus {
    /** Writes the corpus into {@code args[0]}. */
    public static void main(String[] args) throws IOException {
        Path dir = Files.createDirectories(Path.of(args[0]));
        ProtocolFuzzing fuzz = ProtocolFuzzing.get();
        List<WorldMessage> samples = fuzz.samples();
        Random rnd = new Random(7);
        int written = 0;
        for (int i = 0; i < samples.size(); i++) {
            WorldMessage m = samples.get(i);
            String manifest = fuzz.serializer.manifest(m);
            int index = Arrays.asList(ProtocolFuzzing.MANIFESTS).indexOf(manifest);
            byte[] valid = fuzz.serializer.toBinary(m);
            if (valid.length > 4096) {
                continue; // the largest payload: the seeded sweep covers it, the corpus stays small
            }
            String name = m.getClass().getSimpleName() + "-" + i;
            written += write(dir, name + "-valid", index, valid);
            written += write(dir, name + "-truncated", index, Arrays.copyOf(valid, valid.length / 2));
            written += write(dir, name + "-bit-flipped", index,
                    ProtocolFuzzing.mutate(valid, ProtocolFuzzing.Mutation.BIT_FLIPPED, rnd));
            for (int at = 0; at + 4 <= Math.min(valid.length, 48); at += 4) {
                byte[] b = valid.clone();
                ProtocolFuzzing.putInt(b, at, Integer.MAX_VALUE);
                written += write(dir, name + "-length-inflated-at-" + at, index, b);
            }
        }
        written += write(dir, "unknown-manifest", 6, new byte[] {1, 2, 3});
        System.out.println("wrote " + written + " seeds to " + dir);
        fuzz.system.terminate();
    }

    private static int write(Path dir, String name, int manifest, byte[] message) throws IOException {
        byte[] input = new byte[message.length + 1];
        input[0] = (byte) manifest;
        System.arraycopy(message, 0, input, 1, message.length);
        Files.write(dir.resolve(name), input);
        return 1;
    }

    private ProtocolSeedCorpus() {
    }
}
