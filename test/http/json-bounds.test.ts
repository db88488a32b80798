/**
 * Bounded JSON (src/io/http/json-bounds.ts): the nesting depth and the token count are measured on
 * the bytes, so a hostile body fails at the byte that crosses a bound, before `JSON.parse` builds
 * anything; strings (escaped quotes, brackets inside them, non-ASCII) are skipped correctly.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { RawResponse } from '../../src/core/wire/snapshot.js';
import { HttpError } from '../../src/errors/http.js';
import { checkJsonBounds, createJsonBoundsScan } from '../../src/io/http/json-bounds.js';
import { parseJsonBody } from '../../src/io/http/response.js';

const enc = (s: string): Uint8Array => new TextEncoder().encode(s);
const raw = (body: string | Uint8Array): RawResponse => ({
  method: 'GET',
  url: 'http://127.0.0.1:1/v1/public/pools/proof',
  requestBody: null,
  status: 200,
  contentType: 'application/json',
  sha256: '',
  body: typeof body === 'string' ? enc(body) : body,
  startedAtMs: 0,
  durationMs: 0,
  date: null,
});

describe('checkJsonBounds', () => {
  it('accepts the depth limit and refuses one more, at the crossing byte', () => {
    const ok = `${'['.repeat(64)}${']'.repeat(64)}`;
    expect(checkJsonBounds(enc(ok))).toBeNull();
    expect(checkJsonBounds(enc(`{"a":${ok}}`))).toMatchObject({ bound: 'depth', limit: 64, offset: 68 });
    expect(checkJsonBounds(enc('['.repeat(65)), { maxDepth: 64, maxTokens: 10 })).toMatchObject({
      bound: 'tokens',
      limit: 10,
    });
  });

  it('skips brackets, commas and escaped quotes inside strings', () => {
    const s = `{"k":"${'['.repeat(200)}\\"${',{'.repeat(200)}","é[":["\\\\",1]}`;
    expect(JSON.parse(s)).toBeTypeOf('object');
    expect(checkJsonBounds(enc(s), { maxDepth: 2, maxTokens: 4 })).toBeNull();
  });

  it('counts tokens: [, { and , (values ≤ tokens + 1)', () => {
    const arr = `[${Array.from({ length: 1000 }, () => '0').join(',')}]`;
    expect(checkJsonBounds(enc(arr), { maxDepth: 64, maxTokens: 1000 })).toBeNull();
    expect(checkJsonBounds(enc(arr), { maxDepth: 64, maxTokens: 999 })).toMatchObject({ bound: 'tokens' });
  });
});

describe('createJsonBoundsScan (chunk by chunk)', () => {
  it('finds the same breach, at the same body offset, wherever the chunks are cut', () => {
    const piece = fc.constantFrom('[', ']', '{', '}', ',', '"', '\\', 'a', ':', '"[\\"]"', ' ');
    fc.assert(
      fc.property(
        fc.array(piece, { maxLength: 200 }),
        fc.array(fc.nat(200), { maxLength: 8 }),
        fc.integer({ min: 1, max: 6 }),
        fc.integer({ min: 1, max: 30 }),
        (pieces, cuts, maxDepth, maxTokens) => {
          const body = enc(pieces.join(''));
          const bounds = { maxDepth, maxTokens };
          const whole = checkJsonBounds(body, bounds);
          const scan = createJsonBoundsScan(bounds);
          const at = [...new Set(cuts.map((c) => Math.min(c, body.length)))].sort((a, b) => a - b);
          let from = 0;
          let got = null;
          for (const to of [...at, body.length]) {
            got = scan.push(body.subarray(from, to));
            from = to;
            if (got !== null) break;
          }
          expect(got).toEqual(whole);
        },
      ),
      { numRuns: 2_000 },
    );
  });

  it('keeps a string and an escape open across a chunk boundary', () => {
    const scan = createJsonBoundsScan({ maxDepth: 1, maxTokens: 100 });
    expect(scan.push(enc('["a\\'))).toBeNull();
    expect(scan.push(enc('"[[['))).toBeNull(); // the escaped quote keeps the string open
    expect(scan.push(enc('"]'))).toBeNull();
    expect(scan.push(enc('[['))).toMatchObject({ bound: 'depth', offset: 11 });
  });
});

describe('parseJsonBody', () => {
  it('refuses 8 M nested arrays with HTTP_JSON_TOO_COMPLEX without building them', () => {
    const body = new Uint8Array(16_000_000);
    body.fill(0x5b, 0, 8_000_000);
    body.fill(0x5d, 8_000_000);
    const heapBefore = process.memoryUsage().heapUsed;
    let err: unknown;
    try {
      parseJsonBody(raw(body));
    } catch (e) {
      err = e;
    }
    expect(err).toBeInstanceOf(HttpError);
    expect((err as HttpError).code).toBe('HTTP_JSON_TOO_COMPLEX');
    expect((err as HttpError).shortMessage).toMatch(
      /expected a JSON nesting depth of at most 64, got deeper at byte 64/,
    );
    // JSON.parse of this body allocates gigabytes; the bound allocates nothing
    expect(process.memoryUsage().heapUsed - heapBefore).toBeLessThan(50 * 1024 * 1024);
  });

  it('still parses a document within the bounds', () => {
    expect(parseJsonBody(raw('{"data":{"pools":[]}}'))).toEqual({ data: { pools: [] } });
  });
});
