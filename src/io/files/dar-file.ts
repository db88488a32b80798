/**
 * Reading DAR / DALF files from disk into Daml package types (docs/protocol/dar-format.md §1–§3): passes
 * node:zlib raw inflate (with an output cap) and node:crypto SHA-256 to the pure loader in
 * src/core/types/dar, and builds a V12 type environment from DARs and JSON type files.
 */
import { resolve } from 'node:path';
import { inflateRawSync, crc32 as zlibCrc32 } from 'node:zlib';
import type { PackageTypes } from '../../core/types/daml-type.js';
import {
  type DarLimits,
  detectDalfKind,
  isZip,
  type LoadedDar,
  loadArchivePayload,
  loadDalf,
  loadDar,
  type PackageCache,
} from '../../core/types/dar/index.js';
import { addPackage, createTypeEnv, type TypeEnv } from '../../core/types/type-env.js';
import { DarError } from '../../errors/dar.js';
import { sha256Node } from '../node-sha256.js';
import { readBoundedFile, toFileError } from './bounded-file.js';
import { readTypeFiles } from './type-file.js';

/** Largest DAR/DALF file read from disk. */
const MAX_DAR_FILE_BYTES = 256 * 1024 * 1024;

/** node:zlib raw inflate with `maxOutputLength` (throws above it: zip-bomb guard). */
export function inflateRawNode(data: Uint8Array, maxOutput: number): Uint8Array {
  const out = inflateRawSync(data, { maxOutputLength: Math.max(1, maxOutput) });
  return new Uint8Array(out.buffer, out.byteOffset, out.byteLength);
}

/** node:zlib's CRC-32 (in every supported Node version; faster than the pure one). */
const crc32Node = (data: Uint8Array): number => zlibCrc32(data);

export interface LoadDarFileOptions {
  readonly limits?: Partial<DarLimits>;
  /** decoded packages by id, shared across files */
  readonly cache?: PackageCache;
  readonly cwd?: string;
}

/**
 * The work several DARs of one load share: the same dependency dalfs (daml-prim, daml-stdlib,
 * splice-util, …) recur, byte for byte, in every DAR. A compressed entry equal to one already
 * inflated (compared byte for byte, not by its CRC) gets the very same inflated bytes back, and the
 * package id of bytes already hashed is not hashed again; the package cache then skips decoding.
 * Every check still runs on each DAR (the CRC of the output, the zip limits, the manifest).
 */
interface DarLoadMemo {
  readonly inflateRaw: (data: Uint8Array, maxOutput: number) => Uint8Array;
  readonly sha256: (data: Uint8Array) => Uint8Array;
  /** the CRC of bytes this memo inflated is computed once */
  readonly crc32: (data: Uint8Array) => number;
}

function createDarLoadMemo(): DarLoadMemo {
  /** compressed length → the entries of that length inflated so far */
  const inflated = new Map<
    number,
    { readonly raw: Uint8Array; readonly out: Uint8Array; readonly max: number }[]
  >();
  /** digests by the inflated buffer they were taken from, and the range */
  const digests = new WeakMap<ArrayBufferLike, Map<string, Uint8Array>>();
  const crcs = new WeakMap<Uint8Array, number>();
  return {
    crc32(data) {
      let c = crcs.get(data);
      if (c === undefined) {
        c = crc32Node(data);
        crcs.set(data, c);
      }
      return c;
    },
    inflateRaw(data, maxOutput) {
      const same = inflated.get(data.length);
      const hit = same?.find((e) => e.max === maxOutput && Buffer.compare(e.raw, data) === 0);
      if (hit !== undefined) return hit.out;
      const out = inflateRawNode(data, maxOutput);
      const list = same ?? [];
      list.push({ raw: data, out, max: maxOutput });
      if (same === undefined) inflated.set(data.length, list);
      return out;
    },
    sha256(data) {
      let byRange = digests.get(data.buffer);
      const key = `${data.byteOffset}:${data.length}`;
      const known = byRange?.get(key);
      if (known !== undefined) return known;
      const d = sha256Node(data);
      if (byRange === undefined) {
        byRange = new Map();
        digests.set(data.buffer, byRange);
      }
      byRange.set(key, d);
      return d;
    },
  };
}

