/**
 * A small, bounded zip reader for DAR files (docs/protocol/dar-format.md §2; PKWARE APPNOTE §4.3):
 * end-of-central-directory → central directory → local headers → stored (0) or deflated (8)
 * data. Raw deflate is INJECTED (`InflateRaw`) so core stays pure; src/io/files/dar-file.ts passes
 * node:zlib. Every size is checked against limits before anything is inflated, and every entry's
 * CRC-32 and length are checked after. ZIP64, encryption and multi-disk archives are refused.
 */
import { DarError } from '../../../errors/dar.js';
import { computeCrc32 } from './crc32.js';

/** Raw-deflate decompression with an output cap; must throw when the output would exceed it. */
export type InflateRaw = (data: Uint8Array, maxOutput: number) => Uint8Array;

export interface ZipLimits {
  /** most entries in the central directory */
  readonly maxEntries: number;
  /** most uncompressed bytes of one extracted entry */
  readonly maxEntryBytes: number;
  /** most uncompressed bytes extracted from one archive in total */
  readonly maxTotalBytes: number;
  /** longest entry name in bytes */
  readonly maxNameLength: number;
}

export const DEFAULT_ZIP_LIMITS: ZipLimits = {
  maxEntries: 10_000,
  maxEntryBytes: 64 * 1024 * 1024,
  maxTotalBytes: 512 * 1024 * 1024,
  maxNameLength: 1024,
};

export interface ZipEntry {
  readonly name: string;
  /** 0 = stored, 8 = deflate */
  readonly method: number;
  readonly crc32: number;
  readonly compressedSize: number;
  readonly uncompressedSize: number;
  readonly localHeaderOffset: number;
}

export interface ZipArchive {
  /** entries in central-directory order */
  readonly entries: readonly ZipEntry[];
  /** true when an entry of that name exists */
  has(name: string): boolean;
  /** the uncompressed, CRC-checked bytes of one entry; counts against `maxTotalBytes` */
  readEntry(name: string): Uint8Array;
}

export interface DecodeZipOptions {
  readonly inflateRaw: InflateRaw;
  /** CRC-32 implementation (default: the table-driven `computeCrc32`; io passes node:zlib's) */
  readonly crc32?: (data: Uint8Array) => number;
  readonly limits?: Partial<ZipLimits>;
}

const SIG_EOCD = 0x06054b50;
const SIG_CDH = 0x02014b50;
const SIG_LFH = 0x04034b50;
const SIG_ZIP64_LOCATOR = 0x07064b50;
const EOCD_SIZE = 22;
const CDH_SIZE = 46;
const LFH_SIZE = 30;
const utf8 = new TextDecoder('utf-8', { fatal: true });

/** True when the bytes start like a zip file (local header or empty-archive EOCD). */
export function isZip(bytes: Uint8Array): boolean {
  if (bytes.length < 4) return false;
  const sig = u32(bytes, 0);
  return sig === SIG_LFH || sig === SIG_EOCD;
}

