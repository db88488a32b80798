/**
 * The strict, path-tracking JSON shape reader behind every `parse*Response` function
 * (docs/protocol/public-api.md "Conventions", docs/protocol/api-decisions.md §1 number formats).
 *
 * Hostile input: the reader only descends into documented keys (so depth is bounded by the
 * schema), reads own properties only (`Object.hasOwn`; a `__proto__` key from JSON.parse is an
 * ordinary own key that is ignored or reported, never followed), caps array lengths and string
 * lengths, and builds fresh result objects, so nothing from the input reaches a prototype.
 */

import { ApiShapeError } from '../../errors/api.js';
import { formatGot } from '../../errors/base.js';
import { checkDecimalText, type DecimalRule } from './decimal-text.js';
import { parseApiTimestampMs } from './timestamp.js';

export interface ParseOptions {
  /** 'ignore' (default): unknown keys are skipped; 'reject': an unknown key is API_SHAPE_INVALID */
  readonly unknownKeys?: 'ignore' | 'reject';
  /** longest array accepted anywhere in a response (default 100,000) */
  readonly maxArrayLength?: number;
  /** longest string accepted (default 4 MiB characters; a created_event_blob is far smaller) */
  readonly maxStringLength?: number;
}

/**
 * One element of an array read per item (`ShapeReader.arrayPerItem`) that did not have the
 * documented shape: where it is, what was expected, and the pool it names when that much is
 * readable. The other elements are kept, so one bad entry cannot hide the rest.
 */
export interface MalformedEntry {
  /** position in the array */
  readonly index: number;
  /** the element's `pool_id` when it is a non-empty string of at most 200 characters, else null */
  readonly poolId: string | null;
  /** the offending path, e.g. `data.pools[3].reserve_contract.reserve_a` */
  readonly path: string;
  /** what the documented shape requires there */
  readonly expected: string;
  /** the whole "path expected X, got Y" message */
  readonly message: string;
}

export interface ShapeNode {
  readonly value: Readonly<Record<string, unknown>>;
  readonly path: string;
}

/** The ShapeReader methods that read one field as `(node, key)`. */
type FieldKind =
  | 'string'
  | 'nonEmptyString'
  | 'nullableString'
  | 'decimal'
  | 'decimal10'
  | 'nullableDecimal10'
  | 'signedDecimal10'
  | 'integerString'
  | 'timestamp'
  | 'number'
  | 'nullableNumber'
  | 'integer'
  | 'boolean'
  | 'hex'
  | 'base64';

/** How one key of an object is read: by a reader method named, or by a function (a nested object). */
export type FieldSpec = FieldKind | ((r: ShapeReader, node: ShapeNode, key: string) => unknown);

/** A field that is itself an object of `spec`'s keys (and `alsoKnown` ones, left unread). */
export const objectField =
  <S extends Readonly<Record<string, FieldSpec>>>(spec: S, alsoKnown: readonly string[] = []) =>
  (r: ShapeReader, node: ShapeNode, key: string): FieldValues<S> =>
    r.fields(r.get(node, key, 'an object'), r.pathOf(node, key), spec, alsoKnown);

/** A field that is an array, each element read by `element` at its path. */
export const arrayField =
  <T>(element: (r: ShapeReader, value: unknown, path: string) => T) =>
  (r: ShapeReader, node: ShapeNode, key: string): T[] =>
    r.array(node, key, (v, path) => element(r, v, path));

/** The object `readFields` builds for `spec`: each key with what its reader returns. */
export type FieldValues<S extends Readonly<Record<string, FieldSpec>>> = {
  -readonly [K in keyof S]: S[K] extends FieldKind
    ? FieldKindValue[S[K]]
    : S[K] extends (...args: never[]) => infer T
      ? T
      : never;
};
type FieldKindValue = { [K in FieldKind]: ReturnType<ShapeReader[K]> };

