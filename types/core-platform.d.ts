/**
 * The only platform globals src/core may use, declared for `tsconfig.core.json` (which type-checks
 * src/core with no Node types): the WHATWG Encoding API, present in every browser and in Node.
 * Anything else the core needs (SHA-256, inflate, the clock) is passed in by the caller. (The
 * standard `WebAssembly` API is used where present, looked up on `globalThis` with a local
 * interface, never required: src/core/hash/wasm-verdict.ts.)
 */
interface TextDecodeOptions {
  stream?: boolean;
}
interface TextDecoderOptions {
  fatal?: boolean;
  ignoreBOM?: boolean;
}
declare class TextDecoder {
  constructor(label?: string, options?: TextDecoderOptions);
  readonly encoding: string;
  readonly fatal: boolean;
  decode(input?: ArrayBufferView | ArrayBuffer, options?: TextDecodeOptions): string;
}
declare class TextEncoder {
  readonly encoding: string;
  encode(input?: string): Uint8Array;
  encodeInto(source: string, destination: Uint8Array): { read: number; written: number };
}