/** Parses the zip directory; entry data is read (and inflated) only on `readEntry`. */
export function decodeZip(bytes: Uint8Array, options: DecodeZipOptions): ZipArchive {
  const limits: ZipLimits = { ...DEFAULT_ZIP_LIMITS, ...options.limits };
  const eocd = findEocd(bytes);
  const diskNo = u16(bytes, eocd + 4);
  const cdDisk = u16(bytes, eocd + 6);
  const countOnDisk = u16(bytes, eocd + 8);
  const count = u16(bytes, eocd + 10);
  const cdSize = u32(bytes, eocd + 12);
  const cdOffset = u32(bytes, eocd + 16);
  if (count === 0xffff || cdSize === 0xffffffff || cdOffset === 0xffffffff) {
    throw new DarError('DAR_ZIP_UNSUPPORTED', 'zip expected no ZIP64 extensions, got a ZIP64 directory');
  }
  if (diskNo !== 0 || cdDisk !== 0 || countOnDisk !== count) {
    throw new DarError('DAR_ZIP_UNSUPPORTED', `zip expected a single-disk archive, got disk ${diskNo}`);
  }
  if (count > limits.maxEntries) {
    throw new DarError(
      'DAR_ZIP_LIMIT',
      `zip entry count expected at most ${limits.maxEntries}, got ${count}`,
    );
  }
  if (cdOffset + cdSize > eocd) {
    throw new DarError(
      'DAR_ZIP_TRUNCATED',
      `zip central directory expected to end before offset ${eocd}, got ${cdOffset} + ${cdSize}`,
    );
  }
  const entries: ZipEntry[] = [];
  const byName = new Map<string, ZipEntry>();
  let p = cdOffset;
  const cdEnd = cdOffset + cdSize;
  for (let i = 0; i < count; i++) {
    if (p + CDH_SIZE > cdEnd) throw entryPastDirectory(i);
    if (u32(bytes, p) !== SIG_CDH) {
      throw new DarError('DAR_ZIP_MALFORMED', `zip central directory entry ${i} expected signature 02014b50`);
    }
    const flags = u16(bytes, p + 8);
    const method = u16(bytes, p + 10);
    const crc32 = u32(bytes, p + 16);
    const compressedSize = u32(bytes, p + 20);
    const uncompressedSize = u32(bytes, p + 24);
    const nameLen = u16(bytes, p + 28);
    const extraLen = u16(bytes, p + 30);
    const commentLen = u16(bytes, p + 32);
    const localHeaderOffset = u32(bytes, p + 42);
    const next = p + CDH_SIZE + nameLen + extraLen + commentLen;
    if (next > cdEnd) throw entryPastDirectory(i);
    if (nameLen > limits.maxNameLength) {
      throw new DarError(
        'DAR_ZIP_LIMIT',
        `zip entry name length expected at most ${limits.maxNameLength} bytes, got ${nameLen}`,
      );
    }
    const name = decodeName(bytes.subarray(p + CDH_SIZE, p + CDH_SIZE + nameLen), i);
    if (
      compressedSize === 0xffffffff ||
      uncompressedSize === 0xffffffff ||
      localHeaderOffset === 0xffffffff
    ) {
      throw new DarError('DAR_ZIP_UNSUPPORTED', `zip entry ${JSON.stringify(name)} expected no ZIP64 sizes`);
    }
    if (flags & 1) {
      throw new DarError('DAR_ZIP_UNSUPPORTED', `zip entry ${JSON.stringify(name)} expected no encryption`);
    }
    if (byName.has(name)) {
      throw new DarError(
        'DAR_ZIP_MALFORMED',
        `zip entry names expected unique, got ${JSON.stringify(name)} twice`,
      );
    }
    const entry: ZipEntry = { name, method, crc32, compressedSize, uncompressedSize, localHeaderOffset };
    entries.push(entry);
    byName.set(name, entry);
    p = next;
  }

  let extracted = 0;
  const crc32 = options.crc32 ?? computeCrc32;
  return {
    entries,
    has: (name) => byName.has(name),
    readEntry(name: string): Uint8Array {
      const entry = byName.get(name);
      if (entry === undefined) {
        throw new DarError('DAR_ENTRY_MISSING', `zip entry expected, got no ${JSON.stringify(name)}`);
      }
      if (entry.uncompressedSize > limits.maxEntryBytes) {
        throw new DarError(
          'DAR_ZIP_LIMIT',
          `zip entry ${JSON.stringify(name)} size expected at most ${limits.maxEntryBytes} bytes, got ${entry.uncompressedSize}`,
        );
      }
      if (extracted + entry.uncompressedSize > limits.maxTotalBytes) {
        throw new DarError(
          'DAR_ZIP_LIMIT',
          `zip total extracted size expected at most ${limits.maxTotalBytes} bytes, got ${extracted + entry.uncompressedSize}`,
        );
      }
      const data = readEntryData(bytes, entry, cdOffset, options.inflateRaw, crc32);
      extracted += data.length;
      return data;
    },
  };
}

