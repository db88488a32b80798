/**
 * `audit --ledger-api` (issue 26) against the bundled reference server and a participant speaking
 * Canton's JSON Ledger API v2 (test/helpers/fake-participant.ts, a real HTTP server): an honest
 * ledger confirms every pool (exit 0, ledger-confirmed); a served contract the ledger does not know
 * → PROOF_NOT_ON_LEDGER (exit 1); a contract archived long before the fetch → PROOF_ARCHIVED
 * (exit 1), inside the cache window → an honest cached proof (exit 0); an active reserve contract
 * of a pool /pools/proof does not list → LEDGER_RESERVE_UNLISTED (exit 1); the participant down,
 * refusing the token or too slow → exit 2 without an error finding. Both the 3.5 and the 3.4 forms
 * of the answers are read. The token never appears in any output or file.
 */
import { mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { decodeCreatedEventBlob } from '../../src/core/codec/blob-decoder.js';
import type { PoolsProofResponse } from '../../src/core/wire/pools-proof.js';
import {
  type FakeParticipant,
  type ParticipantContract,
  startFakeParticipant,
} from '../helpers/fake-participant.js';
import { runCliForTest } from '../helpers/run-cli.js';
import { type AuditServer, startAuditServer } from '../helpers/tamper.js';

const TOKEN = 'eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiJhdWRpdG9yIn0.c2VjcmV0LXNpZ25hdHVyZS1kby1ub3QtcHJpbnQ';

interface AuditDoc {
  summary: {
    outcome: string;
    pools: number;
    proofsProven: number;
    proofsIdVerified: number;
    assurance: { level: string; pools: Record<string, number>; ledger: { party: string } | null };
  };
  pools: { poolId: string; proof: string; assurance: string; ledger: string }[];
  findings: { code: string; severity: string; pool: string | null; label: string }[];
  deprecated: Record<string, string>;
}

let server: AuditServer;
let other: AuditServer;
let participant: FakeParticipant;
let honest: ParticipantContract[];
let party: string;
const dir = mkdtempSync(join(tmpdir(), 'audit-ledger-'));
const tokenFile = join(dir, 'token');

async function contractsOf(base: string): Promise<ParticipantContract[]> {
  const doc = (await (await fetch(`${base}/pools/proof`)).json()) as PoolsProofResponse;
  return doc.data.pools.map((p) => {
    const r = p.reserve_contract;
    const d = decodeCreatedEventBlob(r.created_event_blob);
    return {
      contractId: r.contract_id,
      blob: r.created_event_blob,
      createdAt: r.ledger_created_at,
      templateId: `${r.template.package_id}:${r.template.module_name}:${r.template.entity_name}`,
      packageName: r.template.package_name,
      signatories: d.signatories,
      observers: d.stakeholders.filter((s) => !d.signatories.includes(s)),
    };
  });
}

beforeAll(async () => {
  server = await startAuditServer({ version: 'v11' });
  other = await startAuditServer({ version: 'v11', extraPools: 1, seed: 'ledger-other' });
  // a swap two minutes after genesis: the ledger's newest reserve contract is newer than the others
  const first = ((await (await fetch(`${server.directBase}/pools/proof`)).json()) as PoolsProofResponse).data
    .pools[0]!;
  const cc = server.ex.cc();
  const buy = first.token_a_instrument.id === cc.id ? first.token_b_instrument : first.token_a_instrument;
  server.clock.advanceMs(120_000);
  const swap = server.ex.transfer({
    sender: 'alice::1220aa',
    instrument: { admin: cc.admin, id: cc.id },
    amount: '300',
    memo: buy.id,
  });
  if (swap.status !== 'executed') throw new Error(`swap ${swap.status}`);
  server.clock.advanceMs(120_000);
  honest = await contractsOf(server.directBase);
  party = honest[0]!.signatories[0]!;
  participant = await startFakeParticipant({ token: TOKEN, party });
  writeFileSync(tokenFile, `${TOKEN}\n`);
});
afterAll(async () => {
  await participant.close();
  await server.close();
  await other.close();
});

const ledgerArgs = (): string[] => [
  '--ledger-api',
  participant.url,
  '--ledger-token-file',
  tokenFile,
  '--ledger-party',
  party,
];

async function audit(
  extra: string[] = [],
  args = ledgerArgs(),
): Promise<{ code: number; doc: AuditDoc; stderr: string }> {
  const timeout = extra.includes('--timeout') ? [] : ['--timeout', '3000'];
  const r = await runCliForTest([
    'audit',
    '--base-url',
    server.base,
    '--json',
    ...timeout,
    ...args,
    ...extra,
  ]);
  return { code: r.code, doc: JSON.parse(r.stdout) as AuditDoc, stderr: r.stderr };
}

const codes = (d: AuditDoc, severity?: string): string[] =>
  d.findings.filter((f) => severity === undefined || f.severity === severity).map((f) => f.code);

describe('audit --ledger-api', () => {
  it('confirms every pool on an honest ledger (exit 0, ledger-confirmed), and the token is in no output', async () => {
    participant.set({ contracts: honest, prunedUpTo: 0, fault: undefined });
    const junit = join(dir, 'j.xml');
    const html = join(dir, 'r.html');
    const mirror = join(dir, 'm.sqlite');
    const r = await runCliForTest([
      'audit',
      '--base-url',
      server.base,
      '--json',
      '--junit',
      junit,
      '--html',
      html,
      '--mirror',
      mirror,
      ...ledgerArgs(),
    ]);
    expect(r.stderr).not.toContain('could not check:');
    expect(r.code).toBe(0);
    const doc = JSON.parse(r.stdout) as AuditDoc;
    expect(doc.summary.assurance.level).toBe('ledger-confirmed');
    expect(doc.summary.assurance.pools['ledger-confirmed']).toBe(doc.summary.pools);
    expect(doc.summary.assurance.ledger?.party).toBe(party);
    expect(doc.pools.every((p) => p.assurance === 'ledger-confirmed' && p.ledger === 'confirmed')).toBe(true);
    // the old key stays readable for one version, named as deprecated
    expect(doc.summary.proofsProven).toBe(doc.summary.proofsIdVerified);
    expect(doc.deprecated['summary.proofsProven']).toContain('proofsIdVerified');
    expect(readFileSync(junit, 'utf8')).toContain('name="assurance.level" value="ledger-confirmed"');
    // the active contracts at the ledger end before the fetch answered for every pool: no lookup one by one
    expect(participant.requests.filter((q) => q.path === '/v2/events/events-by-contract-id')).toEqual([]);
    // the token went to the participant as a bearer header, and nowhere else
    expect(participant.requests.every((q) => q.authorization === `Bearer ${TOKEN}`)).toBe(true);
    const signature = TOKEN.split('.')[2]!;
    const text = await runCliForTest(['audit', '--base-url', server.base, '--verbose', ...ledgerArgs()]);
    expect(text.stdout).toMatch(/pools \d+ \(ledger-confirmed \d+\)/);
    expect(text.stdout).toContain('assurance: ledger-confirmed');
    for (const out of [r.stdout, r.stderr, text.stdout, text.stderr]) expect(out).not.toContain(signature);
    for (const f of readdirSync(dir).filter((x) => x !== 'token'))
      expect(readFileSync(join(dir, f)).includes(signature), f).toBe(false);
  });

  it('reads the 3.4 form of the answers as well', async () => {
    const p34 = await startFakeParticipant({ token: TOKEN, party, variant: '3.4' });
    try {
      p34.set({ contracts: honest });
      const args = ['--ledger-api', p34.url, '--ledger-token-file', tokenFile, '--ledger-party', party];
      const { code, doc } = await audit([], args);
      expect(code).toBe(0);
      expect(doc.summary.assurance.level).toBe('ledger-confirmed');
    } finally {
      await p34.close();
    }
  });

  it('a served contract the ledger does not know → PROOF_NOT_ON_LEDGER, exit 1', async () => {
    const forged = honest[2]!;
    participant.set({
      contracts: honest.map((c) => (c === forged ? { ...c, unknown: true } : c)),
      prunedUpTo: 0,
    });
    const { code, doc } = await audit();
    expect(code).toBe(1);
    expect(codes(doc, 'error')).toEqual(['PROOF_NOT_ON_LEDGER']);
    const pool = doc.pools.find((p) => p.ledger === 'contradicted');
    expect(pool?.assurance).toBe('asserted');
    expect(doc.summary.assurance.level).toBe('asserted');
  });

  it('the same, after the participant pruned: could not check (exit 2), never an accusation', async () => {
    const forged = honest[2]!;
    participant.set({
      contracts: honest.map((c) => (c === forged ? { ...c, unknown: true } : c)),
      prunedUpTo: 7,
    });
    const { code, doc } = await audit();
    expect(code).toBe(2);
    expect(codes(doc, 'error')).toEqual([]);
    expect(codes(doc)).toContain('LEDGER_UNAVAILABLE');
  });

  it('a contract archived long before the fetch → PROOF_ARCHIVED (exit 1); inside the cache window → an honest cached proof', async () => {
    const old = honest[1]!;
    const archivedAt = (ms: number): ParticipantContract[] =>
      honest.map((c) =>
        c === old ? { ...c, archived: { effectiveAt: new Date(Date.now() - ms).toISOString() } } : c,
      );
    participant.set({ contracts: archivedAt(120_000), prunedUpTo: 0 });
    const frozen = await audit();
    expect(frozen.code).toBe(1);
    // the archived contract is no longer active: its pool has no live reserve contract, which is no error
    expect(codes(frozen.doc, 'error')).toEqual(['PROOF_ARCHIVED']);
    participant.set({ contracts: archivedAt(-2_000) });
    const cached = await audit();
    expect(cached.code).toBe(0);
    expect(codes(cached.doc)).toContain('LEDGER_PROOF_SUPERSEDED');
    expect(cached.doc.summary.assurance.level).toBe('ledger-confirmed');
  });

  it('an active reserve contract of a pool /pools/proof does not list → LEDGER_RESERVE_UNLISTED, exit 1', async () => {
    const mine = new Set(honest.map((c) => c.contractId));
    const theirs = await contractsOf(other.directBase);
    const listed = new Set(
      ((await (await fetch(`${server.directBase}/pools/proof`)).json()) as PoolsProofResponse).data.pools.map(
        (p) => p.pool_id,
      ),
    );
    const doc = (await (await fetch(`${other.directBase}/pools/proof`)).json()) as PoolsProofResponse;
    const hiddenPool = doc.data.pools.find((p) => !listed.has(p.pool_id));
    expect(hiddenPool).toBeDefined();
    const hidden = theirs.find(
      (c) => c.contractId === hiddenPool!.reserve_contract.contract_id && !mine.has(c.contractId),
    )!;
    // created an hour before the ledger time of its blob: older than every snapshot the exchange served
    const createdAt = new Date(Date.parse(hidden.createdAt) - 3_600_000).toISOString();
    participant.set({
      contracts: [...honest, { ...hidden, createdAt, signatories: [party] }],
      prunedUpTo: 0,
    });
    const { code, doc: d } = await audit();
    expect(
      d.findings.filter((f) => f.code.startsWith('LEDGER')),
      JSON.stringify(d.findings),
    ).not.toEqual([]);
    expect(code).toBe(1);
    expect(codes(d, 'error')).toEqual(['LEDGER_RESERVE_UNLISTED']);
  });

  it.each([
    ['refuses the token (401)', 'unauthorized'],
    ['forbids the party (403)', 'forbidden'],
    ['is unavailable (503 until the budget ends)', 'unavailable'],
    ['does not answer in time', 'stall'],
  ] as const)('a participant that %s → could not check (exit 2), no error finding', async (_what, fault) => {
    participant.set({ contracts: honest, prunedUpTo: 0, fault });
    try {
      const { code, doc } = await audit(['--timeout', '1500']);
      expect(code).toBe(2);
      expect(codes(doc, 'error')).toEqual([]);
      expect(codes(doc)).toContain('LEDGER_UNAVAILABLE');
      expect(doc.summary.assurance.level).toBe('id-verified');
    } finally {
      participant.set({ fault: undefined });
    }
  });

  it('a participant that echoes the token in its error: the reason is reported with the token redacted', async () => {
    participant.set({ contracts: honest, prunedUpTo: 0, fault: 'echo-token' });
    try {
      const junit = join(dir, 'echo.xml');
      const r = await runCliForTest([
        'audit',
        '--base-url',
        server.base,
        '--json',
        '--junit',
        junit,
        '--mirror',
        join(dir, 'echo.sqlite'),
        ...ledgerArgs(),
      ]);
      expect(r.code).toBe(2);
      const signature = TOKEN.split('.')[2]!;
      expect(r.stdout).toContain('token Bearer *** may not read');
      for (const out of [r.stdout, r.stderr, readFileSync(junit, 'utf8')])
        expect(out).not.toContain(signature);
      for (const f of readdirSync(dir).filter((x) => x !== 'token'))
        expect(readFileSync(join(dir, f)).includes(signature), f).toBe(false);
    } finally {
      participant.set({ fault: undefined });
    }
  });

  it('a participant nobody listens at → could not check (exit 2)', async () => {
    const args = [
      '--ledger-api',
      'http://127.0.0.1:9',
      '--ledger-token-file',
      tokenFile,
      '--ledger-party',
      party,
    ];
    const { code, doc } = await audit([], args);
    expect(code).toBe(2);
    expect(codes(doc, 'error')).toEqual([]);
  });

  it('refuses --ledger-party without --ledger-api, and --ledger-api without a party (exit 2, the token file not echoed)', async () => {
    const a = await runCliForTest(['audit', '--base-url', server.base, '--ledger-party', party]);
    expect(a.code).toBe(2);
    expect(a.stderr).toContain('--ledger-party');
    const b = await runCliForTest(['audit', '--base-url', server.base, '--ledger-api', participant.url]);
    expect(b.code).toBe(2);
    const bad = join(dir, 'bad-token');
    writeFileSync(bad, 'two words secret-ish\n');
    const c = await runCliForTest([
      ...['audit', '--base-url', server.base],
      ...['--ledger-api', participant.url, '--ledger-party', party, '--ledger-token-file', bad],
    ]);
    expect(c.code).toBe(2);
    expect(c.stderr).not.toContain('secret-ish');
  });
});
