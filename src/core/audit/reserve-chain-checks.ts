/**
 * The reserve chain of the followed ledger (issue 26 "history from the ledger"; docs/findings.md
 * "Reserve chain"): over the reserve contracts' created and archived events a participant's update
 * stream reported (`mirror follow`), in stream order, each pool's contracts must form one chain — the
 * reference template's `sequence` (+1 per contract) and `previous` (the contract it replaced):
 *
 * - `RESERVE_CHAIN_FORK`: a contract is created while another contract of its pool is still live
 *   (two live reserve contracts of one pool), or its `previous` is a followed contract of the pool
 *   other than the last one archived;
 * - `RESERVE_CHAIN_GAP`: its `previous` is the last archived contract but its `sequence` is not that
 *   contract's + 1, or its `previous` is a contract the stream never reported although the pool's
 *   chain was followed before it;
 * - `LEDGER_EVENT_PROOF_FAILED`: a followed contract's ID does not recompute from its blob (the
 *   proof step runs on every created event before any of its fields is trusted);
 * - `RESERVE_CHAIN_UNVERIFIABLE` (could-not-check): an event without a blob, an ID that cannot be
 *   recomputed, or a template without `sequence`/`previous` — that contract is not placed in a chain,
 *   and its successor starts its pool's chain anew (no gap is claimed across it).
 *
 * Honest timelines raise nothing: the stream may start after a pool's first contracts (the first
 * contract seen of a pool starts its chain; an archive of a contract never seen created is skipped),
 * a pool may start a new chain (`previous` None) once its last contract is archived, and the
 * archive and the create of one transaction are read archive first. Pure: the proof step is passed in.
 */
import { formatHex } from '../codec/bytes.js';
import type { Value } from '../codec/value.js';
import type { ReserveProof } from '../proof/reserve-proof.js';
import { type Finding, makeFinding } from './finding.js';

/** One followed event (the mirror's `ledger_events` row). */
export interface FollowedReserveEvent {
  readonly offset: number;
  readonly nodeSeq: number;
  readonly contractId: string;
  readonly kind: 'created' | 'archived';
  /** created events: the blob the participant served, or null */
  readonly createdEventBlob: Uint8Array | null;
}

export interface CheckReserveChainsOptions {
  /** the events in stream order (offset, then position in the transaction) */
  readonly events: readonly FollowedReserveEvent[];
  /** THE proof step (`verifyReserveProof` with the run's profile and types) */
  readonly verify: (contractId: string, blob: Uint8Array) => ReserveProof;
}

export interface ReserveChainResult {
  readonly findings: readonly Finding[];
  /** pools whose chain was followed */
  readonly pools: number;
  /** created events whose contract was proven and placed in a chain */
  readonly contracts: number;
}

/** The chain fields of the reference template: by label when the types are known, else by position. */
const CHAIN_FIELDS = { sequence: 8, previous: 9 } as const;

interface ChainLink {
  readonly sequence: bigint;
  readonly previous: string | null;
}

/** `sequence` and `previous` of a decoded create argument, or why they cannot be read. */
function readChainLink(createArg: Value, labels: readonly string[] | null): ChainLink | string {
  if (createArg.kind !== 'record') return 'the create argument is not a record';
  const at = (name: keyof typeof CHAIN_FIELDS): Value | undefined => {
    const i = labels === null ? CHAIN_FIELDS[name] : labels.indexOf(name);
    return i < 0 ? undefined : createArg.fields[i];
  };
  const seq = at('sequence');
  if (seq?.kind !== 'int64') return 'the template has no Int64 field "sequence"';
  const prev = at('previous');
  // a trailing None may be dropped (normal form): an absent last field is None
  if (prev === undefined) return { sequence: seq.value, previous: null };
  if (prev.kind !== 'optional') return 'the template\'s field "previous" is not an Optional ContractId';
  if (prev.value === null) return { sequence: seq.value, previous: null };
  if (prev.value.kind !== 'contractId')
    return 'the template\'s field "previous" is not an Optional ContractId';
  return { sequence: seq.value, previous: formatHex(prev.value.value) };
}

interface PoolChain {
  /** contracts created (followed) and not archived yet */
  readonly live: Set<string>;
  /** every contract of the pool the stream reported created, with its sequence */
  readonly seen: Map<string, bigint>;
  lastArchived: string | null;
}

