/** The verdict seam: one fast engine behind the reference walk (./engine.ts, ./cascade.ts). */

export type { IsContractIdVerifiedOptions } from './cascade.js';
export { isContractIdVerified } from './cascade.js';
export type { BlobSpans, EngineVerdict, ResolvedTemplate, VerdictEngine } from './engine.js';
export { createWasmVerdictEngine } from './wasm/engine.js';
