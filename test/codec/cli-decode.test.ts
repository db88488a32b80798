/** `reserve-audit decode` and readBlobArgument (base64, @file base64/raw, stdin) on a real vector. */
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCliForTest } from '../helpers/run-cli.js';
import { loadContractIdVectors } from '../helpers/vectors.js';

const v = loadContractIdVectors().blobVectors[0]!;

describe('reserve-audit decode', () => {
  it('prints the decoded contract as JSON for a base64 argument', async () => {
    const r = await runCliForTest(['decode', v.createdEventBlobBase64]);
    expect(r.code).toBe(0);
    const json = JSON.parse(r.stdout);
    expect(json.contractId).toBe(v.contractId);
    expect(json.templateId).toBe(v.decoded.templateId);
    expect(json.createdAtMicros).toBe(v.decoded.createdAtMicros);
    expect(json.authenticationData.salt.hex).toBe(v.decoded.saltHex);
  });

  it('reads @file with base64 text (line-wrapped) or raw bytes, and - from stdin', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'ra-decode-'));
    const b64 = v.createdEventBlobBase64;
    writeFileSync(join(dir, 'blob.b64'), `${b64.replace(/(.{76})/g, '$1\n')}\n`);
    writeFileSync(join(dir, 'blob.bin'), Buffer.from(b64, 'base64'));
    for (const arg of ['@blob.b64', '@blob.bin']) {
      const r = await runCliForTest(['decode', arg, '--compact'], { cwd: dir });
      expect(r.code, r.stderr).toBe(0);
      expect(JSON.parse(r.stdout).contractId).toBe(v.contractId);
    }
    const s = await runCliForTest(['decode', '-'], { stdin: b64 });
    expect(s.code, s.stderr).toBe(0);
    expect(JSON.parse(s.stdout).contractId).toBe(v.contractId);
    const raw = await runCliForTest(['decode', '-'], { stdin: Buffer.from(b64, 'base64') });
    expect(JSON.parse(raw.stdout).contractId).toBe(v.contractId);
  });

  it('exits 2 with one typed line on bad input', async () => {
    for (const [arg, codeName] of [
      ['CgMyLjES', 'BLOB_TRUNCATED'],
      ['not base64!', 'INVALID_BASE64'],
      ['@/nonexistent/blob', 'INPUT_UNREADABLE'],
    ] as const) {
      const r = await runCliForTest(['decode', arg]);
      expect(r.code).toBe(2);
      expect(r.stdout).toBe('');
      expect(r.stderr.trim().split('\n')).toHaveLength(1);
      expect(r.stderr).toContain(codeName);
    }
  });

  it('reports unknown fields with --unknown-fields report', async () => {
    const bytes = Buffer.from(v.createdEventBlobBase64, 'base64');
    // append FCI field 10 (varint 1) inside the payload: re-frame the envelope
    const payload = Buffer.concat([bytes.subarray(8), Buffer.from([0x50, 0x01])]); // 8 = 5 (version) + tag + 2-byte length
    const len = payload.length;
    const blob = Buffer.concat([
      bytes.subarray(0, 5),
      Buffer.from([0x12, (len & 0x7f) | 0x80, len >> 7]),
      payload,
    ]);
    const rejected = await runCliForTest(['decode', blob.toString('base64')]);
    expect(rejected.code).toBe(2);
    expect(rejected.stderr).toContain('BLOB_UNKNOWN_FIELD');
    const r = await runCliForTest(['decode', blob.toString('base64'), '--unknown-fields', 'report']);
    expect(r.code, r.stderr).toBe(0);
    expect(JSON.parse(r.stdout).unknownFields).toEqual([
      { message: 'FatContractInstance', fieldNumber: 10, wireType: 0, offset: blob.length - 2 },
    ]);
  });
});
