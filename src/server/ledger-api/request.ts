/**
 * The request bodies of the reference server's Ledger API, read as Canton's OpenAPI document
 * (JSON Ledger API v2, 3.5.7) describes them: `EventFormat` (per-party `Filters` of cumulative
 * template / interface / wildcard filters), the legacy `TransactionFilter` + `verbose`, offsets
 * (`int64` integers), `GetEventsByContractIdRequest`, `GetActiveContractsRequest`,
 * `GetUpdatesRequest`. A body that does not decode as the document's schema is `BODY_INVALID`
 * (400 text/plain, as the document's `400`); a decoded value that breaks a rule is Canton's
 * `INVALID_ARGUMENT` (docs/decisions/server.md "Ledger API").
 */
import { isPartyId } from '../../core/codec/validate.js';
import { formatGot } from '../../errors/base.js';
import { LedgerRequestRejectedError } from '../../errors/server.js';

/** One cumulative filter of a party. */
export type IdentifierFilter =
  | { readonly kind: 'wildcard'; readonly includeBlob: boolean }
  | { readonly kind: 'template'; readonly templateId: string; readonly includeBlob: boolean }
  | { readonly kind: 'interface'; readonly interfaceId: string };

/** An `EventFormat` as read: the filters of each requested party. */
export interface EventFormat {
  readonly byParty: ReadonlyMap<string, readonly IdentifierFilter[]>;
  /** `filtersForAnyParty` was given (reading as any party) */
  readonly anyParty: boolean;
}

type Json = Record<string, unknown>;

function bodyInvalid(what: string): LedgerRequestRejectedError {
  return new LedgerRequestRejectedError('BODY_INVALID', `Invalid value for: body (${what})`);
}

function invalidArgument(message: string): LedgerRequestRejectedError {
  return new LedgerRequestRejectedError(
    'INVALID_ARGUMENT',
    `The submitted request has invalid arguments: ${message}`,
  );
}

function isObject(v: unknown): v is Json {
  return v !== null && typeof v === 'object' && !Array.isArray(v);
}

/** The body as a JSON object (BODY_INVALID otherwise). */
export function parseJsonBody(bytes: Uint8Array): Json {
  let value: unknown;
  try {
    value = JSON.parse(new TextDecoder('utf-8', { fatal: true }).decode(bytes));
  } catch {
    throw bodyInvalid('expected a JSON object, got text that is not JSON');
  }
  if (!isObject(value)) throw bodyInvalid(`expected a JSON object, got ${formatGot(value)}`);
  return value;
}

function optionalObject(o: Json, key: string, path: string): Json | undefined {
  const v = o[key];
  if (v === undefined || v === null) return undefined;
  if (!isObject(v)) throw bodyInvalid(`"${path}${key}" expected an object, got ${formatGot(v)}`);
  return v;
}

function optionalBoolean(o: Json, key: string, path: string): boolean {
  const v = o[key];
  if (v === undefined || v === null) return false;
  if (typeof v !== 'boolean') throw bodyInvalid(`"${path}${key}" expected a boolean, got ${formatGot(v)}`);
  return v;
}

function requiredString(o: Json, key: string, path: string): string {
  const v = o[key];
  if (typeof v !== 'string') throw bodyInvalid(`"${path}${key}" expected a string, got ${formatGot(v)}`);
  return v;
}

/** An `int64` offset field: a JSON integer (a safe integer: offsets never come near 2^53). */
function offsetField(o: Json, key: string, required: true): number;
function offsetField(o: Json, key: string, required: false): number | undefined;
function offsetField(o: Json, key: string, required: boolean): number | undefined {
  const v = o[key];
  if ((v === undefined || v === null) && !required) return undefined;
  if (typeof v !== 'number' || !Number.isInteger(v)) {
    throw bodyInvalid(`"${key}" expected an integer, got ${formatGot(v)}`);
  }
  if (!Number.isSafeInteger(v)) throw invalidArgument(`${key} ${v} is out of range`);
  if (v < 0) throw invalidArgument(`${key} expected a non-negative offset, got ${v}`);
  return v;
}

/** A template or interface reference: `packageId:Module:Entity` or `#packageName:Module:Entity`. */
function identifier(text: string, field: string): string {
  if (!/^#?[A-Za-z0-9._-]+:[A-Za-z0-9_.]+:[A-Za-z0-9_.]+$/.test(text)) {
    throw invalidArgument(`Invalid field ${field}: expected packageId:Module:Entity, got ${formatGot(text)}`);
  }
  return text;
}

