package dev.orrery.examples;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.orrery.examples.book.CommandsChapter;
import dev.orrery.examples.book.ComponentsChapter;
import dev.orrery.examples.book.DeterminismChapter;
import dev.orrery.examples.book.ExplorerChapter;
import dev.orrery.examples.book.GameLoopChapter;
import dev.orrery.examples.book.ManyWorldsChapter;
import dev.orrery.examples.book.NamedChapter;
import dev.orrery.examples.book.PerformanceChapter;
import dev.orrery.examples.book.QueriesChapter;
import dev.orrery.examples.book.ReactingChapter;
import dev.orrery.examples.book.RelationsChapter;
import dev.orrery.examples.book.SimulationChapter;
import dev.orrery.examples.book.SnapshotsChapter;
import dev.orrery.examples.book.SystemsChapter;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Every chapter's code runs, not only compiles: each chapter class's main runs its snippets
 * under {@code -ea} (checked mode and strict playback on), and their own checks throw when a
 * snippet does not do what the chapter says.
 */
class BookChaptersTest {
    static Stream<Arguments> chapters() {
        return Stream.of(
                Arguments.of("components", (Programs.Main) ComponentsChapter::main, new String[0]),
                Arguments.of("queries", (Programs.Main) QueriesChapter::main, new String[0]),
                Arguments.of("systems", (Programs.Main) SystemsChapter::main, new String[0]),
                Arguments.of("commands", (Programs.Main) CommandsChapter::main, new String[0]),
                Arguments.of("reacting", (Programs.Main) ReactingChapter::main, new String[0]),
                Arguments.of("relations", (Programs.Main) RelationsChapter::main, new String[0]),
                Arguments.of("named", (Programs.Main) NamedChapter::main, new String[0]),
                Arguments.of("simulation", (Programs.Main) SimulationChapter::main, new String[0]),
                Arguments.of("snapshots", (Programs.Main) SnapshotsChapter::main, new String[0]),
                Arguments.of("determinism", (Programs.Main) DeterminismChapter::main, new String[0]),
                Arguments.of("performance", (Programs.Main) PerformanceChapter::main, new String[0]),
                Arguments.of("many worlds", (Programs.Main) ManyWorldsChapter::main, new String[0]),
                Arguments.of("explorer", (Programs.Main) ExplorerChapter::main, new String[] {"0", "30"}),
                Arguments.of("game loop", (Programs.Main) GameLoopChapter::main, new String[0]));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("chapters")
    @Timeout(300)
    void shouldRunTheChapterCode(String chapter, Programs.Main main, String[] args) throws Exception {
        List<String> lines = Programs.run(main, args);
        assertFalse(lines.isEmpty(), chapter + " printed nothing");
        assertTrue(lines.get(lines.size() - 1).endsWith("chapter: ok"), chapter + " did not reach its end: " + lines);
    }
}
