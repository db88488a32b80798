/**
 * `verify-contract --batch` (docs/cli.md): JSON Lines, a JSON array, a live server's /pools/proof
 * response, Ledger API and Scan API shapes; one line (or JSON object) per contract, the summary,
 * the exit code = the worst verdict; a line that is not JSON is that line's verdict; the bundled
 * server's V12 contracts need no flag; the real V12 vectors with the real DAR (../shared/dars).
 */
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createManualClock } from '../../src/sim/clock.js';
import { createExchange } from '../../src/sim/ledger.js';
import { createSeededRng } from '../../src/sim/rng.js';
import { loadSeedMarket } from '../../src/sim/seed-market.js';
import { openServerDb } from '../../src/sim/store/connection.js';
import { runCliForTest } from '../helpers/run-cli.js';
import { SHARED_DARS_SKIP_REASON, sharedDarsDir } from '../helpers/shared.js';
import { loadContractIdVectors } from '../helpers/vectors.js';
import { getJson, startTestServer, type TestServer } from '../server/helpers/start.js';

const vectors = loadContractIdVectors().blobVectors;
const untyped = vectors.filter((v) => !v.contractId.slice(66, 70).endsWith('2'));
const v12 = vectors.filter((v) => v.contractId.slice(66, 70) === 'ca12');
const line = (id: string, blob: string) => JSON.stringify({ contract_id: id, created_event_blob: blob });
/** the contract ID with its last hex digit changed: the blob no longer matches it */
const tamper = (id: string) => `${id.slice(0, -1)}${id.endsWith('0') ? '1' : '0'}`;

const dir = mkdtempSync(join(tmpdir(), 'verify-batch-'));
const write = (name: string, text: string): string => {
  const p = join(dir, name);
  writeFileSync(p, text);
  return p;
};

let srv: TestServer | undefined;
let closeDb: (() => void) | undefined;
/** a live reference server's GET /pools/proof body (V12 reserve contracts) */
let proofBody = '';
beforeAll(async () => {
  const db = openServerDb(':memory:');
  closeDb = () => db.close();
  const ex = createExchange({
    db,
    clock: createManualClock(Date.UTC(2026, 10, 22, 3, 0, 0)),
    rng: createSeededRng('verify-batch'),
    contractIdVersion: 'v12',
    seedMarket: loadSeedMarket(),
    extraPools: 1,
  });
  srv = await startTestServer({ exchange: ex, simulation: ex, enableSimulation: false });
  proofBody = (await getJson(`${srv.base}/pools/proof`)).text;
});
afterAll(async () => {
  await srv?.close();
  closeDb?.();
});

