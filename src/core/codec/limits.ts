/**
 * Decoder limits and options (docs/architecture.md "Code style": hostile input;
 * docs/protocol/blob-format.md §3.2: Daml's value nesting limit is 100).
 */
import { CodecError } from '../../errors/codec.js';
import type { DecodeScratch } from './decode-scratch.js';

/** 1 MiB: far above any real blob (the largest public sample is ~2 KB). */
export const DEFAULT_MAX_BYTES = 1 << 20;
/** Daml-LF `MAXIMUM_NESTING`. */
export const DEFAULT_MAX_DEPTH = 100;
/** Hard ceiling for `maxDepth`, so a caller cannot ask for a depth that overflows the JS stack. */
export const MAX_ALLOWED_DEPTH = 1000;

export type UnknownFieldMode = 'reject' | 'report';

export interface DecodeOptions {
  /** largest accepted input in bytes (default 1 MiB) */
  readonly maxBytes?: number;
  /** deepest accepted Value nesting, the top-level Value being depth 1 (default 100, at most 1000) */
  readonly maxDepth?: number;
  /** unknown protobuf fields: throw `BLOB_UNKNOWN_FIELD` (default) or skip them and list them */
  readonly unknownFields?: UnknownFieldMode;
  /**
   * Byte fields of the result (contract ids, authentication data…) are views into one buffer.
   * `true` (default): a private copy of a Uint8Array input, so later writes to it change nothing.
   * `false`: views into the caller's buffer itself (saves one copy; do not mutate it afterwards).
   * Base64 input is always decoded into fresh private memory (see byte-pool.ts: a region of a shared slab).
   */
  readonly copyInput?: boolean;
  /** caches and pools repeated decodes share (performance only; see ./decode-scratch.ts) */
  readonly scratch?: DecodeScratch | undefined;
}

export interface ResolvedDecodeOptions {
  readonly copyInput: boolean;
  readonly scratch: DecodeScratch | null;
  readonly maxBytes: number;
  readonly maxDepth: number;
  readonly unknownFields: UnknownFieldMode;
}

/** Applies the defaults and checks the ranges (`CODEC_INVALID_OPTION`). */
export function resolveDecodeOptions(options: DecodeOptions | undefined): ResolvedDecodeOptions {
  const maxBytes = options?.maxBytes ?? DEFAULT_MAX_BYTES;
  const maxDepth = options?.maxDepth ?? DEFAULT_MAX_DEPTH;
  const unknownFields = options?.unknownFields ?? 'reject';
  if (!Number.isSafeInteger(maxBytes) || maxBytes < 0) {
    throw new CodecError(
      'CODEC_INVALID_OPTION',
      `"maxBytes" expected a non-negative integer, got ${maxBytes}`,
    );
  }
  if (!Number.isSafeInteger(maxDepth) || maxDepth < 1 || maxDepth > MAX_ALLOWED_DEPTH) {
    throw new CodecError(
      'CODEC_INVALID_OPTION',
      `"maxDepth" expected an integer in 1..${MAX_ALLOWED_DEPTH}, got ${maxDepth}`,
    );
  }
  if (unknownFields !== 'reject' && unknownFields !== 'report') {
    throw new CodecError(
      'CODEC_INVALID_OPTION',
      `"unknownFields" expected 'reject' or 'report', got ${JSON.stringify(unknownFields)}`,
    );
  }
  return {
    maxBytes,
    maxDepth,
    unknownFields,
    copyInput: options?.copyInput !== false,
    scratch: options?.scratch ?? null,
  };
}
