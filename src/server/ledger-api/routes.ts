/**
 * The reference server's Canton JSON Ledger API v2 (`serve --ledger-api`, docs/server.md,
 * docs/decisions/server.md "Ledger API"): the endpoints an auditor needs, in the shapes of Canton's
 * OpenAPI document (3.5.7), over the simulated ledger as a participant sees it
 * (`ReserveLedgerView`, sim/exchange.ts):
 *
 *   GET  /v2/version                        GetLedgerApiVersionResponse
 *   GET  /v2/state/ledger-end               GetLedgerEndResponse
 *   GET  /v2/state/latest-pruned-offsets    GetLatestPrunedOffsetsResponse (the simulated ledger never prunes: 0)
 *   POST /v2/events/events-by-contract-id   JsGetEventsByContractIdResponse
 *   POST /v2/state/active-contracts         JsGetActiveContractsResponse[]
 *   POST /v2/updates (and /v2/updates/flats) JsGetUpdatesResponse[] (ACS-delta transactions)
 *
 * Every request needs a bearer token (auth.ts). A refusal is Canton's `JsCantonError` with Canton's
 * code and HTTP status (src/errors/server.ts `LEDGER_REJECTION`); a body that does not decode is
 * `400 text/plain`, as the document's `400` says. Lists follow Canton's `limit` rule: at most
 * `limit` elements, and `413 JSON_API_MAXIMUM_LIST_ELEMENTS_NUMBER_REACHED` when more than the
 * server's list limit match.
 */
import { formatGot } from '../../errors/base.js';
import { LEDGER_REJECTION, LedgerRequestRejectedError } from '../../errors/server.js';
import type { ReserveLedgerView } from '../../sim/exchange.js';
import type { RequestContext } from '../deps.js';
import { jsonReply, type Reply, readBody } from '../http.js';
import type { Router } from '../router.js';
import { type LedgerAuthOptions, type LedgerCaller, verifyLedgerBearer } from './auth.js';
import {
  computeVisibility,
  formatArchivedEvent,
  formatCreatedEvent,
  formatTransactionUpdate,
  isTemplateReference,
  SYNCHRONIZER_ID,
} from './events.js';
import {
  type EventFormat,
  parseActiveContractsRequest,
  parseEventsByContractIdRequest,
  parseInt64Parameter,
  parseJsonBody,
  parseUpdatesRequest,
} from './request.js';

/** The Ledger API version the shapes follow (Canton's OpenAPI document). */
const LEDGER_API_VERSION = '3.5.7';

/** The participant's name in error contexts. */
const PARTICIPANT = 'reserve-audit-reference';

/** Elements a list endpoint returns at most (Canton's `http-list-max-elements-limit`). */
const DEFAULT_LIST_LIMIT = 10_000;

export interface LedgerApiOptions {
  /** the ledger as the participant sees it */
  readonly ledger: ReserveLedgerView;
  readonly auth: LedgerAuthOptions;
  /** the most elements a list endpoint answers with (default 10 000) */
  readonly listLimit?: number;
}

type LedgerHandler = (ctx: RequestContext, caller: LedgerCaller, body: Uint8Array) => unknown;

/** A refusal as Canton answers it. */
function formatRejection(e: LedgerRequestRejectedError): Reply {
  if (e.code === 'BODY_INVALID') {
    return {
      status: 400,
      body: Buffer.from(e.shortMessage, 'utf8'),
      contentType: 'text/plain; charset=utf-8',
    };
  }
  const r = LEDGER_REJECTION[e.code];
  return jsonReply(r.status, {
    code: e.code,
    cause: e.shortMessage,
    context: { participant: PARTICIPANT, category: String(r.category) },
    errorCategory: r.category,
    grpcCodeValue: r.grpc,
  });
}