/** Decodes DAR, bare DALF or bare ArchivePayload bytes (zip signature, then detectDalfKind decide). */
function loadDarBytes(
  bytes: Uint8Array,
  opts: Omit<LoadDarFileOptions, 'cwd'> = {},
  memo?: DarLoadMemo,
): LoadedDar {
  const common = {
    sha256: memo?.sha256 ?? sha256Node,
    ...(opts.limits === undefined ? {} : { limits: opts.limits }),
    ...(opts.cache === undefined ? {} : { cache: opts.cache }),
  };
  if (isZip(bytes)) {
    return loadDar(bytes, {
      ...common,
      inflateRaw: memo?.inflateRaw ?? inflateRawNode,
      crc32: memo?.crc32 ?? crc32Node,
    });
  }
  try {
    return detectDalfKind(bytes) === 'payload' ? loadArchivePayload(bytes, common) : loadDalf(bytes, common);
  } catch (e) {
    // bytes that are neither a zip nor a Daml-LF archive: say that first, the wire detail after
    if (!(e instanceof DarError) || e.code !== 'DAR_ARCHIVE_MALFORMED') throw e;
    const json = bytes[0] === 0x7b || bytes[0] === 0x5b;
    throw new DarError(
      e.code,
      json
        ? 'not a DAR (zip) file: it is JSON — a type file? give it with --types'
        : `not a DAR (zip) file: no zip signature, and not a DALF either (${e.shortMessage})`,
      { details: e.details, cause: e },
    );
  }
}

/**
 * Reads a `.dar` (zip), a bare `.dalf` (Archive) or bare ArchivePayload bytes as fetched from a
 * participant (`GET /v2/packages/{id}`). Throws DarError.
 */
export function loadDarFile(path: string, opts: LoadDarFileOptions = {}): Promise<LoadedDar> {
  return loadDarFileWith(path, opts);
}

async function loadDarFileWith(
  path: string,
  opts: LoadDarFileOptions,
  memo?: DarLoadMemo,
): Promise<LoadedDar> {
  const full = resolve(opts.cwd ?? process.cwd(), path);
  const bytes = await readBoundedFile(full, MAX_DAR_FILE_BYTES, {
    tooLarge: (size) =>
      new DarError('DAR_ZIP_LIMIT', `"${path}" expected at most ${MAX_DAR_FILE_BYTES} bytes, got ${size}`),
    unreadable: (msg, cause) =>
      new DarError('DAR_FILE_READ_FAILED', `"${path}" expected a readable DAR or DALF file, got ${msg}`, {
        cause,
      }),
  });
  try {
    return loadDarBytes(bytes, opts, memo);
  } catch (e) {
    throw toFileError(e, path, DarError);
  }
}

export interface TypeEnvSources {
  /** DAR or DALF paths */
  readonly dars?: readonly string[];
  /** JSON type file paths (docs/type-file.md) */
  readonly typeFiles?: readonly string[];
}

export interface LoadedTypeEnv {
  readonly env: TypeEnv;
  /** each DAR as loaded, in argument order */
  readonly dars: readonly { readonly path: string; readonly dar: LoadedDar }[];
  /** package ids referenced by some loaded package but present in none */
  readonly unresolved: readonly string[];
}

/** Builds one type environment from DARs (first) and type files. Packages with a known id are kept once. */
export async function loadTypeEnvFromFiles(
  sources: TypeEnvSources,
  opts: LoadDarFileOptions = {},
): Promise<LoadedTypeEnv> {
  const cache: PackageCache = opts.cache ?? new Map();
  const env = createTypeEnv();
  const dars: { path: string; dar: LoadedDar }[] = [];
  const memo = createDarLoadMemo();
  for (const path of sources.dars ?? []) {
    const dar = await loadDarFileWith(path, { ...opts, cache }, memo);
    dars.push({ path, dar });
    for (const p of dar.packages) addPackage(env, p.types);
  }
  const typePackages: PackageTypes[] = await readTypeFiles(
    sources.typeFiles ?? [],
    opts.cwd ?? process.cwd(),
  );
  for (const p of typePackages) addPackage(env, p);
  const unresolved = new Set<string>();
  for (const { dar } of dars) {
    for (const p of dar.packages)
      for (const d of p.types.dependencies) if (!env.packages.has(d)) unresolved.add(d);
  }
  return { env, dars, unresolved: [...unresolved].sort() };
}
