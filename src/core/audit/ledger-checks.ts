/**
 * The ledger checks (issue 26; docs/findings.md "Ledger checks"): what a Canton participant the
 * auditor trusts reports about the reserve contracts the exchange served (./ledger-evidence.ts).
 *
 * - `ledger.contract` (per pool, the contract of its first proof): the created event's contract ID
 *   and blob equal the served ones and there is no archive event → the pool is `ledger-confirmed`.
 *   An archive at an offset at or below the ledger end read before the exchange was fetched (so
 *   before the fetch, whatever the clocks say) whose transaction's ledger time lies before the first
 *   `/pools/proof` fetch minus the published pool cache window (5 s) and the clock slack (2 s) →
 *   `PROOF_ARCHIVED`: no honest cached proof is that old (docs/findings.md "Soundness"); any other
 *   archive may be an honest cached proof or a change during the audit (`LEDGER_PROOF_SUPERSEDED`, info). Unknown to the participant although the reading party is a
 *   stakeholder of the served blob, nothing was pruned, and the blob's ledger time is more than a
 *   minute older than the newest reserve contract the participant showed (a newer one may not have
 *   reached it yet) → `PROOF_NOT_ON_LEDGER`. Everything the
 *   participant could not answer — a failed request, 401/403, pruning, a party that is not a
 *   stakeholder — is could-not-check (`LEDGER_UNAVAILABLE`), never evidence.
 * - `ledger.completeness` (once): every reserve contract active at the ledger end belongs to a pool
 *   of `/pools/proof`, and no pool has two. A contract counts as hidden only when it was created at
 *   or below the ledger end read before the fetch and before the newest proof snapshot minus the
 *   window: a newer one may be newer than every snapshot the exchange served.
 *
 * Pure: the evidence is read by src/io/ledger-api, the clock is the snapshot's.
 */
import type { ProvenFields } from '../proof/profile.js';
import type { LedgerPoolResult } from './assurance.js';
import { type AuditCollector, type Finding, makeFinding } from './finding.js';
import type { LedgerEvidence } from './ledger-evidence.js';
import { PUBLISHED_MAX_AGE_SECONDS } from './market-cache.js';
import { CLOCK_SLACK_MS } from './market-time.js';
import type { ProvenPool } from './proof-checks.js';
import type { ProofSet } from './snapshot.js';

/** How long before a fetch an honest cached proof's contract may have been archived. */
export const LEDGER_ARCHIVE_WINDOW_MS = PUBLISHED_MAX_AGE_SECONDS.pools * 1000 + CLOCK_SLACK_MS;

/**
 * How far a transaction's ledger time may lie behind what a participant has already shown and the
 * transaction still not have reached it (Canton's default tolerance between ledger time and record
 * time is 60 s): a contract newer than that may simply not have reached the participant read yet
 * (reading through one's own participant, it may lag the exchange's).
 */
const LEDGER_TIME_TOLERANCE_MS = 60_000;

const short = (id: string): string => `${id.slice(0, 16)}…`;

/** Whether two base64 texts are the same bytes (padding and line breaks aside). */
function isSameBase64(a: string, b: string): boolean {
  const norm = (s: string): string => s.replace(/[\s=]/g, '');
  return norm(a) === norm(b);
}

function unavailable(pool: string | null, reason: string, evidence: Record<string, unknown> = {}): Finding {
  return makeFinding('LEDGER_UNAVAILABLE', pool, `the ledger could not confirm this: ${reason}`, {
    reason,
    ...evidence,
  });
}