describe('verify-contract --batch', () => {
  it('JSON Lines: one verdict line per contract, a summary, exit 0 when all verify', async () => {
    const f = write(
      'ok.jsonl',
      `${untyped.map((v) => line(v.contractId, v.createdEventBlobBase64)).join('\n')}\n`,
    );
    const r = await runCliForTest(['verify-contract', '--batch', f]);
    expect(r.stderr).toBe('');
    const lines = r.stdout.trim().split('\n');
    expect(lines).toHaveLength(untyped.length + 1);
    for (const [i, v] of untyped.entries())
      expect(lines[i]).toMatch(new RegExp(`^line ${i + 1}: verified: ${v.contractId} \\(v1[01]\\)`));
    expect(lines.at(-1)).toMatch(
      new RegExp(`^${untyped.length} contracts: ${untyped.length} verified, 0 MISMATCH, 0 could not check`),
    );
    expect(r.code).toBe(0);
  });

  it('a tampered contract is a MISMATCH (exit 1), which outranks could-not-check; a line that is not JSON is its own verdict', async () => {
    const [a, b] = untyped;
    const f = write(
      'mixed.jsonl',
      [
        line(a!.contractId, a!.createdEventBlobBase64),
        line(tamper(b!.contractId), b!.createdEventBlobBase64),
        '{not json',
        '',
        JSON.stringify({ contract_id: a!.contractId }),
      ].join('\n'),
    );
    const r = await runCliForTest(['verify-contract', '--batch', f]);
    const lines = r.stdout.trim().split('\n');
    expect(lines[0]).toMatch(/^line 1: verified: /);
    expect(lines[1]).toMatch(/^line 2: MISMATCH: .* SUFFIX_MISMATCH: /);
    expect(lines[2]).toMatch(
      /^line 3: could not check: \(no contract id\) BATCH_ENTRY_INVALID: .*line 3 expected JSON/,
    );
    // line 4 is blank (skipped); line 5 holds no blob
    expect(lines[3]).toMatch(/^line 5: could not check: .*expected a contract/);
    expect(lines.at(-1)).toMatch(/^4 contracts: 1 verified, 1 MISMATCH, 2 could not check/);
    expect(r.code).toBe(1);
  });

  it('could-not-check alone is exit 2: a V12 contract of a package whose types are not given', async () => {
    const v = v12[0]!;
    const r = await runCliForTest(['verify-contract', '--batch', '-'], {
      stdin: `${line(v.contractId, v.createdEventBlobBase64)}\n`,
    });
    expect(r.stdout).toMatch(/^line 1: could not check: .* TYPE_NOT_FOUND|TYPES_REQUIRED/);
    expect(r.code).toBe(2);
  });

  it("a live server's /pools/proof response: its V12 reserve contracts verify with the bundled types, no flag", async () => {
    const f = write('proof.json', proofBody);
    const r = await runCliForTest(['verify-contract', '--batch', f, '--json']);
    const rows = r.stdout
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as Record<string, unknown>);
    const pools = (JSON.parse(proofBody) as { data: { pools: unknown[] } }).data.pools;
    expect(rows).toHaveLength(pools.length);
    expect(pools.length).toBeGreaterThan(1);
    for (const [i, row] of rows.entries()) {
      expect(row).toMatchObject({ status: 'verified', ok: true, version: 'v12', line: 1, reasons: [] });
      expect(row.path).toBe(`$.data.pools[${i}].reserve_contract`);
    }
    expect(r.stderr).toMatch(new RegExp(`${pools.length} contracts: ${pools.length} verified`));
    expect(r.code).toBe(0);
  });

  it("one of the server's V12 reserve contracts verifies with verify-contract alone, no --types", async () => {
    const rc = (
      JSON.parse(proofBody) as {
        data: { pools: { reserve_contract: { contract_id: string; created_event_blob: string } }[] };
      }
    ).data.pools[0]!.reserve_contract;
    const r = await runCliForTest([
      'verify-contract',
      '--contract-id',
      rc.contract_id,
      '--blob',
      rc.created_event_blob,
    ]);
    expect(r.stdout).toMatch(
      /^verified: amm-pools Amm\.Pool:PoolReserve \(v12\) contract id matches the blob/,
    );
    expect(r.code).toBe(0);
  });

  it('a pretty-printed document (Ledger API active contracts) is read whole; an empty createdEventBlob says how to get it', async () => {
    const [a, b] = untyped;
    const ledger = [
      {
        contractEntry: {
          JsActiveContract: {
            createdEvent: {
              contractId: a!.contractId,
              createdEventBlob: a!.createdEventBlobBase64,
              templateId: 'x:Y:Z',
            },
          },
        },
      },
      {
        contractEntry: {
          JsActiveContract: { createdEvent: { contractId: b!.contractId, createdEventBlob: '' } },
        },
      },
    ];
    const f = write('acs.json', JSON.stringify(ledger, null, 2));
    const r = await runCliForTest(['verify-contract', '--batch', f]);
    const lines = r.stdout.trim().split('\n');
    expect(lines[0]).toBe(
      `$[0].contractEntry.JsActiveContract.createdEvent: verified: ${a!.contractId} (v10) `.trimEnd(),
    );
    expect(lines[1]).toMatch(
      /^\$\[1\]\.contractEntry\.JsActiveContract\.createdEvent: could not check: .*includeCreatedEventBlob/,
    );
    expect(r.code).toBe(2);
  });

  it('a Scan API response (created_events) given on stdin', async () => {
    const scan = {
      record_time: '2026-11-26T00:00:00Z',
      created_events: untyped.map((v) => ({
        event_type: 'created_event',
        contract_id: v.contractId,
        template_id: 'x',
        created_event_blob: v.createdEventBlobBase64,
      })),
    };
    const r = await runCliForTest(['verify-contract', '--batch', '-', '--json'], {
      stdin: JSON.stringify(scan, null, 1),
    });
    const rows = r.stdout
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as { status: string; line: number | null });
    expect(rows.map((x) => x.status)).toEqual(untyped.map(() => 'verified'));
    expect(rows.every((x) => x.line === null)).toBe(true);
    expect(r.code).toBe(0);
  });

  it('refuses --batch with --contract-id, an unreadable file, and an empty input', async () => {
    const both = await runCliForTest(['verify-contract', '--batch', 'x.jsonl', '--contract-id', 'ab']);
    expect(both.stderr).toMatch(/"--batch" expected alone/);
    expect(both.code).toBe(2);
    const missing = await runCliForTest(['verify-contract', '--batch', join(dir, 'nope.jsonl')]);
    expect(missing.stderr).toMatch(/INPUT_UNREADABLE: .*nope\.jsonl.* expected a readable stream/);
    expect(missing.code).toBe(2);
    const empty = await runCliForTest(['verify-contract', '--batch', '-'], { stdin: '\n\n' });
    expect(empty.stderr).toMatch(/expected contracts .*got none/);
    expect(empty.code).toBe(2);
    const neither = await runCliForTest(['verify-contract']);
    expect(neither.stderr).toMatch(/"--contract-id" expected \(or --batch <file>\), got nothing/);
    expect(neither.code).toBe(2);
  });
});

const darsDir = sharedDarsDir();
describe.skipIf(darsDir === null)('verify-contract --batch on the real Splice DARs', () => {
  it('the real V12 vectors verify with several DARs given at once', async () => {
    const dars = ['splice-amulet-0.1.14.dar', 'splice-amulet-0.1.17.dar', 'splice-dso-governance-0.1.21.dar'];
    const f = write('v12.jsonl', v12.map((v) => line(v.contractId, v.createdEventBlobBase64)).join('\n'));
    const r = await runCliForTest([
      'verify-contract',
      '--batch',
      f,
      ...dars.flatMap((d) => ['--dar', join(darsDir!, d)]),
    ]);
    expect(r.stdout).toMatch(new RegExp(`${v12.length} contracts: ${v12.length} verified`));
    expect(r.code).toBe(0);
  });
});
if (darsDir === null) describe('real DARs', () => it.skip(SHARED_DARS_SKIP_REASON, () => {}));