function parseFilters(f: Json, path: string): IdentifierFilter[] {
  const cumulative = f.cumulative;
  if (cumulative === undefined || cumulative === null) return [{ kind: 'wildcard', includeBlob: false }];
  if (!Array.isArray(cumulative)) {
    throw bodyInvalid(`"${path}cumulative" expected an array, got ${formatGot(cumulative)}`);
  }
  if (cumulative.length === 0) return [{ kind: 'wildcard', includeBlob: false }];
  return cumulative.map((c: unknown, i): IdentifierFilter => {
    const at = `${path}cumulative[${i}].`;
    if (!isObject(c)) throw bodyInvalid(`"${at.slice(0, -1)}" expected an object, got ${formatGot(c)}`);
    const id = optionalObject(c, 'identifierFilter', at);
    if (id === undefined || isObject(id.Empty)) {
      throw invalidArgument(`${at}identifierFilter is required`);
    }
    const variants = Object.keys(id);
    if (variants.length !== 1) {
      throw bodyInvalid(
        `"${at}identifierFilter" expected exactly one of Empty, InterfaceFilter, TemplateFilter, WildcardFilter`,
      );
    }
    const variant = variants[0]!;
    const wrapper = optionalObject(id, variant, `${at}identifierFilter.`);
    const value =
      wrapper === undefined
        ? undefined
        : optionalObject(wrapper, 'value', `${at}identifierFilter.${variant}.`);
    const vPath = `${at}identifierFilter.${variant}.value.`;
    switch (variant) {
      case 'WildcardFilter':
        if (value === undefined) throw bodyInvalid(`"${vPath.slice(0, -1)}" expected an object`);
        return { kind: 'wildcard', includeBlob: optionalBoolean(value, 'includeCreatedEventBlob', vPath) };
      case 'TemplateFilter':
        if (value === undefined) throw bodyInvalid(`"${vPath.slice(0, -1)}" expected an object`);
        return {
          kind: 'template',
          templateId: identifier(requiredString(value, 'templateId', vPath), 'template_id'),
          includeBlob: optionalBoolean(value, 'includeCreatedEventBlob', vPath),
        };
      case 'InterfaceFilter':
        if (value === undefined) throw bodyInvalid(`"${vPath.slice(0, -1)}" expected an object`);
        return {
          kind: 'interface',
          interfaceId: identifier(requiredString(value, 'interfaceId', vPath), 'interface_id'),
        };
      default:
        throw bodyInvalid(
          `"${at}identifierFilter" expected one of Empty, InterfaceFilter, TemplateFilter, WildcardFilter, got ${formatGot(variant)}`,
        );
    }
  });
}

/** `filtersByParty` + `filtersForAnyParty` of an EventFormat or a legacy TransactionFilter. */
function parsePartyFilters(o: Json, path: string): EventFormat {
  const byPartyJson = optionalObject(o, 'filtersByParty', path) ?? {};
  const byParty = new Map<string, IdentifierFilter[]>();
  for (const [party, filters] of Object.entries(byPartyJson)) {
    if (!isObject(filters)) {
      throw bodyInvalid(`"${path}filtersByParty.${party}" expected an object, got ${formatGot(filters)}`);
    }
    if (!isPartyId(party))
      throw invalidArgument(`Invalid field party: ${formatGot(party)} is not a party id`);
    byParty.set(party, parseFilters(filters, `${path}filtersByParty.${party}.`));
  }
  const any = optionalObject(o, 'filtersForAnyParty', path);
  if (any !== undefined) parseFilters(any, `${path}filtersForAnyParty.`);
  if (byParty.size === 0 && any === undefined) {
    throw invalidArgument('filtersByParty and filtersForAnyParty cannot be empty at the same time');
  }
  return { byParty, anyParty: any !== undefined };
}

/** The `eventFormat` of a request, or its legacy `filter` (+ `verbose`); exactly one of them. */
function parseEventFormatOrFilter(body: Json, required: boolean): EventFormat | null {
  const format = optionalObject(body, 'eventFormat', '');
  const filter = optionalObject(body, 'filter', '');
  if (format !== undefined && filter !== undefined) {
    throw invalidArgument('Both eventFormat and filter are set. Please use either eventFormat or filter.');
  }
  if (format !== undefined) return parsePartyFilters(format, 'eventFormat.');
  if (filter !== undefined) return parsePartyFilters(filter, 'filter.');
  if (required) throw invalidArgument('Either eventFormat or filter is required.');
  return null;
}

