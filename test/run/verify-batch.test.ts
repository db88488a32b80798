/**
 * The batch pipeline as a library (docs/library.md "Batch verification"): `verifyContractBatch` is
 * an async iterator that yields each verdict while the input is still streaming (bounded memory),
 * reads JSON Lines split anywhere (mid-line, mid-UTF-8 character, CRLF), refuses a document over
 * the cap with a message that says so, and finds contracts in any JSON shape (findContractEntries).
 */
import { describe, expect, it } from 'vitest';
import { findContractEntries } from '../../src/core/verdict/contract-entries.js';
import { isCodecError } from '../../src/errors/codec.js';
import { type BatchVerdict, verifyContractBatch } from '../../src/run/verify-batch.js';
import { loadContractIdVectors } from '../helpers/vectors.js';

const untyped = loadContractIdVectors().blobVectors.filter((v) => !v.contractId.slice(66, 70).endsWith('2'));
const line = (i: number) => {
  const v = untyped[i % untyped.length]!;
  return `${JSON.stringify({ contract_id: v.contractId, created_event_blob: v.createdEventBlobBase64, note: 'é✓' })}\n`;
};

async function collect(
  input: AsyncIterable<Uint8Array | string> | Iterable<string>,
  maxDocumentBytes?: number,
): Promise<BatchVerdict[]> {
  const out: BatchVerdict[] = [];
  for await (const v of verifyContractBatch(
    input,
    maxDocumentBytes === undefined ? {} : { maxDocumentBytes },
  ))
    out.push(v);
  return out;
}

async function* chunksOf(bytes: Uint8Array, size: number): AsyncGenerator<Uint8Array> {
  for (let i = 0; i < bytes.length; i += size) yield bytes.subarray(i, i + size);
}

describe('verifyContractBatch', () => {
  it('yields the first verdicts before the input has ended (streaming, one line at a time)', async () => {
    let produced = 0;
    let producedAtFirstVerdict = -1;
    async function* source(): AsyncGenerator<string> {
      for (let i = 0; i < 2000; i++) {
        produced++;
        yield line(i);
      }
    }
    let n = 0;
    for await (const v of verifyContractBatch(source())) {
      if (n === 0) producedAtFirstVerdict = produced;
      expect(v.status).toBe('verified');
      n++;
    }
    expect(n).toBe(2000);
    expect(producedAtFirstVerdict).toBeLessThan(5);
  });

  it('reads lines split at any byte (inside a line, inside a UTF-8 character) and CRLF line ends', async () => {
    const text = Array.from({ length: 20 }, (_, i) => line(i).replace('\n', '\r\n')).join('');
    const bytes = new TextEncoder().encode(text);
    for (const size of [1, 7, 64, 1000]) {
      const verdicts = await collect(chunksOf(bytes, size));
      expect(verdicts.map((v) => v.status)).toEqual(Array(20).fill('verified'));
      expect(verdicts.map((v) => v.line)).toEqual(Array.from({ length: 20 }, (_, i) => i + 1));
    }
  });

  it('refuses a document or a line over the cap, saying which and what to do', async () => {
    const doc = `[\n${Array.from({ length: 5 }, (_, i) => line(i).trim()).join(',\n')}\n]`;
    const err = await collect(chunksOf(new TextEncoder().encode(doc), 100), 1000).catch((e: unknown) => e);
    expect(isCodecError(err) && err.code).toBe('BATCH_INPUT_TOO_LARGE');
    expect((err as Error).message).toMatch(
      /expected a JSON document of at most 1000 bytes \(split it into JSON Lines/,
    );
    const lines = Array.from({ length: 3 }, (_, i) => line(i)).join('') + 'x'.repeat(5000);
    const err2 = await collect(chunksOf(new TextEncoder().encode(lines), 100), 2000).catch((e: unknown) => e);
    expect((err2 as Error).message).toMatch(/line 4 expected at most 2000 bytes/);
  });

  it('the reference decides what the engine does not answer: a mismatch carries its reasons', async () => {
    const v = untyped[0]!;
    const id = `${v.contractId.slice(0, -2)}00`;
    const [r] = await collect([
      JSON.stringify({ contract_id: id, created_event_blob: v.createdEventBlobBase64 }),
    ]);
    expect(r).toMatchObject({ status: 'mismatch', line: 1, contractId: id });
    expect(r!.reasons.map((x) => x.code)).toContain('SUFFIX_MISMATCH');
    expect(r!.template).toMatch(/:/);
  });
});

describe('findContractEntries', () => {
  it('finds blobs beside their IDs in any shape, in document order, and does not look inside a hit', () => {
    const value = {
      a: [
        {
          contract_id: 'c1',
          created_event_blob: 'b1',
          inner: { contract_id: 'no', created_event_blob: 'no' },
        },
      ],
      'weird key': { createdEvent: { contractId: 'c2', createdEventBlob: 'b2' } },
      c: { created_event_blob: null },
      d: { contract_id: 7, created_event_blob: 'b4' },
    };
    expect([...findContractEntries(value)]).toEqual([
      { contractId: 'c1', blob: 'b1', path: '$.a[0]' },
      { contractId: 'c2', blob: 'b2', path: '$["weird key"].createdEvent' },
      { contractId: null, blob: '', path: '$.c' },
      { contractId: null, blob: 'b4', path: '$.d' },
    ]);
  });

  it('walks hostile nesting without recursion', () => {
    let deep: unknown = { contract_id: 'x', created_event_blob: 'y' };
    for (let i = 0; i < 100_000; i++) deep = [deep];
    const found = [...findContractEntries(deep)];
    expect(found).toHaveLength(1);
    expect(found[0]!.path.length).toBeGreaterThan(100_000);
  });
});
