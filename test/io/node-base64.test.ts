/**
 * The edges' native base64 seams (src/io/node-base64.ts) accept exactly what the strict pure parser
 * accepts, with the same bytes: on real blobs, on texts Node's lenient decoder takes (whitespace,
 * URL-safe letters, missing or inner padding, non-zero unused bits, chars above U+007F that Node
 * reads by their low byte) and on random texts over a mixed alphabet.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { formatBase64, parseBase64 } from '../../src/core/codec/bytes.js';
import { decodeBase64Node, decodeBase64NodeScratch } from '../../src/io/node-base64.js';
import { loadContractIdVectors } from '../helpers/vectors.js';

function strict(text: string): Uint8Array | null {
  try {
    return parseBase64(text);
  } catch {
    return null;
  }
}

function agree(text: string): void {
  const want = strict(text);
  for (const decode of [decodeBase64Node, decodeBase64NodeScratch]) {
    const got = decode(text);
    if (want === null) expect(got, JSON.stringify(text)).toBeNull();
    else expect(got === null ? null : Array.from(got), JSON.stringify(text)).toEqual(Array.from(want));
  }
}

describe('native base64 seams', () => {
  it('decode every real blob as the pure parser does', () => {
    for (const v of loadContractIdVectors().blobVectors) agree(v.createdEventBlobBase64);
  });

  it('reject what only a lenient decoder takes', () => {
    const b64 = 'QUJDRA==';
    for (const t of [
      b64,
      'QUJD RA==',
      'QUJDRA=',
      'QUJDRA',
      'QU=DRA==',
      'QUJDRB==',
      'QUJDRA==QUJD',
      'QUJD====',
      '=QUJDRA=',
      'QUJDRA==\n',
      'QUJ-RA==',
      'QUJ_RA==',
      'QUJ\u0144RA==',
      'QUJDR\u0141==',
      'QUJ\u00c4RA==',
      'QUJDRAA=',
      'QUJDRAB=',
      '',
      '====',
      'AA=A',
      'AAA=AAAA',
    ])
      agree(t);
  });

  it('agree on random texts over base64 letters, padding, whitespace and look-alikes', () => {
    const chars = fc.constantFrom(...'AQgw+/=-_ \n\u0144\u00c4Zz09'.split(''));
    fc.assert(
      fc.property(fc.array(chars, { maxLength: 24 }), (cs) => agree(cs.join(''))),
      { numRuns: 5000 },
    );
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 64 }), (bytes) => agree(formatBase64(bytes))),
      { numRuns: 2000 },
    );
  });

  it('the scratch decoder reuses its buffer (a view valid until the next call)', () => {
    const a = decodeBase64NodeScratch('QUJD');
    const b = decodeBase64NodeScratch('REVG');
    expect(a?.buffer).toBe(b?.buffer);
    expect(Array.from(b ?? [])).toEqual([0x44, 0x45, 0x46]);
  });
});
