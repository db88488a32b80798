/**
 * The simulated ledger as a Canton participant sees it (docs/decisions/server.md "Ledger API"):
 * `ReserveLedgerView` (sim/exchange.ts) over the ledger store. An offset is a ledger update's
 * sequence number (`ledger_updates.seq`: 1, 2, 3, … strictly increasing, every update one); a
 * reserve contract's created event is at its creating update's offset, its archive event at its
 * archiving update's. Within one update the events are in pool order, a pool's archive before its
 * successor's create, and an event's node ID is its position in that list (a consuming exercise
 * before the create it performs, as in the update Canton records).
 *
 * What a participant serves of a contract is read from the contract itself: template, package
 * name, signatories and observers from its `created_event_blob` (decoded by the core), the create
 * argument through the reserve template (reserve-template.ts). Decoded contracts are memoised by
 * contract ID (a contract never changes; its archive is read from the store each time).
 */
import { decodeCreatedEventBlob } from '../core/codec/blob-decoder.js';
import { formatTemplateId } from '../core/codec/contract-json.js';
import { ServerError } from '../errors/server.js';
import type {
  LedgerEventPosition,
  LedgerReserveContract,
  LedgerReserveEvent,
  LedgerReserveUpdate,
  ReserveLedgerView,
} from './exchange.js';
import {
  decodeReserveCreateArg,
  formatReserveCreateArgJson,
  RESERVE_ENTITY_NAME,
  RESERVE_MODULE_NAME,
  RESERVE_PACKAGE_ID,
  RESERVE_PACKAGE_NAME,
} from './reserve-template.js';
import type { LedgerContractRow, LedgerStore } from './store/ledger-store.js';

/** What a contract's blob says, once decoded (immutable). */
interface ContractContent {
  readonly templateId: string;
  readonly packageName: string;
  readonly createArgument: unknown;
  readonly signatories: readonly string[];
  readonly observers: readonly string[];
}

const MEMO_LIMIT = 20_000;
/** Updates read from the store per batch while looking for visible ones. */
const UPDATE_BATCH = 256;

