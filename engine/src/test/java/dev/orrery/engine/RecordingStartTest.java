package dev.orrery.engine;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.orrery.ecs.World;
import dev.orrery.ecs.component.Component;
import java.io.IOException;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A recording's start snapshot is written atomically: a temporary file, then a rename, so a
 * crash leaves it complete or absent (never the 0-byte file an in-place write left), and a
 * temporary file an earlier crash left behind does not block the next recording.
 */
class RecordingStartTest {
    record Hp(int hp) {
    }

    private static Simulation sim(World world) {
        Component<Hp> hp = world.component(Hp.class);
        return Simulation.builder(world).seed(3).systems(s -> s.system("heal").query(world.query().with(hp).build())
                .writes(hp).forEachChunk(job -> { })).build();
    }

    @Test
    void shouldWriteTheStartSnapshotThroughATemporaryFile(@TempDir Path dir) throws IOException {
        World world = new World();
        try (Simulation s = sim(world)) {
            world.entity().with(world.component(Hp.class), new Hp(7)).spawnMany(50);
            Path leftover = Files.write(dir.resolve(RunRecorder.SNAPSHOT + ".tmp"), new byte[] {1, 2, 3}); // a crash's
            byte[] expected = s.snapshot();
            long startHash = world.stateHash();
            try (RunRecorder rec = RunRecorder.start(s, dir, InputPipeline.builder(), Durability.EVERY_TICK)) {
                assertFalse(Files.exists(leftover), "the temporary file was renamed into place");
                assertArrayEquals(expected, Files.readAllBytes(dir.resolve(RunRecorder.SNAPSHOT)));
                s.tick();
            }
            World copy = new World();
            try (Simulation restored = sim(copy)) {
                restored.restore(Files.readAllBytes(dir.resolve(RunRecorder.SNAPSHOT)));
                assertEquals(50, copy.entityCount());
                assertEquals(startHash, copy.stateHash(), "the snapshot is the world as it was at the start");
            }
        }
    }

    @Test
    void shouldLeaveAnExistingRecordingAsItWas(@TempDir Path dir) throws IOException {
        byte[] earlier = {9, 9, 9};
        Files.write(dir.resolve(RunRecorder.SNAPSHOT), earlier);
        try (Simulation s = sim(new World())) {
            IOException e = assertThrows(IOException.class, () -> RunRecorder.start(s, dir, InputPipeline.builder()));
            assertTrue(e.getMessage().contains("already holds " + RunRecorder.SNAPSHOT), e.getMessage());
            // the JDK's type for it, naming the file, as the kit's GoldenRecording refuses it (a bare IOException before)
            assertEquals(dir.resolve(RunRecorder.SNAPSHOT).toString(),
                    assertInstanceOf(FileAlreadyExistsException.class, e).getFile());
        }
        assertArrayEquals(earlier, Files.readAllBytes(dir.resolve(RunRecorder.SNAPSHOT)));
        assertFalse(Files.exists(dir.resolve(RunRecorder.SNAPSHOT + ".tmp")));
    }

    @Test
    void shouldCloseWhatItOpenedWhenTheJournalCannotBeCreated(@TempDir Path dir) throws IOException {
        Assumptions.assumeTrue(Files.isDirectory(Path.of("/proc/self/fd")), "counts open files through /proc");
        // a dangling link: no journal is there to refuse, but creating one fails
        Files.createSymbolicLink(dir.resolve(RunRecorder.JOURNAL), dir.resolve("nowhere").resolve("journal"));
        try (Simulation s = sim(new World())) {
            assertThrows(IOException.class, () -> RunRecorder.start(s, dir, InputPipeline.builder()));
        }
        assertEquals(List.of(), openFilesUnder(dir), "the failed start left files of the recording open");
    }

    private static List<Path> openFilesUnder(Path dir) throws IOException {
        Path real = dir.toRealPath();
        List<Path> open = new ArrayList<>();
        try (Stream<Path> fds = Files.list(Path.of("/proc/self/fd"))) {
            for (Path fd : fds.toList()) {
                try {
                    Path target = Files.readSymbolicLink(fd);
                    if (target.startsWith(real)) {
                        open.add(target);
                    }
                } catch (IOException closedMeanwhile) {
                    // the descriptor of the listing itself, or one closed since: not ours
                }
            }
        }
        return open;
    }

    @Test
    void shouldRefuseASecondRecorderWhileOneRecordsSoTheFirstJournalKeepsEveryTick(@TempDir Path dir)
            throws IOException {
        Path first = dir.resolve("first");
        Path second = dir.resolve("second");
        World world = new World();
        long endHash;
        try (Simulation s = sim(world)) {
            world.entity().with(world.component(Hp.class), new Hp(7)).spawnMany(5);
            try (RunRecorder rec = RunRecorder.start(s, first, InputPipeline.builder())) {
                s.tick();
                IllegalStateException e = assertThrows(IllegalStateException.class,
                        () -> RunRecorder.start(s, second, InputPipeline.builder()));
                assertTrue(e.getMessage().contains("already records") && e.getMessage().contains("close it"),
                        e.getMessage());
                assertFalse(Files.exists(second.resolve(RunRecorder.SNAPSHOT)), "nothing was written");
                s.tick();
                s.tick();
            }
            endHash = world.stateHash();
        }
        try (Simulation fresh = sim(new World())) {
            RunReplayer.Result r = RunReplayer.replay(first, fresh);
            assertEquals(3, r.ticks(), "the first recording kept every tick");
            assertEquals(endHash, r.finalHash());
        }
    }

    @Test
    void shouldLeaveALaterRecorderAloneWhenAnEarlierOneIsClosedAgain(@TempDir Path dir) throws IOException {
        World world = new World();
        try (Simulation s = sim(world)) {
            world.entity().with(world.component(Hp.class), new Hp(7)).spawnMany(5);
            RunRecorder first = RunRecorder.start(s, dir.resolve("first"), InputPipeline.builder());
            s.tick();
            first.close();
            try (RunRecorder second = RunRecorder.start(s, dir.resolve("second"), InputPipeline.builder())) {
                Simulation.HashListener seconds = s.hashListenerSet();
                first.close(); // a second close, say by a try-with-resources around an explicit close
                assertTrue(s.hashListenerSet() == seconds, "the second recorder still logs the hashes");
                IllegalStateException e = assertThrows(IllegalStateException.class,
                        () -> RunRecorder.start(s, dir.resolve("third"), InputPipeline.builder()));
                assertTrue(e.getMessage().contains("already records"), "the second recorder still holds the "
                        + "simulation: " + e.getMessage());
                second.inputs().tryPublish(1, 1, new byte[0], 0, 0);
                s.tick();
                s.tick();
            }
            long end = world.stateHash();
            try (Simulation fresh = sim(new World())) {
                RunReplayer.Result r = RunReplayer.replay(dir.resolve("second"), fresh);
                assertEquals(2, r.ticks(), "the second journal kept its ticks and its input");
                assertEquals(end, r.finalHash());
            }
        }
    }
}