/** The ledger check of one pool's contract; returns what it established. */
function checkLedgerContract(
  c: AuditCollector,
  e: LedgerEvidence,
  p: ProvenPool,
  fetchStartMs: number,
): LedgerPoolResult {
  const id = p.contractId;
  const look = e.contracts.get(id);
  const record = (f: Finding | null): void => {
    c.record('ledger', 'ledger.contract', p.poolId, f === null ? [] : [f]);
  };
  if (look === undefined || look.kind === 'could-not-check') {
    record(unavailable(p.poolId, look?.reason ?? 'the contract was not looked up', { contractId: id }));
    return 'could-not-check';
  }
  if (look.kind === 'not-found') {
    const createdMs = p.ledgerCreatedAtMicros === null ? null : Number(p.ledgerCreatedAtMicros / 1000n);
    const reachedMs =
      e.active.ok && e.active.contracts.length > 0
        ? Math.max(...e.active.contracts.map((x) => x.createdAtMs))
        : null;
    const why =
      look.readerIsStakeholder === null
        ? 'the served blob does not decode, so whether the reading party is a stakeholder is unknown'
        : !look.readerIsStakeholder
          ? `the reading party ${e.party} is not a stakeholder of the served contract: the participant cannot show it`
          : look.prunedUpTo === null
            ? 'the participant did not say how far it has pruned: an archived contract may have been pruned'
            : look.prunedUpTo > 0
              ? `the participant has pruned up to offset ${look.prunedUpTo}: an archived contract's events may be gone`
              : createdMs === null || reachedMs === null || createdMs + LEDGER_TIME_TOLERANCE_MS >= reachedMs
                ? `the contract claims a ledger time (${createdMs === null ? 'unknown' : new Date(createdMs).toISOString()}) not a minute older than the newest reserve contract the participant showed (${reachedMs === null ? 'none' : new Date(reachedMs).toISOString()}): it may not have reached this participant yet`
                : null;
    if (why !== null) {
      record(unavailable(p.poolId, why, { contractId: id, participant: look.message }));
      return 'could-not-check';
    }
    record(
      makeFinding(
        'PROOF_NOT_ON_LEDGER',
        p.poolId,
        `the participant does not know contract ${short(id)} although ${e.party} is a stakeholder of it and nothing was pruned: the served contract was never created on the ledger`,
        { contractId: id, party: e.party, participant: look.message },
      ),
    );
    return 'contradicted';
  }
  if (look.contractId !== id || look.createdEventBlob === null) {
    record(
      unavailable(p.poolId, 'the created event named another contract or carried no blob', {
        contractId: id,
        got: look.contractId,
      }),
    );
    return 'could-not-check';
  }
  if (!isSameBase64(look.createdEventBlob, p.entry.createdEventBlob)) {
    record(
      makeFinding(
        'PROOF_LEDGER_BLOB_MISMATCH',
        p.poolId,
        `the participant's created event of contract ${short(id)} carries another blob than the one served`,
        { contractId: id, createdOffset: look.createdOffset },
      ),
    );
    return 'contradicted';
  }
  if (look.archived === null) {
    record(null);
    return 'confirmed';
  }
  const a = look.archived;
  if (a.effectiveAtMs === null || !Number.isFinite(fetchStartMs)) {
    const why = a.effectiveAtMs === null ? (a.reason ?? 'unknown') : 'the fetch time is unknown';
    record(
      unavailable(
        p.poolId,
        `the contract was archived at offset ${a.offset}, and its time cannot be compared: ${why}`,
        {
          contractId: id,
          archivedOffset: a.offset,
        },
      ),
    );
    return 'could-not-check';
  }
  if (e.endBeforeFetch === null) {
    record(
      unavailable(
        p.poolId,
        `the contract was archived at offset ${a.offset}, and the ledger end before the fetch is unknown`,
        {
          contractId: id,
          archivedOffset: a.offset,
        },
      ),
    );
    return 'could-not-check';
  }
  const limitMs = fetchStartMs - LEDGER_ARCHIVE_WINDOW_MS;
  const evidence = {
    contractId: id,
    archivedOffset: a.offset,
    archivedAt: new Date(a.effectiveAtMs).toISOString(),
    proofFetchedAt: new Date(fetchStartMs).toISOString(),
    windowMs: LEDGER_ARCHIVE_WINDOW_MS,
  };
  if (a.offset <= e.endBeforeFetch && a.effectiveAtMs < limitMs) {
    record(
      makeFinding(
        'PROOF_ARCHIVED',
        p.poolId,
        `contract ${short(id)} was archived at ${evidence.archivedAt}, more than ${LEDGER_ARCHIVE_WINDOW_MS / 1000} s before the proof was fetched (${evidence.proofFetchedAt}): the exchange served a reserve contract that was no longer current`,
        {
          ...evidence,
          expected: `archived after ${new Date(limitMs).toISOString()}`,
          got: evidence.archivedAt,
        },
      ),
    );
    return 'contradicted';
  }
  c.record('ledger', 'ledger.contract', p.poolId, [
    makeFinding(
      'LEDGER_PROOF_SUPERSEDED',
      p.poolId,
      `contract ${short(id)} was archived at ${evidence.archivedAt}, within the cache window of the proof fetched at ${evidence.proofFetchedAt}`,
      evidence,
    ),
  ]);
  return 'superseded';
}

