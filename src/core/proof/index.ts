/** The one proof step: decode → type → hash → compare → reserves via the profile (./reserve-proof.ts). */
export * from './compare-fields.js';
export * from './evidence.js';
export * from './profile.js';
export * from './reserve-proof.js';
export * from './reserve-proof-fast.js';
