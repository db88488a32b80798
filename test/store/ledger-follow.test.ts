/**
 * `mirror follow` against a real reference server's JSON Ledger API (`serve --ledger-api`, in this
 * process, HS256 tokens, an auditor party observer of every reserve contract), with swaps in between:
 * every created and archived event of the reserve contracts lands in the mirror once — followed
 * twice, resumed after a round the participant broke off, and with a batch recorded twice — the
 * stored offset is the ledger end, and the chain check passes on the honest ledger. The pure chain
 * check flags a fork (a second live contract, a contract replacing one that is not the last
 * archived — a minted, self-consistent forgery), a gap (a contract missing from the stream) and a
 * contract whose ID does not recompute. Both backends.
 */
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { checkReserveChains, type FollowedReserveEvent } from '../../src/core/audit/reserve-chain-checks.js';
import { decodeCreatedEventBlob } from '../../src/core/codec/blob-decoder.js';
import { parseBaseUrl } from '../../src/io/http/base-url.js';
import { createHttpClient } from '../../src/io/http/client.js';
import { createLedgerClient, type LedgerClient } from '../../src/io/ledger-api/index.js';
import { sha256Node } from '../../src/io/node-sha256.js';
import type { LedgerEventRow } from '../../src/io/store/index.js';
import { type FollowRound, runMirrorFollow } from '../../src/run/mirror-follow.js';
import { formatLedgerToken } from '../../src/server/ledger-api/auth.js';
import { mintReserveContract } from '../../src/sim/mint.js';
import { decodeReserveCreateArg } from '../../src/sim/reserve-template.js';
import { createSeededRng } from '../../src/sim/rng.js';
import { simulateRandomSwap } from '../../src/sim/traffic.js';
import { spawnCli } from '../cli/helpers/spawn-cli.js';
import {
  formatMirrorFollowArgs,
  mintReaderToken,
  readSimulatedFollowedEvents,
  verifyReferenceReserve,
} from '../helpers/followed-ledger.js';
import { runCliForTest } from '../helpers/run-cli.js';
import { type AuditServer, startAuditServer } from '../helpers/tamper.js';
import { type BackendName, describeBackends, openTestMirror, type TestMirror } from './store-backends.js';

const SECRET = new TextEncoder().encode('the ledger api secret of the follow test');
const AUDITOR = 'auditor::1220f011';

const verify = verifyReferenceReserve;

/** `count` executed swaps of the traffic generator, each after a second of ledger time. */
function swap(s: AuditServer, count: number): void {
  let done = 0;
  for (let tries = 0; done < count && tries < count * 20; tries += 1) {
    s.clock.advanceMs(1000);
    if (simulateRandomSwap(s.ex, rng)?.status === 'executed') done += 1;
  }
  if (done < count) throw new Error(`${done} of ${count} swaps executed`);
}
const rng = createSeededRng('ledger-follow-traffic');

/** The reserve events the ledger holds: created and archived contract IDs. */
function ledgerEvents(s: AuditServer): { created: string[]; archived: string[] } {
  const created: string[] = [];
  const archived: string[] = [];
  s.ex.reserveUpdates(0, s.ex.ledgerEnd(), Number.MAX_SAFE_INTEGER, (u) => {
    for (const e of u.events) (e.kind === 'created' ? created : archived).push(e.contract.contractId);
    return true;
  });
  return { created: created.sort(), archived: archived.sort() };
}

let s: AuditServer;
let ledgerUrl: string;
let token: string;
const dir = mkdtempSync(join(tmpdir(), 'ledger-follow-'));

beforeAll(async () => {
  s = await startAuditServer({ version: 'v12', ledger: { secret: SECRET, auditorParty: AUDITOR } });
  ledgerUrl = s.ledgerUrl;
  token = await mintReaderToken(SECRET, 'follower', [AUDITOR]);
});
afterAll(async () => {
  await s.close();
});

function client(): LedgerClient {
  return createLedgerClient({
    baseUrl: parseBaseUrl(ledgerUrl),
    token,
    party: AUDITOR,
    http: createHttpClient(),
  });
}

/** A client whose update reads fail after `pages` pages (a participant that broke off). */
function breakingClient(pages: number): LedgerClient {
  const c = client();
  let n = 0;
  return {
    ...c,
    readUpdates: async (...a) => {
      n += 1;
      if (n > pages)
        return { ok: false, status: 503, code: null, reason: 'the participant answered status 503' };
      return c.readUpdates(...a);
    },
  };
}

