/**
 * Loading a whole DAR (or one bare `.dalf`) into per-package data types
 * (docs/protocol/dar-format.md §1, §2, §3, §6.1): zip → manifest → every listed dalf → package id
 * recomputed → LF 2.x data types. Pure: raw inflate and SHA-256 are injected.
 */
import { DarError } from '../../../errors/dar.js';
import type { Sha256 } from '../../hash/sha256.js';
import { computePackageId, decodeArchive, decodeArchivePayload } from './archive.js';
import { decodeLf2Package, type LfPackageTypes } from './lf2-package.js';
import { type DarManifest, MANIFEST_PATH, parseDarManifest } from './manifest.js';
import { DEFAULT_ZIP_LIMITS, decodeZip, type InflateRaw, type ZipLimits } from './zip.js';

export interface DarLimits extends ZipLimits {
  /** largest META-INF/MANIFEST.MF accepted */
  readonly maxManifestBytes: number;
  /** deepest type nesting accepted */
  readonly maxTypeDepth: number;
}

export const DEFAULT_DAR_LIMITS: DarLimits = {
  ...DEFAULT_ZIP_LIMITS,
  maxManifestBytes: 1024 * 1024,
  maxTypeDepth: 100,
};

/** Decoded packages by package id; reused across loads (stdlib packages recur in every DAR). */
export type PackageCache = Map<string, LfPackageTypes>;

export interface LoadDalfOptions {
  readonly sha256: Sha256;
  readonly limits?: Partial<DarLimits>;
  readonly cache?: PackageCache;
}

export interface LoadDarOptions extends LoadDalfOptions {
  readonly inflateRaw: InflateRaw;
  /** optional faster CRC-32 (node:zlib crc32); default is the pure table-driven one */
  readonly crc32?: (data: Uint8Array) => number;
}

export interface DarPackage {
  /** hex SHA-256 of the ArchivePayload: always computed here */
  readonly packageId: string;
  /** true when Archive.hash was present and equal to the computed id */
  readonly idVerified: boolean;
  /** zip path of the dalf, or null for a bare dalf */
  readonly path: string | null;
  readonly name: string;
  readonly version: string;
  /** "2.1" or "2.2" */
  readonly lfVersion: string;
  /** true for the DAR's Main-Dalf (and for a bare dalf) */
  readonly main: boolean;
  readonly types: LfPackageTypes;
}

export interface LoadedDar {
  /** null for a bare dalf */
  readonly manifest: DarManifest | null;
  /** main package first, then the dependencies in manifest order (one entry per package id) */
  readonly packages: readonly DarPackage[];
  /** package ids referenced by some package but not contained in this DAR, sorted */
  readonly unresolved: readonly string[];
}

/** Loads every dalf a DAR's manifest lists. */
export function loadDar(bytes: Uint8Array, opts: LoadDarOptions): LoadedDar {
  const limits: DarLimits = { ...DEFAULT_DAR_LIMITS, ...opts.limits };
  const zip = decodeZip(bytes, {
    inflateRaw: opts.inflateRaw,
    limits,
    ...(opts.crc32 === undefined ? {} : { crc32: opts.crc32 }),
  });
  if (!zip.has(MANIFEST_PATH)) {
    throw new DarError('DAR_MANIFEST_INVALID', `"${MANIFEST_PATH}" expected in the DAR, got none`);
  }
  const manifestEntry = zip.entries.find((e) => e.name === MANIFEST_PATH)!;
  if (manifestEntry.uncompressedSize > limits.maxManifestBytes) {
    throw new DarError(
      'DAR_ZIP_LIMIT',
      `"${MANIFEST_PATH}" size expected at most ${limits.maxManifestBytes} bytes, got ${manifestEntry.uncompressedSize}`,
    );
  }
  const manifest = parseDarManifest(zip.readEntry(MANIFEST_PATH));
  for (const path of manifest.dalfs) {
    if (!zip.has(path)) {
      throw new DarError(
        'DAR_ENTRY_MISSING',
        `dalf listed in "Dalfs" expected in the zip, got no ${JSON.stringify(path)}`,
      );
    }
  }
  const order = [manifest.mainDalf, ...manifest.dalfs.filter((p) => p !== manifest.mainDalf)];
  const packages: DarPackage[] = [];
  const seen = new Set<string>();
  for (const path of order) {
    const pkg = decodeDalf(zip.readEntry(path), path, path === manifest.mainDalf, opts, limits);
    if (seen.has(pkg.packageId)) continue;
    seen.add(pkg.packageId);
    packages.push(pkg);
  }
  return { manifest, packages, unresolved: computeUnresolved(packages) };
}