/** Exactly 10 decimals (Daml Numeric 10 as rendered by the service, docs/protocol/api-decisions.md §1). */
const NUMERIC10: DecimalRule = { places: 10 };
/** Signed variant for computed fractions that may legitimately be negative (slippage). */
const SIGNED_NUMERIC10: DecimalRule = { signed: true, places: 10 };
const INTEGER_STRING = /^(0|[1-9][0-9]{0,18})$/;
const HEX = /^(?:[0-9a-f]{2})+$/;
const BASE64 = /^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$/;

function appendKey(path: string, key: string): string {
  const safe = /^[A-Za-z_$][A-Za-z0-9_$]*$/.test(key) ? key : JSON.stringify(key);
  if (path === '') return safe;
  return safe.startsWith('"') ? `${path}[${safe}]` : `${path}.${safe}`;
}

/**
 * A short, bounded rendering of a hostile value for messages: nesting beyond 3 levels, more than
 * 5 elements or keys, and text beyond 80 characters are elided, so no input can make the message
 * builder recurse deeply or allocate much (unlike JSON.stringify on a 100,000-deep array).
 */
function describeGot(v: unknown): string {
  const render = (x: unknown, depth: number): string => {
    if (Array.isArray(x)) {
      if (depth >= 3) return x.length === 0 ? '[]' : '[…]';
      const items = x.slice(0, 5).map((e) => render(e, depth + 1));
      return `[${items.join(',')}${x.length > 5 ? ',…' : ''}]`;
    }
    if (typeof x === 'object' && x !== null) {
      const keys = Object.keys(x);
      if (depth >= 3) return keys.length === 0 ? '{}' : '{…}';
      const items = keys
        .slice(0, 5)
        .map((k) => `${formatGot(k, 40)}:${render((x as Record<string, unknown>)[k], depth + 1)}`);
      return `{${items.join(',')}${keys.length > 5 ? ',…' : ''}}`;
    }
    return formatGot(x, 80);
  };
  const out = render(v, 0);
  return out.length > 120 ? `${out.slice(0, 120)}…` : out;
}

function isPlainObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

export class ShapeReader {
  private readonly unknownKeys: 'ignore' | 'reject';
  private readonly maxArrayLength: number;
  private readonly maxStringLength: number;

  constructor(options: ParseOptions = {}) {
    this.unknownKeys = options.unknownKeys ?? 'ignore';
    this.maxArrayLength = options.maxArrayLength ?? 100_000;
    this.maxStringLength = options.maxStringLength ?? 4 * 1024 * 1024;
  }

  fail(path: string, expected: string, got: unknown, missing = false, why?: string): never {
    const shown = path === '' ? '(response)' : path;
    const gotText = missing
      ? 'no value (missing key)'
      : `${describeGot(got)}${why === undefined ? '' : `: ${why}`}`;
    throw new ApiShapeError('API_SHAPE_INVALID', `${shown} expected ${expected}, got ${gotText}`, {
      details: { path: shown, expected },
    });
  }

  /** Checks that `value` is a JSON object carrying (at most, if rejecting) the `known` keys. */
  object(value: unknown, path: string, known: readonly string[]): ShapeNode {
    if (!isPlainObject(value)) this.fail(path, 'an object', value);
    if (this.unknownKeys === 'reject') {
      for (const k of Object.keys(value)) {
        if (!known.includes(k))
          this.fail(appendKey(path, k), 'no such key (not in the documented shape)', value[k]);
      }
    }
    return { value, path };
  }

  /**
   * The object at `path` whose documented keys are those of `spec` (and `alsoKnown`, left
   * unread), each key of `spec` read as it says, in its order.
   */
  fields<S extends Readonly<Record<string, FieldSpec>>>(
    value: unknown,
    path: string,
    spec: S,
    alsoKnown: readonly string[] = [],
  ): FieldValues<S> {
    return this.readFields(this.object(value, path, [...Object.keys(spec), ...alsoKnown]), spec);
  }

  /** Each key of `spec` read from `node` as it says, in its order, into a fresh object. */
  readFields<S extends Readonly<Record<string, FieldSpec>>>(node: ShapeNode, spec: S): FieldValues<S> {
    const out: Record<string, unknown> = {};
    for (const [key, read] of Object.entries(spec))
      out[key] = typeof read === 'string' ? this[read](node, key) : read(this, node, key);
    return out as FieldValues<S>;
  }

