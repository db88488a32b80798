/**
 * Reads what a participant says about the reserve contracts an exchange served (issue 26): the
 * active reserve contracts at the ledger end read before the fetch (`/v2/state/active-contracts`
 * filtered on the reserve profile's templates — one request for every pool, read while the exchange
 * is fetched), then, for each served contract they do not hold with the same blob, its events
 * (`/v2/events/events-by-contract-id`, in parallel — the HTTP client's pacer bounds the requests in
 * flight), the ledger time of an archive (`/v2/updates` over its offset) and how far the participant
 * has pruned (`/v2/state/latest-pruned-offsets`); and, for `mirror follow`, the reserve transactions of
 * the update stream page by page (`readReserveUpdatePage`). The result is plain data (`LedgerEvidence`, src/core/audit/ledger-evidence.ts) the
 * pure ledger checks judge; nothing here decides a finding.
 */
import type {
  LedgerActiveReserve,
  LedgerContractLookup,
  LedgerEvidence,
} from '../../core/audit/ledger-evidence.js';
import { decodeCreatedEventBlob } from '../../core/codec/blob-decoder.js';
import type { ReserveProfile } from '../../core/proof/profile.js';
import type { ReserveProof } from '../../core/proof/reserve-proof.js';
import type { LedgerAnswer, LedgerClient } from './ledger-client.js';
import { type LedgerCreatedEvent, type LedgerStreamTransaction, parseLedgerTime } from './parse-ledger.js';

export interface ReadLedgerEvidenceOptions {
  readonly client: LedgerClient;
  /** the participant's URL as shown */
  readonly participant: string;
  readonly party: string;
  readonly profile: ReserveProfile;
  /** the served contracts: contract ID → its served blob */
  readonly contracts: ReadonlyMap<string, string>;
  /** the proof step, for the blobs of the active contracts (which pool each is a reserve of) */
  readonly verify: (contractId: string, blob: string) => ReserveProof;
  /** the ledger end read before the exchange was fetched (`client.readLedgerEnd()`) */
  readonly endBeforeFetch: LedgerAnswer<number>;
  /** the active reserve contracts at that end (`startActiveReserveRead`), or null when not asked */
  readonly active: Promise<LedgerAnswer<LedgerCreatedEvent[]>> | null;
}

/** The reserve profile's templates in the package-name reference format (`#name:Module:Entity`). */
function computeReserveTemplateIds(profile: ReserveProfile): string[] {
  return profile.templates.map((t) => `#${t.packageName}:${t.moduleName}:${t.entityName}`);
}

/** Whether `party` is a signatory or observer of the served blob; null when it does not decode. */
function isStakeholder(blob: string, party: string): boolean | null {
  try {
    return decodeCreatedEventBlob(blob).stakeholders.includes(party);
  } catch {
    return null;
  }
}

const NOT_FOUND = 'CONTRACT_EVENTS_NOT_FOUND';

async function lookUp(
  o: ReadLedgerEvidenceOptions,
  contractId: string,
  blob: string,
  templateIds: readonly string[],
  pruned: () => Promise<LedgerAnswer<number>>,
): Promise<LedgerContractLookup> {
  const r = await o.client.readEventsOfContract(contractId);
  if (!r.ok) {
    if (r.status === 404 && r.code === NOT_FOUND) {
      const p = await pruned();
      return {
        kind: 'not-found',
        readerIsStakeholder: isStakeholder(blob, o.party),
        prunedUpTo: p.ok ? p.value : null,
        message: r.reason,
      };
    }
    return { kind: 'could-not-check', reason: r.reason };
  }
  const created = r.value.created;
  if (created === null)
    return { kind: 'could-not-check', reason: 'the participant returned no created event' };
  let archived: Extract<LedgerContractLookup, { kind: 'found' }>['archived'] = null;
  if (r.value.archived !== null) {
    const offset = r.value.archived.offset;
    const t = await o.client.readUpdateEffectiveAt(offset, templateIds);
    archived = t.ok
      ? {
          offset,
          effectiveAtMs: t.value,
          reason: t.value === null ? 'the update at that offset is not a transaction' : null,
        }
      : { offset, effectiveAtMs: null, reason: t.reason };
  }
  return {
    kind: 'found',
    contractId: created.contractId,
    createdEventBlob: created.createdEventBlob,
    createdOffset: created.offset,
    archived,
  };
}

/**
 * Starts reading the active reserve contracts at the ledger end read before the fetch
 * (`endBeforeFetch`), so the read runs while the exchange is fetched; null when that end is unknown.
 */