describeBackends('mirror follow', (backend: BackendName) => {
  let m: TestMirror;
  beforeEach(async () => {
    m = await openTestMirror(backend);
  });
  afterEach(async () => {
    await m.dispose();
  });

  const follow = (o: { client?: LedgerClient; pageSize?: number } = {}) => {
    const rounds: FollowRound[] = [];
    return runMirrorFollow({
      store: m.store,
      ledger: { baseUrl: ledgerUrl, token, party: AUDITOR },
      once: true,
      ...o,
      onRound: (r) => rounds.push(r),
    }).then((report) => ({ report, rounds }));
  };
  const key = () => ({ participant: parseBaseUrl(ledgerUrl).display, party: AUDITOR });
  const stored = async (): Promise<{ created: string[]; archived: string[]; rows: LedgerEventRow[] }> => {
    const rows = await m.store.readLedgerEvents(key());
    return {
      rows,
      created: rows
        .filter((r) => r.kind === 'created')
        .map((r) => r.contractId)
        .sort(),
      archived: rows
        .filter((r) => r.kind === 'archived')
        .map((r) => r.contractId)
        .sort(),
    };
  };

  it('follows every created and archived reserve event, twice with swaps between: nothing doubled, the chain intact', async () => {
    swap(s, 12);
    const first = await follow({ pageSize: 5 });
    expect(first.report.outcome).toBe('passed');
    expect(first.report.findings).toEqual([]);
    expect(first.report.offset).toBe(s.ex.ledgerEnd());
    let want = ledgerEvents(s);
    let got = await stored();
    expect(got.created).toEqual(want.created);
    expect(got.archived).toEqual(want.archived);
    expect(want.archived.length).toBeGreaterThanOrEqual(12);
    // every created event is a proven contract of a pool; every archive knows its pool
    expect(got.rows.every((r) => r.poolId !== null)).toBe(true);
    expect(got.rows.filter((r) => r.kind === 'created').every((r) => r.createdEventBlob !== null)).toBe(true);

    swap(s, 9);
    const before = want.created.length + want.archived.length;
    const second = await follow();
    expect(second.report.outcome).toBe('passed');
    expect(second.rounds[0]!.fromOffset).toBe(first.report.offset);
    expect(second.rounds[0]!.poolsChecked).toBeGreaterThan(0);
    want = ledgerEvents(s);
    expect(second.rounds[0]!.inserted).toBe(want.created.length + want.archived.length - before);
    expect(second.rounds[0]!.inserted).toBeGreaterThanOrEqual(18);
    got = await stored();
    expect(got.created).toEqual(want.created);
    expect(got.archived).toEqual(want.archived);
    expect(await m.count('ledger_events')).toBe(want.created.length + want.archived.length);
    const state = await m.store.readLedgerFollowState(key());
    expect(state?.offset).toBe(s.ex.ledgerEnd());
    // mirror stats lists the followed events
    const stats = await m.store.readMirrorStats();
    expect(stats.tables.find((t) => t.name === 'ledger_events')?.rows).toBe(
      want.created.length + want.archived.length,
    );

    // a third round with nothing new records nothing
    const third = await follow();
    expect(third.rounds[0]!.inserted).toBe(0);
    expect(await m.count('ledger_events')).toBe(want.created.length + want.archived.length);
  });

  it("reads after an offset only the new events and each pool's seed; the chain continues from the seeds", async () => {
    swap(s, 10);
    const first = await follow();
    swap(s, 6);
    await follow();
    const full = (await stored()).rows;
    const after = first.report.offset;
    const pools = [...new Set(full.map((r) => r.poolId).filter((p): p is string => p !== null))].sort();
    const got = await m.store.readLedgerEvents(key(), pools, after);
    // the reference from the whole history: new events, each pool's last contract at or below the
    // offset with its archive when that is at or below too, and the unplaced created events
    const seeds = new Set<string>();
    for (const pool of pools) {
      const last = full.filter((r) => r.poolId === pool && r.kind === 'created' && r.offset <= after).at(-1);
      if (last !== undefined) seeds.add(last.contractId);
    }
    const want = full.filter(
      (r) =>
        (r.poolId !== null && r.offset > after) ||
        (r.poolId === null && r.kind === 'created') ||
        (seeds.has(r.contractId) && r.offset <= after),
    );
    const id = (r: LedgerEventRow) => `${r.offset}/${r.nodeSeq}/${r.contractId}/${r.kind}`;
    expect(got.map(id)).toEqual(want.map(id));
    expect(seeds.size).toBe(pools.length);
    expect(got.length).toBeLessThan(full.length);
    // the honest chain, continued from the seeds, raises nothing — as over the whole history
    expect(checkReserveChains({ events: got, verify }).findings).toEqual([]);
    expect(checkReserveChains({ events: full, verify }).findings).toEqual([]);
    // a contract of the new events missing from the stream is still a gap
    const newCreated = got.filter((r) => r.kind === 'created' && r.offset > after);
    const victim = newCreated.find((r) =>
      newCreated.some((q) => q.poolId === r.poolId && q.offset > r.offset),
    )!;
    const gapped = checkReserveChains({
      events: got.filter((r) => r.contractId !== victim.contractId),
      verify,
    });
    expect(gapped.findings.map((f) => f.code)).toEqual(['RESERVE_CHAIN_GAP']);
  });

  it('resumes after a participant broke off mid-stream (could not check, exit 2 material), losing and doubling nothing', async () => {
    swap(s, 6);
    const broken = await follow({ client: breakingClient(2), pageSize: 3 });
    expect(broken.report.outcome).toBe('could-not-check');
    expect(broken.report.findings.filter((f) => f.severity === 'error')).toEqual([]);
    const partial = await m.store.readLedgerFollowState(key());
    expect(partial!.offset).toBeGreaterThan(0);
    expect(partial!.offset).toBeLessThan(s.ex.ledgerEnd());
    // the same page recorded again (a follower killed after its commit, before it knew): ignored
    const rows = await m.store.readLedgerEvents(key());
    const again = await m.store.recordLedgerEvents({
      ...key(),
      events: rows,
      offset: partial!.offset,
      ledgerTimeMs: null,
      recordedAtMs: Date.now(),
    });
    expect(again.inserted).toBe(0);
    const resumed = await follow({ pageSize: 3 });
    expect(resumed.report.outcome).toBe('passed');
    expect(resumed.rounds[0]!.fromOffset).toBe(partial!.offset);
    const want = ledgerEvents(s);
    const got = await stored();
    expect(got.created).toEqual(want.created);
    expect(got.archived).toEqual(want.archived);
    expect(await m.count('ledger_events')).toBe(want.created.length + want.archived.length);
  });

  it('mirror follow --once on the command line: exit 0, one round, the report; a wrong token is exit 2', async () => {
    const file = join(dir, `token-${backend}.jwt`);
    writeFileSync(file, token);
    const args = formatMirrorFollowArgs({ mirror: m.target, ledgerUrl, party: AUDITOR });
    const r = await runCliForTest([...args, '--ledger-token-file', file, '--once', '--json']);
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    const lines = r.stdout
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as Record<string, unknown>);
    expect(lines).toHaveLength(2);
    expect((lines[1]!.report as { outcome: string; offset: number }).offset).toBe(s.ex.ledgerEnd());
    expect(r.stdout).not.toContain(token);
    const other = await writeOtherPartyToken(`other-${backend}.jwt`);
    swap(s, 1);
    const refused = await runCliForTest([...args, '--ledger-token-file', other, '--once']);
    expect(refused.code).toBe(2);
    expect(refused.stdout).toContain('could not check');
  });
});

