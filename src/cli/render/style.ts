/**
 * Terminal styling for human output: ANSI colours only when the stream is a TTY and NO_COLOR is
 * unset (https://no-color.org), plus a plain-text table formatter.
 */

export interface Style {
  readonly red: (s: string) => string;
  readonly green: (s: string) => string;
  readonly yellow: (s: string) => string;
  readonly dim: (s: string) => string;
  readonly bold: (s: string) => string;
}

const wrap = (code: string) => (s: string) => `\u001b[${code}m${s}\u001b[0m`;
const id = (s: string): string => s;

/** Colours on only for a TTY without NO_COLOR (any value, even empty, disables colour). */
export function createStyle(stream: NodeJS.WritableStream, env: NodeJS.ProcessEnv): Style {
  const tty = (stream as { isTTY?: boolean }).isTTY === true;
  const on = tty && env.NO_COLOR === undefined;
  if (!on) return { red: id, green: id, yellow: id, dim: id, bold: id };
  return { red: wrap('31'), green: wrap('32'), yellow: wrap('33'), dim: wrap('2'), bold: wrap('1') };
}

/** Formats rows as a left-aligned table with a header underline; cells are plain strings. */
export function formatTable(header: readonly string[], rows: readonly (readonly string[])[]): string {
  // a loop, not Math.max(...rows): a spread of 100,000 rows overflows the call stack
  const widths = header.map((h) => h.length);
  for (const r of rows) for (const [i, c] of r.entries()) widths[i] = Math.max(widths[i] ?? 0, c.length);
  const line = (r: readonly string[]): string =>
    r
      .map((c, i) => c.padEnd(widths[i] ?? 0))
      .join('  ')
      .trimEnd();
  return [line(header), line(widths.map((w) => '-'.repeat(w))), ...rows.map(line)].join('\n');
}

/** JSON.stringify that writes bigints as decimal strings. */
export function stringifyJson(v: unknown, indent = 2): string {
  return JSON.stringify(v, (_k, x: unknown) => (typeof x === 'bigint' ? x.toString() : x), indent);
}