/** Mounts the Ledger API on `router` under `/v2`. */
export function addLedgerApiRoutes(router: Router, o: LedgerApiOptions): void {
  const ledger = o.ledger;
  const listLimit = o.listLimit ?? DEFAULT_LIST_LIMIT;

  const add = (method: 'GET' | 'POST', path: string, handle: LedgerHandler): void => {
    router.add({
      method,
      path,
      cors: false,
      handler: async (ctx) => {
        const body = method === 'POST' ? await readBody(ctx.req) : new Uint8Array(0);
        try {
          const caller = await verifyLedgerBearer(ctx.req.headers.authorization, o.auth);
          return jsonReply(200, handle(ctx, caller, body));
        } catch (e) {
          if (e instanceof LedgerRequestRejectedError) return formatRejection(e);
          throw e;
        }
      },
    });
  };

  /** The parties may be read by the caller, and every template filter names a known template. */
  const assertReadable = (format: EventFormat, caller: LedgerCaller): void => {
    if (format.anyParty) {
      throw new LedgerRequestRejectedError(
        'PERMISSION_DENIED',
        'Claims do not authorize to read data for any party (filtersForAnyParty)',
      );
    }
    for (const party of format.byParty.keys()) {
      if (!caller.readAs.has(party)) {
        throw new LedgerRequestRejectedError(
          'PERMISSION_DENIED',
          `Claims do not authorize to read data for party ${formatGot(party)}`,
        );
      }
    }
    const templates = ledger.ledgerTemplates();
    const unknown: string[] = [];
    for (const filters of format.byParty.values()) {
      for (const f of filters) {
        if (f.kind === 'interface') unknown.push(f.interfaceId);
        else if (f.kind === 'template' && !templates.some((t) => isTemplateReference(f.templateId, t)))
          unknown.push(f.templateId);
      }
    }
    if (unknown.length > 0) {
      throw new LedgerRequestRejectedError(
        'TEMPLATES_OR_INTERFACES_NOT_FOUND',
        `Templates or interfaces do not exist: ${[...new Set(unknown)].join(', ')}`,
      );
    }
  };

  const assertNotAfterEnd = (offset: number, end: number): void => {
    if (offset > end) {
      throw new LedgerRequestRejectedError(
        'OFFSET_AFTER_LEDGER_END',
        `Requested offset ${offset} is after the ledger end ${end}`,
      );
    }
  };

  /** How many elements to collect: Canton's min(limit, list limit + 1). */
  const elementsLimit = (ctx: RequestContext): number => {
    const limit = parseInt64Parameter(ctx.query, 'limit');
    parseInt64Parameter(ctx.query, 'stream_idle_timeout_ms');
    return Math.min(limit ?? listLimit + 1, listLimit + 1);
  };

  const assertUnderListLimit = (n: number): void => {
    if (n > listLimit) {
      throw new LedgerRequestRejectedError(
        'JSON_API_MAXIMUM_LIST_ELEMENTS_NUMBER_REACHED',
        `The number of matching elements (${n}) is greater than the node limit (${listLimit}).`,
      );
    }
  };

  add('GET', '/v2/version', () => ({
    version: LEDGER_API_VERSION,
    features: {
      experimental: {},
      userManagement: { supported: false, maxRightsPerUser: 0, maxUsersPageSize: 0 },
      partyManagement: { maxPartiesPageSize: 0 },
      offsetCheckpoint: { maxOffsetCheckpointEmissionDelay: { seconds: 0, nanos: 0 } },
      packageFeature: { maxVettedPackagesPageSize: 0 },
    },
  }));

  add('GET', '/v2/state/ledger-end', () => ({ offset: ledger.ledgerEnd() }));

  // nothing is ever pruned: an auditor may read a contract the ledger does not know as never created
  add('GET', '/v2/state/latest-pruned-offsets', () => ({
    participantPrunedUpToInclusive: 0,
    allDivulgedContractsPrunedUpToInclusive: 0,
  }));

  add('POST', '/v2/events/events-by-contract-id', (_ctx, caller, body) => {
    const req = parseEventsByContractIdRequest(parseJsonBody(body));
    assertReadable(req.format, caller);
    const c = ledger.reserveContract(req.contractId);
    const v = c === null ? null : computeVisibility(c, req.format);
    if (c === null || v === null) {
      throw new LedgerRequestRejectedError(
        'CONTRACT_EVENTS_NOT_FOUND',
        'Contract events not found, or not visible.',
      );
    }
    const archivedEvent = formatArchivedEvent(c, v);
    return {
      created: { createdEvent: formatCreatedEvent(c, v), synchronizerId: SYNCHRONIZER_ID },
      ...(archivedEvent === null ? {} : { archived: { archivedEvent, synchronizerId: SYNCHRONIZER_ID } }),
    };
  });

  add('POST', '/v2/state/active-contracts', (ctx, caller, body) => {
    const req = parseActiveContractsRequest(parseJsonBody(body));
    const max = elementsLimit(ctx);
    assertReadable(req.format, caller);
    assertNotAfterEnd(req.activeAtOffset, ledger.ledgerEnd());
    const out: unknown[] = [];
    for (const c of ledger.activeReserveContracts(req.activeAtOffset)) {
      if (out.length >= max) break;
      const v = computeVisibility(c, req.format);
      if (v === null) continue;
      out.push({
        workflowId: '',
        contractEntry: {
          JsActiveContract: {
            createdEvent: formatCreatedEvent(c, v),
            synchronizerId: SYNCHRONIZER_ID,
            reassignmentCounter: 0,
          },
        },
      });
    }
    assertUnderListLimit(out.length);
    return out;
  });

  const updates: LedgerHandler = (ctx, caller, body) => {
    const req = parseUpdatesRequest(parseJsonBody(body));
    const max = elementsLimit(ctx);
    if (req.format !== null) assertReadable(req.format, caller);
    const end = ledger.ledgerEnd();
    assertNotAfterEnd(req.beginExclusive, end);
    if (req.endInclusive !== undefined) assertNotAfterEnd(req.endInclusive, end);
    const format = req.format;
    const out: unknown[] = [];
    if (format === null || max === 0) return out;
    ledger.reserveUpdates(req.beginExclusive, req.endInclusive ?? end, max, (u) => {
      const update = formatTransactionUpdate(u, format);
      if (update === null) return false;
      out.push(update);
      return true;
    });
    assertUnderListLimit(out.length);
    return out;
  };
  add('POST', '/v2/updates', updates);
  add('POST', '/v2/updates/flats', updates);
}
