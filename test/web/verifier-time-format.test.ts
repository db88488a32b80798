/**
 * The verifier page writes a contract's creation time in the API's timestamp format
 * (`YYYY-MM-DDTHH:MM:SS.ffffff+00:00`, as `ledger_created_at` and the report page write it), not a
 * second format of its own (issue 29's "two time formats for the same thing across the two pages").
 */
import { readFileSync } from 'node:fs';
import { expect, it } from 'vitest';
import { parseApiTimestampMicros } from '../../src/core/wire/index.js';
import { createVerifierTypes, verifyPastedContract } from '../../src/web/verifier/verify-input.js';

it('shows created-at as the API formats it, microseconds included', () => {
  const cid = readFileSync('examples/iou-v11.cid', 'utf8');
  const blob = readFileSync('examples/iou-v11.b64', 'utf8');
  const v = verifyPastedContract(cid, blob, createVerifierTypes());
  expect(v.verdict).toBe('verified');
  expect(v.createdAt).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{6}\+00:00$/);
  expect(parseApiTimestampMicros(v.createdAt ?? '')).not.toBeNull();
});
