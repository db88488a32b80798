/**
 * The auditor's client of a Canton participant's JSON Ledger API v2 (issue 26): openapi-fetch over
 * the types generated from Canton's published OpenAPI document (./generated/ledger-api-v2.ts,
 * `npm run gen:ledger-types`), its requests sent by the auditor's one HTTP client (./route-fetch.ts).
 * Only the reads the ledger checks need: the ledger end, the latest pruned offset, the events of a
 * contract, the active reserve contracts at an offset, and the ledger time of the transaction at an
 * offset (`/v2/updates` over that one offset: every participant serves the update stream), and the
 * reserve transactions of a range of the update stream (`mirror follow`). Every
 * answer is read strictly (./parse-ledger.ts) and returned as a `LedgerAnswer`: a value, or why
 * there is none — a failed request, a refusal (401/403) and a not-found are answers the checks
 * weigh, never exceptions and never evidence of a discrepancy by themselves.
 */
import createClient from 'openapi-fetch';
import { isReserveAuditError } from '../../errors/base.js';
import type { BaseUrl } from '../http/base-url.js';
import type { HttpClient } from '../http/client.js';
import type { components, paths } from './generated/ledger-api-v2.js';
import {
  type LedgerCreatedEvent,
  type LedgerEventsOfContract,
  type LedgerStreamTransaction,
  parseActiveContracts,
  parseCantonError,
  parseEventsByContractId,
  parseLatestPrunedOffset,
  parseLedgerEnd,
  parseUpdatesEffectiveAt,
  parseUpdatesTransactions,
} from './parse-ledger.js';
import { createLedgerFetch, LEDGER_ORIGIN } from './route-fetch.js';

/** A value, or why there is none: the HTTP status and Canton error code when the participant answered. */
export type LedgerAnswer<T> =
  | { readonly ok: true; readonly value: T }
  | {
      readonly ok: false;
      readonly status: number | null;
      readonly code: string | null;
      readonly reason: string;
    };

export interface LedgerClientOptions {
  /** the participant's JSON API root (the part before `/v2`), parsed once (`parseBaseUrl`) */
  readonly baseUrl: BaseUrl;
  /** a JWT for `Authorization: Bearer …`, or null for a participant without authentication */
  readonly token: string | null;
  /** the party whose view is read (`filtersByParty`) */
  readonly party: string;
  /** the auditor's HTTP client the requests go through */
  readonly http: HttpClient;
}

export interface LedgerClient {
  readLedgerEnd(): Promise<LedgerAnswer<number>>;
  /** `participantPrunedUpToInclusive` (0: nothing pruned) */
  readPrunedOffset(): Promise<LedgerAnswer<number>>;
  readEventsOfContract(contractId: string): Promise<LedgerAnswer<LedgerEventsOfContract>>;
  /** the active contracts of `templateIds` (package-name reference format) at `offset`, with their blobs */
  readActiveContracts(
    offset: number,
    templateIds: readonly string[],
  ): Promise<LedgerAnswer<LedgerCreatedEvent[]>>;
  /** the ledger time (`effectiveAt`, ms) of the transaction at `offset`; null when it is not a transaction */
  readUpdateEffectiveAt(offset: number, templateIds: readonly string[]): Promise<LedgerAnswer<number | null>>;
  /**
   * the transactions after `beginExclusive` up to `endInclusive` with events of `templateIds` (ACS
   * delta, with their blobs), at most `limit` of them (Canton's `limit`: a full page means more may follow)
   */
  readUpdates(
    beginExclusive: number,
    endInclusive: number,
    templateIds: readonly string[],
    limit: number,
  ): Promise<LedgerAnswer<LedgerStreamTransaction[]>>;
}

type EventFormat = components['schemas']['EventFormat'];

/** The event format of one party: the given templates (with their blobs), or every template. */
function computeEventFormat(party: string, templateIds: readonly string[] | null): EventFormat {
  const cumulative: components['schemas']['CumulativeFilter'][] =
    templateIds === null
      ? [{ identifierFilter: { WildcardFilter: { value: { includeCreatedEventBlob: true } } } }]
      : templateIds.map((templateId) => ({
          identifierFilter: { TemplateFilter: { value: { templateId, includeCreatedEventBlob: true } } },
        }));
  return { filtersByParty: { [party]: { cumulative } }, verbose: false };
}

