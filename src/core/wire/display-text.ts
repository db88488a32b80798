/**
 * Which characters of an exchange-supplied string are unsafe to show (issue 30 "terminal
 * injection"; docs/threat-model.md "Attacks on the auditor"), and the one escaping every human
 * output applies at its edge. Unsafe: the C0 controls (U+0000–U+001F: NUL, BEL, ESC that starts
 * CSI/OSC sequences, CR and LF that forge lines), DEL (U+007F), the C1 controls (U+0080–U+009F,
 * among them the one-character CSI U+009B) and the bidirectional controls that reorder text
 * (U+202A–U+202E embeddings and overrides, U+2066–U+2069 isolates), which make one identifier read
 * as another. Each is shown as its `\uXXXX` escape, so what the exchange sent stays visible
 * without acting on the terminal. JSON output needs none of this: JSON escapes C0 itself and a
 * JSON reader sees the exact string.
 */

// biome-ignore lint/suspicious/noControlCharactersInRegex: matching control characters is the point
const UNSAFE = /[\u0000-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069]/g;
// biome-ignore lint/suspicious/noControlCharactersInRegex: matching control characters is the point
const UNSAFE_ONE = /[\u0000-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069]/;

const escapeChar = (ch: string): string => `\\u${(ch.codePointAt(0) ?? 0).toString(16).padStart(4, '0')}`;

/** True when `s` holds a control or bidirectional-control character (see the module comment). */
export function isUnsafeText(s: string): boolean {
  return UNSAFE_ONE.test(s);
}

/**
 * `s` with every control and bidirectional-control character written as its `\uXXXX` escape
 * (ESC → `\u001b`); `keepNewlines` leaves LF alone, for whole documents whose lines are the
 * renderer's own. Other text is returned as is.
 */
export function formatDisplayText(s: string, keepNewlines = false): string {
  if (!UNSAFE_ONE.test(s)) return s;
  return s.replace(UNSAFE, (ch) => (keepNewlines && ch === '\n' ? ch : escapeChar(ch)));
}

/** The unsafe characters of `s` as escapes, each once, in order of appearance (evidence of a finding). */
export function formatUnsafeChars(s: string): string[] {
  const out = new Set<string>();
  for (const m of s.matchAll(UNSAFE)) out.add(escapeChar(m[0]));
  return [...out];
}