/** A pool's identity in a reserve contract: its pool id field, else its two tokens. */
function poolKeyOf(f: ProvenFields): string | null {
  if (f.poolId !== null) return `pool\u0000${f.poolId}`;
  if (f.tokenA === null || f.tokenB === null) return null;
  return `tokens\u0000${f.tokenA.admin}\u0000${f.tokenA.id}\u0000${f.tokenB.admin}\u0000${f.tokenB.id}`;
}

/** The completeness check: every active reserve contract is a served pool's, one per pool. */
function checkLedgerCompleteness(
  c: AuditCollector,
  e: LedgerEvidence,
  served: readonly { readonly poolId: string; readonly fields: ProvenFields | null }[],
  newestSnapshotMs: number | null,
): void {
  if (!e.active.ok) {
    c.record('ledger', 'ledger.completeness', null, [unavailable(null, e.active.reason)]);
    return;
  }
  const known = new Set<string>();
  for (const s of served) {
    known.add(`pool\u0000${s.poolId}`);
    const k = s.fields === null ? null : poolKeyOf(s.fields);
    if (k !== null) known.add(k);
  }
  const findings: Finding[] = [];
  const byPool = new Map<string, string[]>();
  for (const a of e.active.contracts) {
    const f = a.proof?.status === 'proven' ? a.proof.provenFields : null;
    const key = f === null ? null : poolKeyOf(f);
    if (f === null || key === null) {
      findings.push(
        unavailable(
          null,
          `active reserve contract ${short(a.contractId)} could not be verified, so its pool is unknown: ${a.proof?.reasons.map((r) => r.code).join(', ') ?? 'no blob'}`,
          { contractId: a.contractId },
        ),
      );
      continue;
    }
    const list = byPool.get(key);
    if (list === undefined) byPool.set(key, [a.contractId]);
    else list.push(a.contractId);
    const listed = known.has(key) || (f.poolId !== null && known.has(`pool\u0000${f.poolId}`));
    // a contract created within the window before the newest snapshot may be newer than it
    const older =
      newestSnapshotMs !== null &&
      e.endBeforeFetch !== null &&
      a.createdOffset <= e.endBeforeFetch &&
      a.createdAtMs < newestSnapshotMs - LEDGER_ARCHIVE_WINDOW_MS;
    if (!listed && older)
      findings.push(
        makeFinding(
          'LEDGER_RESERVE_UNLISTED',
          f.poolId,
          `reserve contract ${short(a.contractId)} of pool ${f.poolId ?? '(by tokens)'} is active on the ledger (created ${new Date(a.createdAtMs).toISOString()}) but no pool of /pools/proof is its pool: a hidden pool`,
          { kind: 'hidden-pool', contractId: a.contractId, ledgerOffset: e.active.offset },
        ),
      );
  }
  for (const [key, ids] of byPool)
    if (ids.length > 1)
      findings.push(
        makeFinding(
          'LEDGER_RESERVE_UNLISTED',
          key.startsWith('pool\u0000') ? key.slice(5) : null,
          `${ids.length} reserve contracts of one pool are active at ledger offset ${e.active.offset}: ${ids.map(short).join(', ')} (a pool has one live reserve contract)`,
          { kind: 'second-contract', contractIds: ids, ledgerOffset: e.active.offset },
        ),
      );
  c.record('ledger', 'ledger.completeness', null, findings);
}

/**
 * Runs the ledger checks over the pools' first proofs (`proven`) and the proof sets of the audit;
 * `fetchStartMs`: when the first /pools/proof fetch started. Returns each pool's ledger result.
 */
export function checkLedger(
  c: AuditCollector,
  e: LedgerEvidence,
  proven: ReadonlyMap<string, ProvenPool>,
  proofSets: readonly ProofSet[],
  fetchStartMs: number,
): Map<string, LedgerPoolResult> {
  const out = new Map<string, LedgerPoolResult>();
  for (const [poolId, p] of proven) {
    // a failed or unverifiable proof is judged by the proof checks; the ledger adds nothing to it
    if (p.status !== 'proven') continue;
    out.set(poolId, checkLedgerContract(c, e, p, fetchStartMs));
  }
  const served = [...proven.values()].map((p) => ({ poolId: p.poolId, fields: p.fields }));
  for (const set of proofSets)
    for (const entry of set.entries) served.push({ poolId: entry.poolId, fields: null });
  const newest = proofSets.length === 0 ? null : Math.max(...proofSets.map((s) => s.updatedAtMs));
  checkLedgerCompleteness(c, e, served, newest);
  return out;
}