/** Why a request gave no value: the status and Canton error of the answer, or the transport error. */
function refusal(status: number, error: unknown): LedgerAnswer<never> {
  const canton = parseCantonError(error);
  const what =
    status === 401 || status === 403
      ? `the participant refused the token (status ${status})`
      : `the participant answered status ${status}`;
  return {
    ok: false,
    status,
    code: canton?.code ?? null,
    reason:
      canton === null ? what : `${what}: ${canton.code}${canton.cause === '' ? '' : ` (${canton.cause})`}`,
  };
}

function failure(e: unknown): LedgerAnswer<never> {
  if (isReserveAuditError(e)) return { ok: false, status: null, code: e.code, reason: e.shortMessage };
  throw e;
}

/** Reads a 200 answer with `parse`; a shape error is a failure with its message. */
function readValue<T>(data: unknown, parse: (json: unknown) => T): LedgerAnswer<T> {
  try {
    return { ok: true, value: parse(data) };
  } catch (e) {
    return failure(e);
  }
}

/**
 * The redaction rule of the token: a participant's text (an error's `cause`, a value quoted by a shape
 * error) is the participant's to choose, and a hostile or careless one may echo the `Authorization`
 * header; every reason this client returns has each occurrence of the token replaced by `***`.
 */
function redactToken<T>(answer: LedgerAnswer<T>, token: string | null): LedgerAnswer<T> {
  if (answer.ok || token === null || token === '') return answer;
  const scrub = (text: string): string => text.split(token).join('***');
  return { ...answer, reason: scrub(answer.reason), code: answer.code === null ? null : scrub(answer.code) };
}

/** Creates the client (no request is sent until a read is called). */
export function createLedgerClient(o: LedgerClientOptions): LedgerClient {
  const api = createClient<paths>({
    baseUrl: LEDGER_ORIGIN,
    fetch: createLedgerFetch(o.http, o.baseUrl, o.token),
  });
  // openapi-fetch throws what the fetch throws (the HTTP client's typed errors)
  async function call<T>(
    send: () => Promise<{ data?: unknown; error?: unknown; response: Response }>,
    parse: (json: unknown) => T,
  ): Promise<LedgerAnswer<T>> {
    let r: { data?: unknown; error?: unknown; response: Response };
    try {
      r = await send();
    } catch (e) {
      return redactToken(failure(e), o.token);
    }
    if (r.response.status !== 200) return redactToken(refusal(r.response.status, r.error), o.token);
    return redactToken(readValue(r.data, parse), o.token);
  }
  return {
    readLedgerEnd: () => call(() => api.GET('/v2/state/ledger-end'), parseLedgerEnd),
    readPrunedOffset: () => call(() => api.GET('/v2/state/latest-pruned-offsets'), parseLatestPrunedOffset),
    readEventsOfContract: (contractId) =>
      call(
        () =>
          api.POST('/v2/events/events-by-contract-id', {
            body: { contractId, eventFormat: computeEventFormat(o.party, null) },
          }),
        parseEventsByContractId,
      ),
    readActiveContracts: (offset, templateIds) =>
      call(
        () =>
          api.POST('/v2/state/active-contracts', {
            body: { activeAtOffset: offset, eventFormat: computeEventFormat(o.party, templateIds) },
          }),
        (json) => parseActiveContracts(json),
      ),
    readUpdateEffectiveAt: (offset, templateIds) =>
      call(
        () =>
          api.POST('/v2/updates', {
            body: {
              beginExclusive: offset - 1,
              endInclusive: offset,
              updateFormat: {
                includeTransactions: {
                  eventFormat: computeEventFormat(o.party, templateIds),
                  transactionShape: 'TRANSACTION_SHAPE_ACS_DELTA',
                },
              },
            },
          }),
        (json) => parseUpdatesEffectiveAt(json, offset),
      ),
    readUpdates: (beginExclusive, endInclusive, templateIds, limit) =>
      call(
        () =>
          api.POST('/v2/updates', {
            params: { query: { limit } },
            body: {
              beginExclusive,
              endInclusive,
              updateFormat: {
                includeTransactions: {
                  eventFormat: computeEventFormat(o.party, templateIds),
                  transactionShape: 'TRANSACTION_SHAPE_ACS_DELTA',
                },
              },
            },
          }),
        (json) => parseUpdatesTransactions(json),
      ),
  };
}