  /** The raw value under `key`; fails with "missing" when the key is absent. */
  get(node: ShapeNode, key: string, expected: string): unknown {
    if (!Object.hasOwn(node.value, key)) this.fail(appendKey(node.path, key), expected, undefined, true);
    return node.value[key];
  }

  has(node: ShapeNode, key: string): boolean {
    return Object.hasOwn(node.value, key);
  }

  pathOf(node: ShapeNode, key: string): string {
    return appendKey(node.path, key);
  }

  child(node: ShapeNode, key: string, known: readonly string[]): ShapeNode {
    return this.object(this.get(node, key, 'an object'), appendKey(node.path, key), known);
  }

  /** A body `{ "<key>": { … } }`: checks the one-key wrapper and returns the object under `key` (its `known` keys). */
  envelope(json: unknown, key: string, known: readonly string[]): ShapeNode {
    return this.child(this.object(json, '', [key]), key, known);
  }

  string(node: ShapeNode, key: string): string {
    const v = this.get(node, key, 'a string');
    return this.checkString(v, appendKey(node.path, key), 'a string');
  }

  nonEmptyString(node: ShapeNode, key: string): string {
    const s = this.string(node, key);
    if (s === '') this.fail(appendKey(node.path, key), 'a non-empty string', s);
    return s;
  }

  nullableString(node: ShapeNode, key: string): string | null {
    const v = this.get(node, key, 'a string or null');
    if (v === null) return null;
    return this.checkString(v, appendKey(node.path, key), 'a string or null');
  }

  private checkString(v: unknown, path: string, expected: string): string {
    if (typeof v !== 'string') this.fail(path, expected, v);
    if (v.length > this.maxStringLength)
      this.fail(path, `a string of at most ${this.maxStringLength} characters`, v);
    return v;
  }

  private matching(node: ShapeNode, key: string, re: RegExp, expected: string): string {
    const v = this.get(node, key, expected);
    const path = appendKey(node.path, key);
    if (typeof v !== 'string' || v.length > 200 || !re.test(v)) this.fail(path, expected, v);
    return v;
  }

  /** A decimal string of the one grammar (./decimal-text.ts); a broken rule is named in the message. */
  private decimalText(node: ShapeNode, key: string, rule: DecimalRule, expected: string): string {
    const v = this.get(node, key, expected);
    const why = checkDecimalText(v, rule);
    // a JSON number or another non-string is described by its type already
    if (why !== null)
      this.fail(appendKey(node.path, key), expected, v, false, typeof v === 'string' ? why : undefined);
    return v as string;
  }

  /** Any non-negative decimal string, any number of places ("2", "0.7948", "0.00025000000"). */
  decimal(node: ShapeNode, key: string): string {
    return this.decimalText(node, key, {}, 'a decimal string');
  }

  /** A non-negative decimal string with exactly 10 decimals (docs/protocol/api-decisions.md §1). */
  decimal10(node: ShapeNode, key: string): string {
    return this.decimalText(node, key, NUMERIC10, 'a decimal string with 10 decimals');
  }

  nullableDecimal10(node: ShapeNode, key: string): string | null {
    const v = this.get(node, key, 'a decimal string with 10 decimals or null');
    if (v === null) return null;
    return this.decimal10(node, key);
  }

  signedDecimal10(node: ShapeNode, key: string): string {
    return this.decimalText(node, key, SIGNED_NUMERIC10, 'a signed decimal string with 10 decimals');
  }

  /** A non-negative integer written as a decimal string without decimals ("42"). */
  integerString(node: ShapeNode, key: string): string {
    return this.matching(node, key, INTEGER_STRING, 'an integer string');
  }

  /** A fixed-decimals string such as `estimated_time_seconds` ("12.40"). */
  fixedDecimal(node: ShapeNode, key: string, decimals: number): string {
    const re = new RegExp(`^(0|[1-9][0-9]{0,27})\\.[0-9]{${decimals}}$`);
    return this.matching(node, key, re, `a decimal string with ${decimals} decimals`);
  }

