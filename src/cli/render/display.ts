/**
 * The edge of every human output (text reports, stderr lines, `inspect-dar`): exchange-supplied
 * strings reach the terminal with their control and bidirectional-control characters escaped
 * (src/core/wire/display-text.ts; issue 30 "terminal injection"). `formatDisplayValue` escapes every
 * string of a report before a text renderer lays it out, so the renderer's own colours and line
 * breaks are the only control characters it writes; single stderr lines call `formatDisplayText`.
 */
import { formatDisplayText } from '../../core/wire/display-text.js';

const isPlainObject = (v: object): boolean => {
  const p = Object.getPrototypeOf(v) as unknown;
  return p === Object.prototype || p === null;
};

/** `v` with every string inside it (plain objects and arrays, any depth) escaped for display. */
export function formatDisplayValue<T>(v: T): T {
  if (typeof v === 'string') return formatDisplayText(v) as T;
  if (typeof v !== 'object' || v === null) return v;
  if (Array.isArray(v)) return v.map((x: unknown) => formatDisplayValue(x)) as T;
  if (!isPlainObject(v)) return v;
  const out: Record<string, unknown> = {};
  for (const [k, x] of Object.entries(v)) out[k] = formatDisplayValue(x);
  return out as T;
}
