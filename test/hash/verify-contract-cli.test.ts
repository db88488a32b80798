/** `reserve-audit verify-contract` through runCliForTest: exit 0 verified, 1 mismatch, 2 could not check. */
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCliForTest } from '../helpers/run-cli.js';
import { loadContractIdVectors } from '../helpers/vectors.js';
import { SPLICE_TYPES_FILE } from './fixture-env.js';

const blobs = loadContractIdVectors().blobVectors;
const byName = (s: string) => blobs.find((b) => b.name.includes(s)) as (typeof blobs)[number];
const v10 = byName('Ping');
const v12 = byName('OpenMiningRound');

describe('verify-contract CLI', () => {
  it('exit 0 and a "verified" line for a V10 blob given as base64', async () => {
    const r = await runCliForTest([
      'verify-contract',
      '--contract-id',
      v10.contractId,
      '--blob',
      v10.createdEventBlobBase64,
    ]);
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(
      /^verified: AdminWorkflows Canton\.Internal\.Ping:Ping \(v10\) contract id matches the blob\n$/,
    );
  });
  it('exit 0 for a V12 blob from @file with --types, JSON output', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'verify-cli-'));
    writeFileSync(join(dir, 'blob.b64'), `${v12.createdEventBlobBase64}\n`);
    const r = await runCliForTest(
      [
        'verify-contract',
        '--contract-id',
        v12.contractId,
        '--blob',
        '@blob.b64',
        '--types',
        SPLICE_TYPES_FILE,
        '--json',
      ],
      { cwd: dir },
    );
    expect(r.code).toBe(0);
    const j = JSON.parse(r.stdout);
    expect(j.status).toBe('verified');
    expect(j.contractHash).toBe(v12.expected.contractHashHex);
    expect(j.expectedSuffix).toBe(v12.expected.suffixHex);
    expect(j.template.name).toBe('Splice.Round:OpenMiningRound');
    expect(j.typing.packageVersion).toBe('0.1.17');
  });
  it('reads the blob from stdin with -', async () => {
    const r = await runCliForTest(['verify-contract', '--contract-id', v10.contractId, '--blob', '-'], {
      stdin: v10.createdEventBlobBase64,
    });
    expect(r.code).toBe(0);
  });
  it('exit 1 and MISMATCH for another contract ID', async () => {
    const other = byName('IouTransfer');
    const r = await runCliForTest([
      'verify-contract',
      '--contract-id',
      other.contractId,
      '--blob',
      v10.createdEventBlobBase64,
    ]);
    expect(r.code).toBe(1);
    expect(r.stdout).toMatch(/^MISMATCH: .*CONTRACT_ID_MISMATCH.*SUFFIX_MISMATCH/);
  });
  it('exit 2 and "could not check" for V12 without its types, naming the DAR to give', async () => {
    const r = await runCliForTest([
      'verify-contract',
      '--contract-id',
      v12.contractId,
      '--blob',
      v12.createdEventBlobBase64,
    ]);
    expect(r.code).toBe(2);
    expect(r.stdout).toMatch(
      /^could not check: .*TYPE_NOT_FOUND: .*give the DAR of package "splice-amulet" \(package id [0-9a-f]{64}, or a newer version of it\), or a type file of it \(--dar <file> or --types <file>\)$/m,
    );
  });
  it('exit 2 for an unsupported version, a bad blob, a missing type file', async () => {
    const ca02 = `${v10.contractId.slice(0, 66)}ca02${v10.contractId.slice(70)}`;
    const a = await runCliForTest([
      'verify-contract',
      '--contract-id',
      ca02,
      '--blob',
      v10.createdEventBlobBase64,
      '--json',
    ]);
    expect(a.code).toBe(2);
    expect(JSON.parse(a.stdout).reasons[0].code).toBe('UNSUPPORTED_CONTRACT_ID_VERSION');
    const b = await runCliForTest([
      'verify-contract',
      '--contract-id',
      v10.contractId,
      '--blob',
      'not base64!',
    ]);
    expect(b.code).toBe(2);
    expect(b.stdout).toMatch(/^could not check:/);
    const c = await runCliForTest([
      'verify-contract',
      '--contract-id',
      v12.contractId,
      '--blob',
      v12.createdEventBlobBase64,
      '--types',
      '/nonexistent/x.json',
    ]);
    expect(c.code).toBe(2);
    expect(c.stdout).toMatch(/TYPE_FILE_READ_FAILED/);
  });
  it('exit 2 (usage) when --contract-id is missing', async () => {
    const r = await runCliForTest(['verify-contract', '--blob', v10.createdEventBlobBase64]);
    expect(r.code).toBe(2);
  });
});