export function createReserveLedgerView(store: LedgerStore): ReserveLedgerView {
  const memo = new Map<string, ContractContent>();

  const contentOf = (row: LedgerContractRow): ContractContent => {
    let c = memo.get(row.contractId);
    if (c !== undefined) return c;
    let fields: ReturnType<typeof decodeReserveCreateArg>;
    let decoded: ReturnType<typeof decodeCreatedEventBlob>;
    try {
      decoded = decodeCreatedEventBlob(row.blob);
      fields = decodeReserveCreateArg(decoded.createArg);
    } catch (cause) {
      throw new ServerError('DB_CORRUPT', `"reserve_contracts.${row.contractId}" expected a decodable blob`, {
        cause,
      });
    }
    if (fields === null) {
      throw new ServerError(
        'DB_CORRUPT',
        `"reserve_contracts.${row.contractId}" expected a PoolReserve create argument`,
      );
    }
    const signatories = new Set(decoded.signatories);
    c = {
      templateId: formatTemplateId(decoded.templateId),
      packageName: decoded.packageName,
      createArgument: formatReserveCreateArgJson(fields),
      signatories: decoded.signatories,
      observers: decoded.stakeholders.filter((p) => !signatories.has(p)),
    };
    if (memo.size >= MEMO_LIMIT) memo.clear();
    memo.set(row.contractId, c);
    return c;
  };

  /** The rows an update created or archived, as events in node order. */
  const eventRowsOf = (updateId: string): { kind: 'created' | 'archived'; row: LedgerContractRow }[] => {
    const rows = store.listUpdateContracts(updateId);
    const events: { kind: 'created' | 'archived'; row: LedgerContractRow }[] = [];
    for (const row of rows) {
      if (row.archivedBy === updateId) events.push({ kind: 'archived', row });
      if (row.updateId === updateId) events.push({ kind: 'created', row });
    }
    // a row listed twice by the union (created and archived by one update) gives each event once
    const seen = new Set<string>();
    const unique = events.filter((e) => {
      const k = `${e.kind}\n${e.row.contractId}`;
      if (seen.has(k)) return false;
      seen.add(k);
      return true;
    });
    unique.sort((a, b) => a.row.poolOrd - b.row.poolOrd || (a.kind === 'archived' ? -1 : 1));
    return unique;
  };

  const nodeIdOf = (updateId: string, kind: 'created' | 'archived', contractId: string): number => {
    const i = eventRowsOf(updateId).findIndex((e) => e.kind === kind && e.row.contractId === contractId);
    if (i < 0) {
      throw new ServerError('DB_CORRUPT', `"ledger_updates.${updateId}" expected the event of ${contractId}`);
    }
    return i;
  };

  /** The contract; node IDs come from `nodes` when the caller has its update's events at hand. */
  const toContract = (
    row: LedgerContractRow,
    nodes?: { created?: number; archived?: number },
  ): LedgerReserveContract => {
    const content = contentOf(row);
    const created: LedgerEventPosition = {
      offset: row.createdOffset,
      updateId: row.updateId,
      nodeId: nodes?.created ?? nodeIdOf(row.updateId, 'created', row.contractId),
    };
    const archived: LedgerEventPosition | null =
      row.archivedBy === null || row.archivedOffset === null
        ? null
        : {
            offset: row.archivedOffset,
            updateId: row.archivedBy,
            nodeId: nodes?.archived ?? nodeIdOf(row.archivedBy, 'archived', row.contractId),
          };
    return {
      contractId: row.contractId,
      poolId: row.poolId,
      templateId: content.templateId,
      packageName: content.packageName,
      createArgument: content.createArgument,
      signatories: content.signatories,
      observers: content.observers,
      createdEventBlob: row.blob,
      createdAtMicros: row.createdAtMicros,
      created,
      archived,
    };
  };

  const templates = [
    {
      templateId: `${RESERVE_PACKAGE_ID}:${RESERVE_MODULE_NAME}:${RESERVE_ENTITY_NAME}`,
      packageName: RESERVE_PACKAGE_NAME,
    },
  ];

  return {
    ledgerTemplates: () => templates,
    ledgerEnd: () => store.maxLedgerUpdateSeq(),

    reserveContract: (contractId) => {
      const row = store.getLedgerContract(contractId);
      return row === null ? null : toContract(row);
    },

    activeReserveContracts: (offset) => {
      const out: LedgerReserveContract[] = [];
      if (offset <= 0) return out;
      for (const pool of store.listPools()) {
        const row = store.getPoolContractAt(pool.poolId, offset);
        if (row === null) continue;
        if (row.archivedOffset !== null && row.archivedOffset <= offset) continue;
        out.push(toContract(row));
      }
      return out;
    },

    reserveUpdates: (after, upTo, max, accept) => {
      const out: LedgerReserveUpdate[] = [];
      let from = after;
      while (out.length < max && from < upTo) {
        const batch = store.listLedgerUpdates(from, upTo, UPDATE_BATCH);
        if (batch.length === 0) break;
        for (const u of batch) {
          from = u.offset;
          const rows = eventRowsOf(u.updateId);
          if (rows.length === 0) continue;
          const events: LedgerReserveEvent[] = rows.map((e, nodeId) => ({
            kind: e.kind,
            contract: toContract(e.row, e.kind === 'created' ? { created: nodeId } : { archived: nodeId }),
          }));
          const update: LedgerReserveUpdate = {
            offset: u.offset,
            updateId: u.updateId,
            recordMicros: u.recordMicros,
            events,
          };
          if (!accept(update)) continue;
          out.push(update);
          if (out.length >= max) break;
        }
      }
      return out;
    },
  };
}
