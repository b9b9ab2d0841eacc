// Runs inside the sandbox, appended to the judge's generated JudgeHarness.java (never to the
// submission's file): reads the call's arguments -- a JSON list on stdin, which the judge has
// checked fits the signature -- and writes the return value as JSON. Imports nothing of the judge;
// names are fully qualified so that no class of the submission can shadow them.
final class JudgeJson {
    interface Item<T> { T read(); }

    private final String text;
    private int pos;

    JudgeJson(java.io.InputStream in) throws java.io.IOException {
        text = new String(in.readAllBytes(), java.nio.charset.StandardCharsets.UTF_8);
    }

    private void fail(String what) {
        System.err.println();
        System.err.println("judge harness: " + what + " at character " + pos + " of the arguments");
        System.exit(1);
    }

    char peek() {
        while (pos < text.length() && " \t\r\n".indexOf(text.charAt(pos)) >= 0) pos++;
        return pos < text.length() ? text.charAt(pos) : '\0';
    }

    void expect(char wanted) {
        if (peek() != wanted) fail("expected '" + wanted + "'");
        pos++;
    }

    private boolean more() {
        if (peek() != ',') return false;
        pos++;
        return true;
    }

    private String number() {
        peek();
        int start = pos;
        while (pos < text.length() && "+-0123456789.eE".indexOf(text.charAt(pos)) >= 0) pos++;
        if (start == pos) fail("expected a number");
        return text.substring(start, pos);
    }

    int readInt() {
        try { return Integer.parseInt(number()); } catch (NumberFormatException e) { fail("expected an int"); return 0; }
    }

    long readLong() {
        try { return Long.parseLong(number()); } catch (NumberFormatException e) { fail("expected a long"); return 0; }
    }

    double readDouble() {
        try { return Double.parseDouble(number()); } catch (NumberFormatException e) { fail("expected a double"); return 0; }
    }

    boolean readBool() {
        peek();
        if (text.startsWith("true", pos)) { pos += 4; return true; }
        if (text.startsWith("false", pos)) { pos += 5; return false; }
        fail("expected true or false");
        return false;
    }

    String readString() {
        expect('"');
        StringBuilder value = new StringBuilder();
        while (true) {
            if (pos >= text.length()) fail("unterminated string");
            char c = text.charAt(pos++);
            if (c == '"') return value.toString();
            if (c != '\\') { value.append(c); continue; }
            c = text.charAt(pos++);
            switch (c) {
                case 'b': value.append('\b'); break;
                case 'f': value.append('\f'); break;
                case 'n': value.append('\n'); break;
                case 'r': value.append('\r'); break;
                case 't': value.append('\t'); break;
                case 'u': value.append((char) Integer.parseInt(text.substring(pos, pos + 4), 16)); pos += 4; break;
                default: value.append(c);  // \" \\ \/
            }
        }
    }

    <T> java.util.ArrayList<T> list(Item<T> item) {
        java.util.ArrayList<T> items = new java.util.ArrayList<>();
        expect('[');
        if (peek() != ']') {
            do { items.add(item.read()); } while (more());
        }
        expect(']');
        return items;
    }

    int[] ints() { return list(this::readInt).stream().mapToInt(Integer::intValue).toArray(); }
    long[] longs() { return list(this::readLong).stream().mapToLong(Long::longValue).toArray(); }
    double[] doubles() { return list(this::readDouble).stream().mapToDouble(Double::doubleValue).toArray(); }
    String[] strings() { return list(this::readString).toArray(new String[0]); }

    boolean[] bools() {
        java.util.ArrayList<Boolean> items = list(this::readBool);
        boolean[] values = new boolean[items.size()];
        for (int i = 0; i < values.length; i++) values[i] = items.get(i);
        return values;
    }

    int[][] ints2() { return list(this::ints).toArray(new int[0][]); }
    long[][] longs2() { return list(this::longs).toArray(new long[0][]); }
    double[][] doubles2() { return list(this::doubles).toArray(new double[0][]); }
    boolean[][] bools2() { return list(this::bools).toArray(new boolean[0][]); }
    String[][] strings2() { return list(this::strings).toArray(new String[0][]); }

    /** A returned value as JSON: numbers, booleans, strings and arrays of them (null as null). */
    static String json(Object value) {
        StringBuilder out = new StringBuilder();
        write(out, value);
        return out.toString();
    }

    private static void write(StringBuilder out, Object value) {
        if (value == null) {
            out.append("null");
        } else if (value.getClass().isArray()) {
            out.append('[');
            for (int i = 0, n = java.lang.reflect.Array.getLength(value); i < n; i++) {
                if (i > 0) out.append(',');
                write(out, java.lang.reflect.Array.get(value, i));
            }
            out.append(']');
        } else if (value instanceof String) {
            out.append('"');
            for (char c : ((String) value).toCharArray()) {
                if (c == '"' || c == '\\') out.append('\\').append(c);
                else if (c < 0x20) out.append(String.format("\\u%04x", (int) c));
                else out.append(c);
            }
            out.append('"');
        } else {
            // Double.toString reads back as the same double, always with a . or an exponent;
            // NaN and Infinity are written as Python's json writes them.
            out.append(value);
        }
    }

    /** The submission threw: its exception and its own stack frames on stderr, then exit 1. */
    static void fail(Throwable error) {
        System.out.flush();
        for (Throwable cause = error; cause != null; cause = cause.getCause()) {
            System.err.println((cause == error ? "" : "Caused by: ") + cause);
            int shown = 0;
            for (StackTraceElement frame : cause.getStackTrace()) {
                if (frame.getClassName().equals("JudgeHarness") || shown++ == 30) break;
                System.err.println("\tat " + frame);
            }
        }
        System.err.flush();
        System.exit(1);
    }
}