  /** An ISO 8601 timestamp written with the `+00:00` offset, with a real calendar date. */
  timestamp(node: ShapeNode, key: string): string {
    const expected = 'an ISO 8601 timestamp with offset +00:00';
    const v = this.get(node, key, expected);
    const path = appendKey(node.path, key);
    if (typeof v !== 'string' || v.length > 64) this.fail(path, expected, v);
    if (parseApiTimestampMs(v) === null) this.fail(path, expected, v);
    return v;
  }

  /** A finite JSON number. */
  number(node: ShapeNode, key: string): number {
    const v = this.get(node, key, 'a finite number');
    if (typeof v !== 'number' || !Number.isFinite(v))
      this.fail(appendKey(node.path, key), 'a finite number', v);
    return v;
  }

  nullableNumber(node: ShapeNode, key: string): number | null {
    const v = this.get(node, key, 'a finite number or null');
    if (v === null) return null;
    return this.number(node, key);
  }

  /** A non-negative safe integer JSON number. */
  integer(node: ShapeNode, key: string): number {
    const v = this.get(node, key, 'a non-negative integer');
    if (typeof v !== 'number' || !Number.isSafeInteger(v) || v < 0) {
      this.fail(appendKey(node.path, key), 'a non-negative integer', v);
    }
    return v;
  }

  boolean(node: ShapeNode, key: string): boolean {
    const v = this.get(node, key, 'a boolean');
    if (typeof v !== 'boolean') this.fail(appendKey(node.path, key), 'a boolean', v);
    return v;
  }

  /** Lower-case hex of whole bytes (contract IDs, package IDs). */
  hex(node: ShapeNode, key: string, maxChars = 1024): string {
    const v = this.get(node, key, 'a lower-case hex string');
    const path = appendKey(node.path, key);
    if (typeof v !== 'string' || v.length > maxChars || !HEX.test(v))
      this.fail(path, 'a lower-case hex string', v);
    return v;
  }

  base64(node: ShapeNode, key: string): string {
    const v = this.get(node, key, 'a base64 string');
    const path = appendKey(node.path, key);
    const s = this.checkString(v, path, 'a base64 string');
    if (s === '' || !BASE64.test(s)) this.fail(path, 'a base64 string', v);
    return s;
  }

  /** An array under `key`, each element read by `item(value, path)`. */
  array<T>(node: ShapeNode, key: string, item: (value: unknown, path: string) => T): T[] {
    const v = this.get(node, key, 'an array');
    return this.arrayValue(v, appendKey(node.path, key), item);
  }

  /**
   * Like `array`, but an element that fails its shape is set aside as a `MalformedEntry` instead
   * of failing the whole response (the array itself must still be an array within the limits).
   */
  arrayPerItem<T>(
    node: ShapeNode,
    key: string,
    item: (value: unknown, path: string) => T,
  ): { readonly items: T[]; readonly malformed: MalformedEntry[] } {
    const items: T[] = [];
    const malformed: MalformedEntry[] = [];
    this.array(node, key, (v, path) => {
      const index = malformed.length + items.length;
      try {
        items.push(item(v, path));
      } catch (e) {
        if (!(e instanceof ApiShapeError)) throw e;
        const d = e.details as { path?: unknown; expected?: unknown } | undefined;
        const id = isPlainObject(v) && Object.hasOwn(v, 'pool_id') ? v.pool_id : undefined;
        malformed.push({
          index,
          poolId: typeof id === 'string' && id !== '' && id.length <= 200 ? id : null,
          path: typeof d?.path === 'string' ? d.path : path,
          expected: typeof d?.expected === 'string' ? d.expected : 'the documented shape',
          message: e.shortMessage,
        });
      }
    });
    return { items, malformed };
  }

  arrayValue<T>(v: unknown, path: string, item: (value: unknown, path: string) => T): T[] {
    if (!Array.isArray(v)) this.fail(path, 'an array', v);
    if (v.length > this.maxArrayLength)
      this.fail(path, `an array of at most ${this.maxArrayLength} elements`, v);
    const out: T[] = [];
    for (let i = 0; i < v.length; i++) out.push(item(v[i], `${path}[${i}]`));
    return out;
  }
}
