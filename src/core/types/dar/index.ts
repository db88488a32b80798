/** DAR / DALF decoding (docs/protocol/dar-format.md): the public surface of src/core/types/dar. */
export {
  computePackageId,
  type DecodedArchive,
  type DecodedArchivePayload,
  decodeArchive,
  decodeArchivePayload,
} from './archive.js';
export { computeCrc32 } from './crc32.js';
export { decodeLf2Package, type Lf2DecodeOptions, type LfPackageTypes } from './lf2-package.js';
export {
  type DarLimits,
  type DarPackage,
  DEFAULT_DAR_LIMITS,
  detectDalfKind,
  type LoadArchivePayloadOptions,
  type LoadDalfOptions,
  type LoadDarOptions,
  type LoadedDar,
  loadArchivePayload,
  loadDalf,
  loadDar,
  type PackageCache,
} from './load.js';
export { type DarManifest, MANIFEST_PATH, parseDarManifest } from './manifest.js';
export { computeReachableTypes, type ReachableDataType, type ReachableTypes } from './reachable.js';
export {
  DEFAULT_ZIP_LIMITS,
  type DecodeZipOptions,
  decodeZip,
  type InflateRaw,
  isZip,
  type ZipArchive,
  type ZipEntry,
  type ZipLimits,
} from './zip.js';
