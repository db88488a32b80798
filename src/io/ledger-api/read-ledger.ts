/**
 * Reads what a participant says about the reserve contracts an exchange served (issue 26): for
 * every contract its events (`/v2/events/events-by-contract-id`, in parallel — the HTTP client's
 * pacer bounds the requests in flight), the ledger time of an archive (`/v2/updates/update-by-offset`),
 * how far the participant has pruned, and the active reserve contracts at the ledger end
 * (`/v2/state/ledger-end`, then `/v2/state/active-contracts` filtered on the reserve profile's
 * templates). The result is plain data (`LedgerEvidence`, src/core/audit/ledger-evidence.ts) the
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
import { parseLedgerTime } from './parse-ledger.js';

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

/** Reads the evidence; a request that fails leaves its part could-not-check, it never throws for one. */
export async function readLedgerEvidence(o: ReadLedgerEvidenceOptions): Promise<LedgerEvidence> {
  const templateIds = computeReserveTemplateIds(o.profile);
  // how far the participant pruned: asked once, only when a contract is not found
  let prunedAnswer: Promise<LedgerAnswer<number>> | null = null;
  const pruned = (): Promise<LedgerAnswer<number>> => {
    prunedAnswer ??= o.client.readPrunedOffset();
    return prunedAnswer;
  };
  const activePromise = (async (): Promise<LedgerEvidence['active']> => {
    const end = await o.client.readLedgerEnd();
    if (!end.ok) return { ok: false, reason: `the ledger end could not be read: ${end.reason}` };
    const acs = await o.client.readActiveContracts(end.value, templateIds);
    if (!acs.ok) return { ok: false, reason: `the active contracts could not be read: ${acs.reason}` };
    const contracts: LedgerActiveReserve[] = [];
    for (const e of acs.value) {
      let createdAtMs: number;
      try {
        createdAtMs = parseLedgerTime(e.createdAt, 'createdEvent.createdAt');
      } catch (err) {
        return { ok: false, reason: err instanceof Error ? err.message : String(err) };
      }
      contracts.push({
        contractId: e.contractId,
        createdOffset: e.offset,
        createdAtMs,
        proof: e.createdEventBlob === null ? null : o.verify(e.contractId, e.createdEventBlob),
      });
    }
    return { ok: true, offset: end.value, contracts };
  })();
  const entries = [...o.contracts];
  const looked = await Promise.all(entries.map(([id, blob]) => lookUp(o, id, blob, templateIds, pruned)));
  const contracts = new Map<string, LedgerContractLookup>();
  entries.forEach(([id], i) => {
    contracts.set(id, looked[i] as LedgerContractLookup);
  });
  return {
    participant: o.participant,
    party: o.party,
    endBeforeFetch: o.endBeforeFetch.ok ? o.endBeforeFetch.value : null,
    contracts,
    active: await activePromise,
  };
}
