/**
 * THE wire contract of the exchange's public API (docs/protocol/public-api.md,
 * docs/protocol/api-decisions.md): the response types the server builds and the auditor parses, their strict
 * parsers, the one timestamp parser/formatter, and the `ApiSnapshot` one audit works on. Pure: no I/O.
 */
export * from './aggregator.js';
export * from './dialect.js';
export * from './error-response.js';
export * from './exchange-info.js';
export * from './markets-info.js';
export * from './pools-info.js';
export * from './pools-proof.js';
export * from './pools-state.js';
export * from './probe-plan.js';
export * from './quote.js';
export type { MalformedEntry, ParseOptions } from './shape.js';
export * from './snapshot.js';
export * from './stats.js';
export * from './swap-info.js';
export * from './timestamp.js';
export * from './tokens-info.js';
export * from './volume.js';