/** Checks each followed pool's chain (see the module comment). */
export function checkReserveChains(o: CheckReserveChainsOptions): ReserveChainResult {
  const findings: Finding[] = [];
  const pools = new Map<string, PoolChain>();
  const poolOf = new Map<string, string>();
  // created contracts that could not be placed (no blob, not proven): a successor of one starts its chain anew
  const unplaced = new Set<string>();
  let contracts = 0;
  const chain = (pool: string): PoolChain => {
    let c = pools.get(pool);
    if (c === undefined) {
      c = { live: new Set(), seen: new Map(), lastArchived: null };
      pools.set(pool, c);
    }
    return c;
  };
  const archive = (e: FollowedReserveEvent): void => {
    const pool = poolOf.get(e.contractId);
    if (pool === undefined) return; // created before the stream was followed, or unverifiable
    const c = chain(pool);
    c.live.delete(e.contractId);
    c.lastArchived = e.contractId;
  };
  const create = (e: FollowedReserveEvent): void => {
    const where = { contractId: e.contractId, offset: e.offset };
    if (e.createdEventBlob === null) {
      unplaced.add(e.contractId);
      findings.push(
        makeFinding(
          'RESERVE_CHAIN_UNVERIFIABLE',
          null,
          `the created event of ${e.contractId} at offset ${e.offset} carries no blob: its chain is not checked`,
          where,
        ),
      );
      return;
    }
    const proof = o.verify(e.contractId, e.createdEventBlob);
    if (proof.status === 'failed') {
      unplaced.add(e.contractId);
      findings.push(
        makeFinding(
          'LEDGER_EVENT_PROOF_FAILED',
          proof.blobFields?.poolId ?? null,
          `the followed contract ${e.contractId} at offset ${e.offset} does not prove: ${proof.reasons.map((r) => `${r.code}: ${r.message}`).join('; ')}`,
          { ...where, reasons: proof.reasons.map((r) => r.code) },
        ),
      );
      return;
    }
    const decoded = proof.evidence.decoded;
    const pool = proof.provenFields?.poolId ?? null;
    const link =
      proof.status !== 'proven' || decoded === null
        ? proof.reasons.map((r) => `${r.code}: ${r.message}`).join('; ')
        : pool === null
          ? 'the reserve profile reads no pool id'
          : readChainLink(decoded.createArg, decoded.fieldLabels);
    if (typeof link === 'string' || pool === null) {
      unplaced.add(e.contractId);
      findings.push(
        makeFinding(
          'RESERVE_CHAIN_UNVERIFIABLE',
          pool,
          `the followed contract ${e.contractId} at offset ${e.offset} cannot be placed in its pool's chain: ${String(link)}`,
          where,
        ),
      );
      return;
    }
    contracts += 1;
    poolOf.set(e.contractId, pool);
    const c = chain(pool);
    const evidence = { ...where, sequence: link.sequence.toString(), previous: link.previous };
    if (c.live.size > 0) {
      const other = [...c.live];
      findings.push(
        makeFinding(
          'RESERVE_CHAIN_FORK',
          pool,
          `pool ${pool}: ${e.contractId} was created at offset ${e.offset} while ${other.join(', ')} of the same pool was still live`,
          { ...evidence, expected: 'no live reserve contract of the pool', got: other },
        ),
      );
    } else if (c.seen.size > 0 && link.previous !== null && !unplaced.has(link.previous)) {
      const prevSeq = c.seen.get(link.previous);
      if (prevSeq === undefined)
        findings.push(
          makeFinding(
            'RESERVE_CHAIN_GAP',
            pool,
            `pool ${pool}: ${e.contractId} (sequence ${link.sequence}) replaces ${link.previous}, a contract the ledger never reported created while the pool was followed`,
            { ...evidence, expected: c.lastArchived, got: link.previous },
          ),
        );
      else if (link.previous !== c.lastArchived)
        findings.push(
          makeFinding(
            'RESERVE_CHAIN_FORK',
            pool,
            `pool ${pool}: ${e.contractId} replaces ${link.previous}, not the pool's last archived contract ${c.lastArchived ?? '(none)'}`,
            { ...evidence, expected: c.lastArchived, got: link.previous },
          ),
        );
      else if (link.sequence !== prevSeq + 1n)
        findings.push(
          makeFinding(
            'RESERVE_CHAIN_GAP',
            pool,
            `pool ${pool}: ${e.contractId} has sequence ${link.sequence} after ${link.previous} with sequence ${prevSeq}`,
            { ...evidence, expected: (prevSeq + 1n).toString(), got: link.sequence.toString() },
          ),
        );
    }
    c.live.add(e.contractId);
    c.seen.set(e.contractId, link.sequence);
  };
  // one transaction at a time: its archives before its creates
  let i = 0;
  const events = o.events;
  while (i < events.length) {
    let j = i;
    while (j < events.length && events[j]?.offset === events[i]?.offset) j += 1;
    const tx = events.slice(i, j);
    for (const e of tx) if (e.kind === 'archived') archive(e);
    for (const e of tx) if (e.kind === 'created') create(e);
    i = j;
  }
  return { findings, pools: pools.size, contracts };
}
