package dev.orrery.scheduler;

import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

/**
 * A key with no value is refused alike by {@link Resources#get} and {@link Resources#getForWrite}:
 * an {@link IllegalStateException} naming the key; only {@code get}'s Javadoc said so before
 * (behaviour unchanged, so this passes on the old code too).
 */
class ResourcesMissingValueTest {
    @Test
    void getAndGetForWriteRefuseAMissingValueAlike() {
        ResourceKey<StringBuilder> key = ResourceKey.of("log", StringBuilder.class);
        Resources resources = new Resources();
        IllegalStateException read = assertThrows(IllegalStateException.class, () -> resources.get(key));
        IllegalStateException write = assertThrows(IllegalStateException.class, () -> resources.getForWrite(key));
        assertTrue(read.getMessage().contains("'log'") && write.getMessage().equals(read.getMessage()),
                write.getMessage());
    }
}