export interface EventsByContractIdRequest {
  readonly contractId: string;
  readonly format: EventFormat;
}

export function parseEventsByContractIdRequest(body: Json): EventsByContractIdRequest {
  const contractId = requiredString(body, 'contractId', '');
  const format = optionalObject(body, 'eventFormat', '');
  if (format === undefined) throw bodyInvalid('"eventFormat" expected an object, got undefined');
  if (!/^[0-9a-fA-F]{2,512}$/.test(contractId)) {
    throw invalidArgument(
      `Invalid field contract_id: expected a contract ID in hex, got ${formatGot(contractId)}`,
    );
  }
  return { contractId, format: parsePartyFilters(format, 'eventFormat.') };
}

export interface ActiveContractsRequest {
  readonly activeAtOffset: number;
  readonly format: EventFormat;
}

export function parseActiveContractsRequest(body: Json): ActiveContractsRequest {
  const activeAtOffset = offsetField(body, 'activeAtOffset', true);
  if (typeof body.streamContinuationToken === 'string' && body.streamContinuationToken !== '') {
    throw invalidArgument('streamContinuationToken is not served by this participant');
  }
  return { activeAtOffset, format: parseEventFormatOrFilter(body, true)! };
}

export interface UpdatesRequest {
  readonly beginExclusive: number;
  readonly endInclusive: number | undefined;
  /** null when the request asks for no transactions (only reassignments or topology events) */
  readonly format: EventFormat | null;
}

export function parseUpdatesRequest(body: Json): UpdatesRequest {
  const beginExclusive = offsetField(body, 'beginExclusive', true);
  const endInclusive = offsetField(body, 'endInclusive', false);
  if (optionalBoolean(body, 'descendingOrder', '')) {
    throw invalidArgument('descendingOrder is not served by this participant');
  }
  const updateFormat = optionalObject(body, 'updateFormat', '');
  const filter = optionalObject(body, 'filter', '');
  if (updateFormat !== undefined && filter !== undefined) {
    throw invalidArgument('Both updateFormat and filter are set. Please use either updateFormat or filter.');
  }
  let format: EventFormat | null;
  if (filter !== undefined) {
    format = parsePartyFilters(filter, 'filter.');
  } else if (updateFormat !== undefined) {
    const tx = optionalObject(updateFormat, 'includeTransactions', 'updateFormat.');
    if (tx === undefined) {
      format = null;
    } else {
      const shape = tx.transactionShape;
      const eventFormat = optionalObject(tx, 'eventFormat', 'updateFormat.includeTransactions.');
      if (typeof shape !== 'string' || eventFormat === undefined) {
        throw bodyInvalid('"updateFormat.includeTransactions" expected transactionShape and eventFormat');
      }
      if (shape !== 'TRANSACTION_SHAPE_ACS_DELTA') {
        throw invalidArgument(
          `transactionShape expected TRANSACTION_SHAPE_ACS_DELTA (the only shape this participant serves), got ${formatGot(shape)}`,
        );
      }
      format = parsePartyFilters(eventFormat, 'updateFormat.includeTransactions.eventFormat.');
    }
  } else {
    throw invalidArgument(
      'Either filter/verbose or update_format is required. Please use either backwards compatible arguments (filter and verbose) or update_format, but not both.',
    );
  }
  if (endInclusive !== undefined && endInclusive < beginExclusive) {
    throw new LedgerRequestRejectedError(
      'OFFSET_OUT_OF_RANGE',
      `Begin offset (${beginExclusive}) is after end offset (${endInclusive})`,
    );
  }
  return { beginExclusive, endInclusive, format };
}

/**
 * An int64 query parameter (`limit`, `stream_idle_timeout_ms`): digits, or undefined when absent;
 * anything else is BODY_INVALID (the document's `400 Invalid value for: query parameter …`).
 */
export function parseInt64Parameter(query: URLSearchParams, name: string): number | undefined {
  const raw = query.get(name);
  if (raw === null) return undefined;
  const n = /^\d{1,15}$/.test(raw) ? Number(raw) : Number.NaN;
  if (!Number.isSafeInteger(n)) {
    throw new LedgerRequestRejectedError(
      'BODY_INVALID',
      `Invalid value for: query parameter ${name} (${formatGot(raw)})`,
    );
  }
  return n;
}