/** Loads one bare `.dalf` (a serialized `Archive`). */
export function loadDalf(bytes: Uint8Array, opts: LoadDalfOptions): LoadedDar {
  const limits: DarLimits = { ...DEFAULT_DAR_LIMITS, ...opts.limits };
  const pkg = decodeDalf(bytes, null, true, opts, limits);
  return { manifest: null, packages: [pkg], unresolved: computeUnresolved([pkg]) };
}

export interface LoadArchivePayloadOptions extends LoadDalfOptions {
  /** the package id the bytes were requested by (e.g. GET /v2/packages/{id}); checked when given */
  readonly expectedPackageId?: string;
}

/**
 * Loads bare `ArchivePayload` bytes, as a participant's package service returns them (gRPC
 * `PackageService.GetPackage.archive_payload`, JSON API `GET /v2/packages/{id}`). The package id
 * is the SHA-256 of exactly these bytes; `idVerified` is true when it equals `expectedPackageId`.
 */
export function loadArchivePayload(bytes: Uint8Array, opts: LoadArchivePayloadOptions): LoadedDar {
  const limits: DarLimits = { ...DEFAULT_DAR_LIMITS, ...opts.limits };
  const packageId = computePackageId(bytes, opts.sha256);
  const expected = opts.expectedPackageId;
  if (expected !== undefined && expected !== packageId) {
    throw new DarError(
      'DAR_PACKAGE_HASH_MISMATCH',
      `package id expected the SHA-256 of the ArchivePayload ${packageId}, got ${JSON.stringify(expected.slice(0, 80))}`,
      { details: { computed: packageId, declared: expected } },
    );
  }
  const types = decodePackageTypes(bytes, packageId, opts, limits);
  const pkg: DarPackage = {
    packageId,
    idVerified: expected !== undefined,
    path: null,
    name: types.name,
    version: types.version,
    lfVersion: types.lfVersion,
    main: true,
    types,
  };
  return { manifest: null, packages: [pkg], unresolved: computeUnresolved([pkg]) };
}

/**
 * Tells a serialized `Archive` (.dalf) from bare `ArchivePayload` bytes by the first field:
 * an Archive starts with hash_function (1) or its large payload (3); an ArchivePayload starts
 * with its short `minor` string (3) or the large daml_lf_1/daml_lf_2 bytes (2/4).
 */
export function detectDalfKind(bytes: Uint8Array): 'archive' | 'payload' {
  const tag = bytes[0];
  if (tag === 0x08) return 'archive';
  // length of the first length-delimited field (varint, at most 4 bytes considered)
  let len = 0;
  for (let i = 1, shift = 0; i < Math.min(bytes.length, 5); i++, shift += 7) {
    const b = bytes[i]!;
    len += (b & 0x7f) * 2 ** shift;
    if (b < 0x80) break;
  }
  if (tag === 0x1a) return len <= 16 ? 'payload' : 'archive';
  if (tag === 0x22) return len === 64 ? 'archive' : 'payload';
  if (tag === 0x12) return 'payload';
  return 'archive';
}

function decodePackageTypes(
  payloadBytes: Uint8Array,
  packageId: string,
  opts: LoadDalfOptions,
  limits: DarLimits,
): LfPackageTypes {
  let types = opts.cache?.get(packageId);
  if (types === undefined) {
    const payload = decodeArchivePayload(payloadBytes);
    types = decodeLf2Package(payload.lf2, {
      packageId,
      lfVersion: payload.lfVersion,
      maxTypeDepth: limits.maxTypeDepth,
    });
    opts.cache?.set(packageId, types);
  }
  return types;
}

function decodeDalf(
  bytes: Uint8Array,
  path: string | null,
  main: boolean,
  opts: LoadDalfOptions,
  limits: DarLimits,
): DarPackage {
  try {
    const archive = decodeArchive(bytes, opts.sha256);
    const types = decodePackageTypes(archive.payload, archive.packageId, opts, limits);
    return {
      packageId: archive.packageId,
      idVerified: archive.idVerified,
      path,
      name: types.name,
      version: types.version,
      lfVersion: types.lfVersion,
      main,
      types,
    };
  } catch (e) {
    if (e instanceof DarError && path !== null && e.details.dalf === undefined) {
      throw new DarError(e.code, `${path}: ${e.shortMessage}`, {
        details: { ...e.details, dalf: path },
        cause: e,
      });
    }
    throw e;
  }
}

function computeUnresolved(packages: readonly DarPackage[]): string[] {
  const have = new Set(packages.map((p) => p.packageId));
  const missing = new Set<string>();
  for (const p of packages) for (const d of p.types.dependencies) if (!have.has(d)) missing.add(d);
  return [...missing].sort();
}