/** A token file whose user reads as a party that is no stakeholder of the reserve contracts. */
async function writeOtherPartyToken(name: string): Promise<string> {
  const file = join(dir, name);
  writeFileSync(
    file,
    await formatLedgerToken({
      secret: SECRET,
      user: 'x',
      readAs: ['someone::1220ff'],
      expiresInSeconds: 60,
      nowMs: Date.now(),
    }),
  );
  return file;
}

describe('snapshot --ledger-api', () => {
  it('after each snapshot, one follow round into the same mirror: every reserve event, the chains checked', async () => {
    const m = await openTestMirror('sqlite');
    try {
      const file = join(dir, 'snapshot.jwt');
      writeFileSync(file, token);
      const args = ['snapshot', '--base-url', s.base, '--mirror', m.target, '--ledger-api', ledgerUrl];
      const r = await runCliForTest([...args, '--ledger-party', AUDITOR, '--ledger-token-file', file]);
      expect(r.code).toBe(0);
      expect(JSON.parse(r.stdout.trim())).toMatchObject({ snapshot: 1, failedAttempt: null });
      expect(r.stderr).toMatch(/snapshot 1\/1: follow {2}offset \d+ → \d+ .* findings 0/);
      expect(r.stderr).not.toContain(token);
      expect(await m.count('ledger_events')).toBeGreaterThan(0);
      expect(await m.count('snapshots')).toBe(1);
      // a token for another party: the snapshot is recorded, the follow could not check (exit 2)
      const other = await writeOtherPartyToken('snapshot-other.jwt');
      swap(s, 1);
      const refused = await runCliForTest([...args, '--ledger-party', AUDITOR, '--ledger-token-file', other]);
      expect(refused.code).toBe(2);
      expect(await m.count('snapshots')).toBe(2);
      // the ledger options belong together
      const alone = await runCliForTest([
        'snapshot',
        '--base-url',
        s.base,
        '--mirror',
        m.target,
        '--ledger-party',
        AUDITOR,
      ]);
      expect(alone.code).toBe(2);
      expect(alone.stderr).toContain('"--ledger-party" expected to come with --ledger-api');
    } finally {
      await m.dispose();
    }
  });
});

