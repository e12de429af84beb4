package dev.orrery.bench;

import dev.orrery.bench.fixture.CommandLine;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;

/**
 * A report main in miniature whose worker thread runs out of heap while its main thread waits
 * for the result the worker never hands over: what {@link ReportMainsOutOfMemoryTest} runs in a
 * JVM of its own, where a worker's {@link OutOfMemoryError} used to print the worker's trace and
 * leave the main thread waiting.
 */
public final class WorkerOutOfHeapMain {
    private WorkerOutOfHeapMain() {
    }

    /**
     * Starts the worker and waits for it.
     *
     * @param args {@code --blocks N}, taken only to be named in the line
     * @throws Exception never: the run ends out of heap
     */
    public static void main(String[] args) throws Exception {
        CommandLine.main(WorkerOutOfHeapMain.class, args, a -> {
            CountDownLatch result = new CountDownLatch(1);
            Thread worker = new Thread(() -> {
                List<long[]> held = new ArrayList<>();
                while (true) {
                    held.add(new long[1 << 16]); // 512 KiB a block, until the heap is full
                }
            }, "report-worker");
            worker.start();
            result.await(); // never counted down: the worker dies instead
        });
    }
}
