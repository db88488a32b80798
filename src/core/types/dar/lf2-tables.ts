/**
 * The LF 2.x interning tables for strings and dotted names (docs/protocol/dar-format.md §4.1, §5 rules
 * 1–2), decoded lazily: the package scan only records each entry's byte range, and an entry is
 * decoded (strict UTF-8; segment indices checked) the first time something references it.
 * A 1.5 MB package has ~8 000 strings and ~6 000 dotted names, of which data types use few.
 */
import { DarError } from '../../../errors/dar.js';
import { assertAtEnd, decodeUtf8Range, readInt32s, skipField, type WireReader } from './wire.js';

/** A read-only interning table; `get` returns undefined for an index out of range. */
export interface InternedTable<T> {
  readonly length: number;
  get(k: number): T | undefined;
}

/** Strings table over flat [start, end, start, end, …] ranges into `buf`. */
export function createStringTable(buf: Uint8Array, ranges: readonly number[]): InternedTable<string> {
  const n = ranges.length >> 1;
  const cache: (string | undefined)[] = new Array(n);
  return {
    length: n,
    get(k) {
      if (!(k >= 0 && k < n)) return undefined;
      let s = cache[k];
      if (s === undefined) {
        s = decodeUtf8Range(buf, ranges[2 * k]!, ranges[2 * k + 1]!, 'Package.interned_strings');
        cache[k] = s;
      }
      return s;
    },
  };
}

/** Dotted-name table over flat ranges of `InternedDottedName` messages; segments resolved through `strings`. */
export function createDottedNameTable(
  r: WireReader,
  ranges: readonly number[],
  strings: InternedTable<string>,
): InternedTable<readonly string[]> {
  const n = ranges.length >> 1;
  const cache: (readonly string[] | undefined)[] = new Array(n);
  return {
    length: n,
    get(k) {
      if (!(k >= 0 && k < n)) return undefined;
      const hit = cache[k];
      if (hit !== undefined) return hit;
      const saved = r.pos;
      const e = ranges[2 * k + 1]!;
      r.pos = ranges[2 * k]!;
      const segs: number[] = [];
      while (r.pos < e) {
        const tag = r.uint32();
        if (tag >>> 3 === 1) readInt32s(r, tag & 7, e, segs, 'InternedDottedName.segments_interned_str');
        else skipField(r, tag & 7, 'InternedDottedName');
      }
      assertAtEnd(r, e, 'InternedDottedName');
      r.pos = saved;
      const names = Object.freeze(
        segs.map((i) => {
          const s = strings.get(i);
          if (s === undefined) {
            throw new DarError(
              'DAR_INTERNED_INDEX_OUT_OF_RANGE',
              `"InternedDottedName.segments_interned_str" expected an interned string index below ${strings.length}, got ${i}`,
            );
          }
          return s;
        }),
      );
      cache[k] = names;
      return names;
    },
  };
}
