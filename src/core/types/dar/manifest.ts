/**
 * `META-INF/MANIFEST.MF` of a DAR (docs/protocol/dar-format.md §2.1): Java-manifest text, 72-byte lines
 * with one-space continuations (joined first, dropping exactly one leading space), `\n` or
 * `\r\n` line ends. Only the main section (up to the first blank line) is read.
 */
import { DarError } from '../../../errors/dar.js';

export const MANIFEST_PATH = 'META-INF/MANIFEST.MF';

export interface DarManifest {
  /** every main-section attribute, in file order */
  readonly attributes: ReadonlyMap<string, string>;
  /** zip path of the main dalf (`Main-Dalf`) */
  readonly mainDalf: string;
  /** zip paths of all dalfs, main included (`Dalfs`, split on ',' and trimmed) */
  readonly dalfs: readonly string[];
  /** `Name` (e.g. `splice-amulet-0.1.14`), when present */
  readonly name: string | null;
  /** `Sdk-Version`, when present */
  readonly sdkVersion: string | null;
}

const utf8 = new TextDecoder('utf-8', { fatal: true });

/** Parses manifest bytes; throws DAR_MANIFEST_INVALID on anything a DAR reader must reject. */
export function parseDarManifest(bytes: Uint8Array): DarManifest {
  let text: string;
  try {
    text = utf8.decode(bytes);
  } catch (cause) {
    throw new DarError('DAR_MANIFEST_INVALID', `"${MANIFEST_PATH}" expected UTF-8 text`, { cause });
  }
  if (text.charCodeAt(0) === 0xfeff) text = text.slice(1);
  const logical: string[] = [];
  for (const line of text.split(/\r\n|\n|\r/)) {
    if (line === '') break; // end of the main section
    if (line.startsWith(' ')) {
      if (logical.length === 0) {
        throw new DarError(
          'DAR_MANIFEST_INVALID',
          `"${MANIFEST_PATH}" expected a header line before a continuation`,
        );
      }
      logical[logical.length - 1] += line.slice(1);
    } else {
      logical.push(line);
    }
  }
  const attributes = new Map<string, string>();
  for (const l of logical) {
    const colon = l.indexOf(': ');
    if (colon <= 0) {
      throw new DarError(
        'DAR_MANIFEST_INVALID',
        `"${MANIFEST_PATH}" line expected "Key: value", got ${show(l)}`,
      );
    }
    attributes.set(l.slice(0, colon), l.slice(colon + 2));
  }
  const mainDalf = attributes.get('Main-Dalf')?.trim();
  if (mainDalf === undefined || mainDalf === '') {
    throw new DarError('DAR_MANIFEST_INVALID', `"Main-Dalf" expected in ${MANIFEST_PATH}, got none`);
  }
  const dalfsRaw = attributes.get('Dalfs');
  if (dalfsRaw === undefined) {
    throw new DarError('DAR_MANIFEST_INVALID', `"Dalfs" expected in ${MANIFEST_PATH}, got none`);
  }
  const dalfs = dalfsRaw
    .split(',')
    .map((s) => s.trim())
    .filter((s) => s !== '');
  if (!dalfs.includes(mainDalf)) {
    throw new DarError(
      'DAR_MANIFEST_INVALID',
      `"Dalfs" expected to list Main-Dalf, got no ${show(mainDalf)}`,
    );
  }
  if (new Set(dalfs).size !== dalfs.length) {
    throw new DarError('DAR_MANIFEST_INVALID', `"Dalfs" expected unique paths, got a duplicate`);
  }
  const format = attributes.get('Format');
  if (format !== undefined && format.trim() !== 'daml-lf') {
    throw new DarError('DAR_MANIFEST_INVALID', `"Format" expected "daml-lf", got ${show(format)}`);
  }
  return {
    attributes,
    mainDalf,
    dalfs,
    name: attributes.get('Name') ?? null,
    sdkVersion: attributes.get('Sdk-Version') ?? null,
  };
}

function show(s: string): string {
  return JSON.stringify(s.length > 80 ? `${s.slice(0, 80)}…` : s);
}