export function startActiveReserveRead(
  client: LedgerClient,
  profile: ReserveProfile,
  endBeforeFetch: LedgerAnswer<number>,
): Promise<LedgerAnswer<LedgerCreatedEvent[]>> | null {
  return endBeforeFetch.ok
    ? client.readActiveContracts(endBeforeFetch.value, computeReserveTemplateIds(profile))
    : null;
}

/**
 * Reads the evidence. The active reserve contracts at the ledger end before the fetch answer for every
 * served contract they hold with the same blob (created, and not archived before the fetch began); the
 * others are looked up one by one (in parallel), which tells an archive from a contract the ledger never
 * had. A request that fails leaves its part could-not-check; it never throws for one.
 */
export async function readLedgerEvidence(o: ReadLedgerEvidenceOptions): Promise<LedgerEvidence> {
  const templateIds = computeReserveTemplateIds(o.profile);
  // how far the participant pruned: asked once, only when a contract is not found
  let prunedAnswer: Promise<LedgerAnswer<number>> | null = null;
  const pruned = (): Promise<LedgerAnswer<number>> => {
    prunedAnswer ??= o.client.readPrunedOffset();
    return prunedAnswer;
  };
  const acs = o.active === null ? null : await o.active;
  let active: LedgerEvidence['active'];
  const byId = new Map<string, LedgerCreatedEvent>();
  if (!o.endBeforeFetch.ok)
    active = { ok: false, reason: `the ledger end could not be read: ${o.endBeforeFetch.reason}` };
  else if (acs === null || !acs.ok)
    active = { ok: false, reason: `the active contracts could not be read: ${acs?.reason ?? 'not asked'}` };
  else {
    const contracts: LedgerActiveReserve[] = [];
    let bad: string | null = null;
    for (const e of acs.value) {
      let createdAtMs: number;
      try {
        createdAtMs = parseLedgerTime(e.createdAt, 'createdEvent.createdAt');
      } catch (err) {
        bad = err instanceof Error ? err.message : String(err);
        break;
      }
      byId.set(e.contractId, e);
      contracts.push({
        contractId: e.contractId,
        createdOffset: e.offset,
        createdAtMs,
        proof: e.createdEventBlob === null ? null : o.verify(e.contractId, e.createdEventBlob),
      });
    }
    active =
      bad === null ? { ok: true, offset: o.endBeforeFetch.value, contracts } : { ok: false, reason: bad };
    if (bad !== null) byId.clear();
  }
  const entries = [...o.contracts];
  const looked = await Promise.all(
    entries.map(([id, blob]): Promise<LedgerContractLookup> | LedgerContractLookup => {
      const e = byId.get(id);
      // active before the fetch began, with this very blob: nothing more to ask
      if (e !== undefined && e.createdEventBlob === blob)
        return {
          kind: 'found',
          contractId: id,
          createdEventBlob: blob,
          createdOffset: e.offset,
          archived: null,
        };
      return lookUp(o, id, blob, templateIds, pruned);
    }),
  );
  const contracts = new Map<string, LedgerContractLookup>();
  entries.forEach(([id], i) => {
    contracts.set(id, looked[i] as LedgerContractLookup);
  });
  return {
    participant: o.participant,
    party: o.party,
    endBeforeFetch: o.endBeforeFetch.ok ? o.endBeforeFetch.value : null,
    contracts,
    active,
  };
}

/** One page of the reserve templates' update stream and the offset it has been read up to. */
export interface ReserveUpdatePage {
  readonly transactions: readonly LedgerStreamTransaction[];
  /**
   * every reserve transaction after the page's start up to this offset (inclusive) is in the page:
   * `endInclusive` when the page is not full, else its last transaction's offset (more may follow)
   */
  readonly upTo: number;
}

/**
 * Reads one page of the reserve templates' transactions after `after` up to `endInclusive`
 * (`POST /v2/updates`, ACS delta with blobs, Canton's `limit`). A failed request is an answer, not
 * an exception.
 */
export async function readReserveUpdatePage(
  client: LedgerClient,
  profile: ReserveProfile,
  after: number,
  endInclusive: number,
  limit: number,
): Promise<LedgerAnswer<ReserveUpdatePage>> {
  const r = await client.readUpdates(after, endInclusive, computeReserveTemplateIds(profile), limit);
  if (!r.ok) return r;
  const txs = r.value;
  const lastOffset = txs.at(-1)?.offset ?? after;
  if (txs.length > limit || lastOffset > endInclusive || (txs[0] !== undefined && txs[0].offset <= after))
    return {
      ok: false,
      status: null,
      code: 'LEDGER_RESPONSE_INVALID',
      reason: `the update stream expected at most ${limit} transactions within (${after}, ${endInclusive}], got ${txs.length} up to offset ${lastOffset}`,
    };
  return { ok: true, value: { transactions: txs, upTo: txs.length === limit ? lastOffset : endInclusive } };
}