describe('mirror follow killed with SIGKILL (the built CLI)', () => {
  it('killed three times while following, swaps between: the next run holds every event exactly once', async () => {
    const m = await openTestMirror('sqlite');
    const file = join(dir, 'kill.jwt');
    writeFileSync(file, token);
    const args = formatMirrorFollowArgs({ mirror: m.target, ledgerUrl, party: AUDITOR, tokenFile: file });
    try {
      for (let k = 0; k < 3; k++) {
        swap(s, 30);
        const cli = spawnCli([...args, '--every', '20ms', '--json']);
        for (let t = 0; t < 2000 && !cli.output.stdout.includes('"round"'); t++)
          await new Promise((r) => setTimeout(r, 10));
        expect(cli.output.stdout).toContain('"round"');
        swap(s, 20);
        await new Promise((r) => setTimeout(r, 5 + 15 * k));
        cli.child.kill('SIGKILL');
        expect((await cli.exited).signal).toBe('SIGKILL');
      }
      const r = await runCliForTest([...args, '--once']);
      expect(r.code).toBe(0);
      const rows = await m.store.readLedgerEvents({
        participant: parseBaseUrl(ledgerUrl).display,
        party: AUDITOR,
      });
      const want = ledgerEvents(s);
      expect(
        rows
          .filter((e) => e.kind === 'created')
          .map((e) => e.contractId)
          .sort(),
      ).toEqual(want.created);
      expect(
        rows
          .filter((e) => e.kind === 'archived')
          .map((e) => e.contractId)
          .sort(),
      ).toEqual(want.archived);
      expect(await m.count('ledger_events')).toBe(want.created.length + want.archived.length);
    } finally {
      await m.dispose();
    }
  });
});

