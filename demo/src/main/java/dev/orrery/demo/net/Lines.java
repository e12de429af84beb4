package dev.orrery.demo.net;

import java.nio.ByteBuffer;

/**
 * Encodes outbound lines. Text from the simulation is made safe for a line protocol here:
 * anything but printable ASCII becomes {@code '?'} (so a carriage return or line feed can
 * never split a reply), and a line is cut to {@link ServerConfig#MAX_OUTBOUND_LINE_BYTES}.
 *
 * <p><b>Threading:</b> stateless; called from the selector thread and from any thread that
 * hands off a reply.
 */
final class Lines {
    private Lines() {
    }

    /** One line, {@code text} plus a line feed, ready to write. */
    static ByteBuffer encode(String text) {
        int n = Math.min(text.length(), ServerConfig.MAX_OUTBOUND_LINE_BYTES - 1);
        byte[] bytes = new byte[n + 1];
        for (int i = 0; i < n; i++) {
            char ch = text.charAt(i);
            bytes[i] = ch >= 0x20 && ch <= 0x7e ? (byte) ch : (byte) '?';
        }
        bytes[n] = '\n';
        return ByteBuffer.wrap(bytes);
    }

    /**
     * {@code host:port} for a message ({@code [v6]:port} for IPv6): an InetSocketAddress's own
     * text reads {@code /127.0.0.1:7000}, or {@code name/127.0.0.1:7000}.
     */
    static String hostPort(java.net.InetSocketAddress a) {
        String host = a.getAddress() == null ? a.getHostString() : a.getAddress().getHostAddress();
        return (host.contains(":") ? "[" + host + "]" : host) + ":" + a.getPort();
    }

    /** {@code OK <request>} or {@code OK <request> <result>}. */
    static ByteBuffer ok(long requestId, String result) {
        return encode(result.isEmpty() ? "OK " + requestId : "OK " + requestId + " " + result);
    }

    /** {@code ERR <request> <code> <message>}. */
    static ByteBuffer error(long requestId, ErrorCode code, String message) {
        return encode("ERR " + requestId + " " + code.name() + " " + message);
    }
}
