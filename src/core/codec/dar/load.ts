/**
 * Loading a whole DAR (or one bare `.dalf`) into per-package data types
 * (spec/dar-format.md §1, §2, §3, §6.1): zip → manifest → every listed dalf → package id
 * recomputed → LF 2.x data types. Pure: raw inflate and SHA-256 are injected.
 */
import { DarError } from '../../../errors/dar.js';
import type { Sha256 } from '../../hash/sha256.js';
import { decodeArchive, decodeArchivePayload } from './archive.js';
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
      throw new DarError('DAR_ENTRY_MISSING', `dalf listed in "Dalfs" expected in the zip, got no ${JSON.stringify(path)}`);
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

/** Loads one bare `.dalf` (for example a package fetched from a participant by id). */
export function loadDalf(bytes: Uint8Array, opts: LoadDalfOptions): LoadedDar {
  const limits: DarLimits = { ...DEFAULT_DAR_LIMITS, ...opts.limits };
  const pkg = decodeDalf(bytes, null, true, opts, limits);
  return { manifest: null, packages: [pkg], unresolved: computeUnresolved([pkg]) };
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
    let types = opts.cache?.get(archive.packageId);
    if (types === undefined) {
      const payload = decodeArchivePayload(archive.payload);
      types = decodeLf2Package(payload.lf2, {
        packageId: archive.packageId,
        lfVersion: payload.lfVersion,
        maxTypeDepth: limits.maxTypeDepth,
      });
      opts.cache?.set(archive.packageId, types);
    }
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
      throw new DarError(e.code, `${path}: ${e.shortMessage}`, { details: { ...e.details, dalf: path }, cause: e });
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