describe('the reserve chain check over followed events', () => {
  /** The honest events of the whole ledger, as the follower stores them. */
  const honest = (): FollowedReserveEvent[] => readSimulatedFollowedEvents(s.ex);
  /** The first pool with at least three contracts: its created events in order. */
  function chainOfAPool(events: readonly FollowedReserveEvent[]): FollowedReserveEvent[] {
    const byPool = new Map<string, FollowedReserveEvent[]>();
    for (const e of events) {
      if (e.kind !== 'created') continue;
      const pool = verify(e.contractId, e.createdEventBlob!).provenFields!.poolId!;
      byPool.set(pool, [...(byPool.get(pool) ?? []), e]);
    }
    return [...byPool.values()].find((l) => l.length >= 3)!;
  }

  beforeAll(async () => {
    swap(s, 10);
  });

  it('passes on the honest ledger', () => {
    const r = checkReserveChains({ events: honest(), verify });
    expect(r.findings).toEqual([]);
    expect(r.pools).toBe(s.ex.activeReserveContracts(s.ex.ledgerEnd()).length);
  });

  it('raises nothing when following starts in the middle of the ledger', () => {
    const events = honest();
    for (const from of [1, Math.floor(events.length / 3), Math.floor(events.length / 2)]) {
      const start = events[from]!.offset;
      const r = checkReserveChains({ events: events.filter((e) => e.offset >= start), verify });
      expect(r.findings).toEqual([]);
    }
  });

  it('a missing archive: a second live contract of the pool is a fork', () => {
    const events = honest();
    const [, b] = chainOfAPool(events);
    const r = checkReserveChains({
      events: events.filter(
        (e) => !(e.kind === 'archived' && e.contractId !== b!.contractId && e.offset === b!.offset),
      ),
      verify,
    });
    expect(r.findings.map((f) => f.code)).toContain('RESERVE_CHAIN_FORK');
    expect(r.findings.every((f) => f.severity === 'error' && f.code === 'RESERVE_CHAIN_FORK')).toBe(true);
  });

  it('a contract missing from the stream is a gap', () => {
    const events = honest();
    const [, b] = chainOfAPool(events);
    const r = checkReserveChains({ events: events.filter((e) => e.contractId !== b!.contractId), verify });
    expect(r.findings.map((f) => f.code)).toEqual(['RESERVE_CHAIN_GAP']);
  });

  it('a minted, self-consistent contract replacing a contract other than the last archived is a fork', () => {
    const events = honest();
    const [a, b, c] = chainOfAPool(events);
    const cArchive = events.findIndex((e) => e.kind === 'archived' && e.contractId === c!.contractId);
    const upTo =
      cArchive < 0 ? events.length : events.findIndex((e) => e.offset === events[cArchive]!.offset);
    // B′: B's fields with its LP supply changed, minted as a valid contract replacing A
    const fields = decodeReserveCreateArg(decodeCreatedEventBlob(b!.createdEventBlob!).createArg)!;
    const minted = mintReserveContract({
      fields: { ...fields, totalLpSupply: '1.0000000000' },
      version: 'v12',
      createdAtMicros: decodeCreatedEventBlob(b!.createdEventBlob!).createdAt,
      rng: createSeededRng('forged-fork'),
      sha256: sha256Node,
      observers: [AUDITOR],
    });
    expect(verify(minted.contractId, minted.blob).status).toBe('proven');
    const list: FollowedReserveEvent[] = [...events.slice(0, upTo)];
    // the pool's contract after C is archived in the same transaction: end with C archived only
    const last = list.at(-1)!.offset + 1;
    if (cArchive >= 0) list.push({ ...events[cArchive]!, offset: last });
    list.push({
      offset: last + 1,
      nodeSeq: 0,
      contractId: minted.contractId,
      kind: 'created',
      createdEventBlob: minted.blob,
    });
    const r = checkReserveChains({ events: list, verify });
    const fork = r.findings.filter((f) => f.code === 'RESERVE_CHAIN_FORK');
    expect(fork.length).toBeGreaterThanOrEqual(1);
    expect(
      fork.some((f) => f.evidence.contractId === minted.contractId && f.evidence.got === a!.contractId),
    ).toBe(true);
  });

  it('a created event without a blob: could not check that contract, no gap claimed across it', () => {
    const events = honest();
    const [, b] = chainOfAPool(events);
    const r = checkReserveChains({
      events: events.map((e) =>
        e.contractId === b!.contractId && e.kind === 'created' ? { ...e, createdEventBlob: null } : e,
      ),
      verify,
    });
    expect(r.findings.map((f) => f.code)).toEqual(['RESERVE_CHAIN_UNVERIFIABLE']);
    expect(r.findings[0]!.label).toBe('could-not-check');
  });

  it('a blob whose contract ID does not recompute is LEDGER_EVENT_PROOF_FAILED, not placed in a chain', () => {
    const events = honest();
    const [, b] = chainOfAPool(events);
    const blob = new Uint8Array(b!.createdEventBlob!);
    // a byte of the create argument changed (the last bytes of the reserve's text)
    const i = Buffer.from(blob).indexOf(Buffer.from('.0'));
    blob[i + 2] = blob[i + 2] === 0x31 ? 0x32 : 0x31;
    const r = checkReserveChains({
      events: events.map((e) =>
        e.contractId === b!.contractId && e.kind === 'created' ? { ...e, createdEventBlob: blob } : e,
      ),
      verify,
    });
    expect(r.findings.map((f) => f.code)).toContain('LEDGER_EVENT_PROOF_FAILED');
  });
});
