/** The audit engine (the issue "reserve-audit audit"): pure checks over snapshots → findings. */

export * from '../proof/profile.js';
export * from './counts.js';
export * from './coverage.js';
export * from './decimal.js';
export * from './entry-checks.js';
export * from './exit-code.js';
export * from './finding.js';
export * from './finding-codes.js';
export * from './from-api-snapshot.js';
export * from './history-checks.js';
export * from './history-fold-earlier.js';
export * from './lp-share.js';
export * from './market-cache.js';
export * from './market-checks.js';
export * from './market-time.js';
export * from './orderbook-checks.js';
export * from './proof-checks.js';
export * from './quote-checks.js';
export * from './run-checks.js';
export * from './snapshot.js';
export * from './state-checks.js';
export * from './volume-checks.js';
