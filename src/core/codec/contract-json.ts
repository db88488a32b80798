/**
 * A JSON rendering of decoded contracts and values for humans and the CLI (docs/protocol/blob-format.md §8
 * shows the same information). bigint → decimal string, bytes → lower-case hex, template id →
 * `pkg:Mod.Sub:Entity`. Values use the notation of the vector files:
 * `{unit:{}}`, `{bool:true}`, `{int64:"-1"}`, `{numeric:"1.0"}`, `{date:0}`, `{timestamp:"0"}`,
 * `{text:""}`, `{party:"…"}`, `{contractId:"00…"}`, `{optional:null|v}`, `{list:[…]}`,
 * `{textMap:[[k,v]…]}`, `{genMap:[[k,v]…]}`, `{record:[…]}`, `{variant:{ctor,value}}`, `{enum:{ctor}}`.
 */
import { formatHex } from './bytes.js';
import type { DecodedContract, TemplateId } from './contract.js';
import { MAX_TIMESTAMP, MIN_TIMESTAMP } from './validate.js';
import type { Value } from './value.js';

/** `packageId:Module.Path:Entity.Path` */
export function formatTemplateId(t: TemplateId): string {
  return `${t.packageId}:${t.module.join('.')}:${t.entity.join('.')}`;
}

/** Renders one Value in the vector-file notation (JSON-safe: no bigint, no bytes). */
function formatValueJson(v: Value): unknown {
  switch (v.kind) {
    case 'unit':
      return { unit: {} };
    case 'bool':
      return { bool: v.value };
    case 'int64':
      return { int64: v.value.toString() };
    case 'numeric':
      return { numeric: v.value };
    case 'text':
      return { text: v.value };
    case 'party':
      return { party: v.value };
    case 'contractId':
      return { contractId: formatHex(v.value) };
    case 'date':
      return { date: v.value };
    case 'timestamp':
      return { timestamp: v.value.toString() };
    case 'optional':
      return { optional: v.value === null ? null : formatValueJson(v.value) };
    case 'list':
      return { list: v.elements.map(formatValueJson) };
    case 'textMap':
      return { textMap: v.entries.map(([k, x]) => [k, formatValueJson(x)]) };
    case 'genMap':
      return { genMap: v.entries.map(([k, x]) => [formatValueJson(k), formatValueJson(x)]) };
    case 'record':
      return { record: v.fields.map(formatValueJson) };
    case 'variant':
      return { variant: { ctor: v.constructor, value: formatValueJson(v.value) } };
    case 'enum':
      return { enum: { ctor: v.constructor } };
  }
}

/** ISO-8601 UTC with microseconds, or null outside years 1..9999. */
function formatMicros(us: bigint): string | null {
  if (us < MIN_TIMESTAMP || us > MAX_TIMESTAMP) return null;
  const ms = us / 1000n - (us % 1000n < 0n ? 1n : 0n);
  const micro = Number(us - ms * 1000n);
  const d = new Date(Number(ms));
  if (Number.isNaN(d.getTime())) return null;
  return `${d.toISOString().slice(0, 23)}${String(micro).padStart(3, '0')}Z`;
}

/** Renders a decoded contract as a plain JSON-safe object. */
export function formatDecodedContractJson(c: DecodedContract): unknown {
  const auth = c.authenticationData;
  return {
    contractId: formatHex(c.contractId),
    serializationVersion: c.serializationVersion,
    layout: c.layout,
    packageName: c.packageName,
    templateId: formatTemplateId(c.templateId),
    signatories: c.signatories,
    stakeholders: c.stakeholders,
    nonMaintainerSignatories: c.nonMaintainerSignatories,
    nonSignatoryStakeholders: c.nonSignatoryStakeholders,
    createdAtMicros: c.createdAt.toString(),
    createdAt: formatMicros(c.createdAt),
    authenticationData: {
      hex: formatHex(auth.raw),
      version: auth.version,
      salt: auth.salt === null ? null : { algorithm: auth.salt.algorithm, hex: formatHex(auth.salt.bytes) },
    },
    key:
      c.key === null
        ? null
        : {
            key: formatValueJson(c.key.key),
            maintainers: c.key.maintainers,
            hash: c.key.hash === null ? null : formatHex(c.key.hash),
          },
    packageVersion: c.packageVersion,
    createArgument: formatValueJson(c.createArg),
    ...(c.unknownFields === undefined ? {} : { unknownFields: c.unknownFields }),
  };
}
