package dev.orrery.demo;

import picocli.CommandLine;

/**
 * How the command line turns an exception into its one error line: the message (with the
 * class name only where the message alone would not say what happened), a file-system
 * failure as the file, what is wrong and what to do, and the root cause where it adds
 * something; a server limit's internal name as the option that sets it ({@link #optionNames}).
 * {@link Main} prints the line after {@code orrery-demo: }.
 *
 * <p><b>Threading:</b> stateless; any thread.
 */
final class ErrorLine {
    private ErrorLine() {
    }

    /**
     * An exception as one line: its message (with the class name when the message alone would
     * not say what happened), then its root cause's message when that adds something (not when
     * the line holds it already, or a file-system cause's reason and file name: {@link #saidBy}).
     */
    static String oneLine(Throwable e) {
        return oneLine(e, java.util.function.UnaryOperator.identity());
    }

    /**
     * {@link #oneLine(Throwable)} with {@code rename} applied to both messages before they are
     * compared and joined, so a cause whose message the line already holds under other names
     * (a value's internal name where the line names the option) is not repeated.
     */
    static String oneLine(Throwable e, java.util.function.UnaryOperator<String> rename) {
        String text = rename.apply(describe(e));
        Throwable root = e;
        while (root.getCause() != null && root.getCause() != root) {
            root = root.getCause();
        }
        if (root != e) {
            String cause = rename.apply(describe(root));
            if (!text.contains(rename.apply(String.valueOf(root.getMessage()))) && !saidBy(text, root)) {
                text += " (caused by " + cause + ")";
            }
        }
        return text.replaceAll("[\\r\\n\\t]+", " ").strip();
    }

    /**
     * Whether {@code text} already says what the file-system failure {@code cause} says: its
     * reason (which the JDK's message prefixes with the path) and its file's name, as where the
     * command line puts a refusal's own reason after the option ({@code --record DIR: ...}).
     */
    private static boolean saidBy(String text, Throwable cause) {
        if (!(cause instanceof java.nio.file.FileSystemException fs) || fs.getReason() == null
                || fs.getFile() == null) {
            return false;
        }
        String file = fs.getFile();
        String name = file.substring(file.lastIndexOf(java.io.File.separatorChar) + 1);
        return text.contains(fs.getReason()) && text.contains(name);
    }

    /**
     * Whether {@code e} is an expected error, whose message says it all: bad input files and
     * options, I/O trouble. Engine exceptions are matched by simple name, so the demo does not
     * depend on which package the engine keeps them in.
     */
    static boolean expected(Throwable e) {
        String name = e.getClass().getSimpleName();
        return e instanceof java.io.IOException || e instanceof java.io.UncheckedIOException
                || e instanceof IllegalArgumentException || e instanceof CommandLine.ParameterException
                || name.equals("SnapshotException") || name.equals("ReplayDivergenceException");
    }

    /** ServerConfig's names of the values the command line's options set, and those options. */
    private static final String[][] LIMIT_OPTIONS = {{"maxConnectionsPerAddress", "--max-connections-per-address"},
        {"maxConnections", "--max-connections"}, {"clientRate", "--client-rate"}, {"clientBurst", "--client-burst"},
        {"maxSpawnCount", "--max-spawn"}, {"spawnBudget", "--spawn-budget"}, {"helloTimeout", "--hello-timeout"},
        {"idleTimeout", "--idle-timeout"}};

    /** {@code message} with each of ServerConfig's value names replaced by the option that sets it. */
    static String optionNames(String message) {
        String m = String.valueOf(message);
        for (String[] pair : LIMIT_OPTIONS) {
            m = m.replaceAll("\\b" + pair[0] + "\\b", pair[1]);
        }
        return m;
    }

    private static String describe(Throwable e) {
        if (e instanceof java.nio.file.FileSystemException fs && fs.getFile() != null) {
            return fileProblem(fs);
        }
        String m = e.getMessage();
        boolean plain = expected(e) || e instanceof IllegalStateException;
        if (m == null || m.isBlank()) {
            return e.getClass().getSimpleName();
        }
        return plain ? m : e.getClass().getSimpleName() + ": " + m;
    }

    /**
     * A file-system failure as one line naming the file, what is wrong and what to do; Java's
     * own message is often the path alone ({@code NoSuchFileException}) or the reason alone.
     */
    static String fileProblem(java.nio.file.FileSystemException e) {
        String file = e.getFile() + (e.getOtherFile() != null ? " (to " + e.getOtherFile() + ")" : "");
        if (e instanceof java.nio.file.NoSuchFileException) {
            return file + " does not exist; check the path (a folder given to an option must exist, or be creatable)";
        }
        if (e instanceof java.nio.file.AccessDeniedException) {
            return "permission denied on " + file + "; choose a path this user may read and write";
        }
        if (e instanceof java.nio.file.NotDirectoryException) {
            return file + " is not a folder; give the option a folder";
        }
        if (e instanceof java.nio.file.FileAlreadyExistsException) {
            return file + " already exists; give a new path so nothing is overwritten";
        }
        String reason = e.getReason();
        return "cannot use " + file + (reason == null ? "" : ": " + reason) + "; check the path and its permissions";
    }
}