function readEntryData(
  bytes: Uint8Array,
  e: ZipEntry,
  cdOffset: number,
  inflateRaw: InflateRaw,
  crc32: (data: Uint8Array) => number,
): Uint8Array {
  const q = e.localHeaderOffset;
  const label = JSON.stringify(e.name);
  if (q + LFH_SIZE > cdOffset) {
    throw new DarError('DAR_ZIP_TRUNCATED', `zip local header of ${label} expected before the directory`);
  }
  if (u32(bytes, q) !== SIG_LFH) {
    throw new DarError('DAR_ZIP_MALFORMED', `zip local header of ${label} expected signature 04034b50`);
  }
  const nameLen = u16(bytes, q + 26);
  const extraLen = u16(bytes, q + 28);
  const start = q + LFH_SIZE + nameLen + extraLen;
  const end = start + e.compressedSize;
  if (end > cdOffset) {
    throw new DarError(
      'DAR_ZIP_TRUNCATED',
      `zip data of ${label} expected to end before offset ${cdOffset}, got ${end}`,
    );
  }
  const localName = bytes.subarray(q + LFH_SIZE, q + LFH_SIZE + nameLen);
  if (decodeName(localName, -1) !== e.name) {
    throw new DarError('DAR_ZIP_MALFORMED', `zip local header name expected ${label}`);
  }
  const raw = bytes.subarray(start, end);
  let data: Uint8Array;
  if (e.method === 0) {
    data = raw;
  } else if (e.method === 8) {
    try {
      data = inflateRaw(raw, e.uncompressedSize);
    } catch (cause) {
      throw new DarError(
        'DAR_ZIP_INFLATE_FAILED',
        `zip entry ${label} expected a raw deflate stream of ${e.uncompressedSize} bytes, got an error`,
        { cause },
      );
    }
  } else {
    throw new DarError('DAR_ZIP_UNSUPPORTED', `zip entry ${label} method expected 0 or 8, got ${e.method}`);
  }
  if (data.length !== e.uncompressedSize) {
    throw new DarError(
      'DAR_ZIP_CRC_MISMATCH',
      `zip entry ${label} size expected ${e.uncompressedSize} bytes, got ${data.length}`,
    );
  }
  const crc = crc32(data) >>> 0;
  if (crc !== e.crc32) {
    throw new DarError(
      'DAR_ZIP_CRC_MISMATCH',
      `zip entry ${label} CRC-32 expected ${hex32(e.crc32)}, got ${hex32(crc)}`,
    );
  }
  return data;
}

/** Central directory entry `i` (its fixed part, or with its name, extra and comment) runs past the directory. */
function entryPastDirectory(i: number): DarError {
  return new DarError('DAR_ZIP_TRUNCATED', `zip central directory entry ${i} expected within the directory`);
}

function findEocd(bytes: Uint8Array): number {
  if (bytes.length < EOCD_SIZE) {
    throw new DarError('DAR_ZIP_TRUNCATED', `zip expected at least ${EOCD_SIZE} bytes, got ${bytes.length}`);
  }
  const lowest = Math.max(0, bytes.length - EOCD_SIZE - 0xffff);
  for (let p = bytes.length - EOCD_SIZE; p >= lowest; p--) {
    if (
      bytes[p] === 0x50 &&
      u32(bytes, p) === SIG_EOCD &&
      p + EOCD_SIZE + u16(bytes, p + 20) === bytes.length
    ) {
      if (p >= 20 && u32(bytes, p - 20) === SIG_ZIP64_LOCATOR) {
        throw new DarError('DAR_ZIP_UNSUPPORTED', 'zip expected no ZIP64 extensions, got a ZIP64 locator');
      }
      return p;
    }
  }
  throw new DarError('DAR_ZIP_TRUNCATED', 'zip end-of-central-directory record expected, got none');
}

function decodeName(b: Uint8Array, i: number): string {
  try {
    return utf8.decode(b);
  } catch (cause) {
    throw new DarError('DAR_ZIP_MALFORMED', `zip entry ${i} name expected UTF-8`, { cause });
  }
}

function u16(b: Uint8Array, p: number): number {
  return b[p]! | (b[p + 1]! << 8);
}

function u32(b: Uint8Array, p: number): number {
  return (b[p]! | (b[p + 1]! << 8) | (b[p + 2]! << 16) | (b[p + 3]! << 24)) >>> 0;
}

function hex32(n: number): string {
  return n.toString(16).padStart(8, '0');
}
