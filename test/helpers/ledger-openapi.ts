/**
 * Canton's OpenAPI description of the JSON Ledger API v2 (../shared/spec/ledger-api/openapi-3.5.7.yaml)
 * as a response validator (ajv + ajv-formats). The document is OpenAPI 3.0: its schemas are loaded
 * into ajv as one schema document (`$ref: '#/components/schemas/X'` resolved inside it), with
 * `strict: false` for the OpenAPI-only keywords (`example`, `deprecated`), `nullable` understood by
 * ajv, and the `int32`/`int64` formats added. On top of the document, an object schema that lists
 * its `properties` and says nothing of others admits no others here, so a misspelt field name
 * fails instead of passing unchecked. A response is validated against its operation's entry for
 * its status (`default` when the status has none, or when it has none for the response's media
 * type: Canton answers its JSON errors with a status the document lists only as `text/plain`).
 * Tests skip, saying so, when the file is absent.
 */
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Ajv, type ValidateFunction } from 'ajv';
import formatsModule from 'ajv-formats';
import { parse } from 'yaml';
import { repoRoot } from './shared.js';

const SPEC_PATH = join(repoRoot, '..', 'shared', 'spec', 'ledger-api', 'openapi-3.5.7.yaml');

export const LEDGER_OPENAPI_SKIP_REASON =
  `Canton's OpenAPI description is missing — no ${SPEC_PATH} (a folder shared/spec/ledger-api beside ` +
  'this checkout), so the Ledger API responses are not validated against it; get openapi.yaml of the ' +
  'JSON Ledger API v2 (Canton 3.5.7, canton/community/ledger/ledger-json-api/src/test/resources/json-api-docs/) ' +
  'and put it there as openapi-3.5.7.yaml';

type Json = Record<string, unknown>;

export interface LedgerOpenApi {
  /**
   * The document's complaints about one response (empty when it conforms): `method` and `path` as
   * the document lists them (e.g. 'post', '/v2/updates'), the body parsed as JSON or, for a
   * non-JSON media type, as text.
   */
  check(method: string, path: string, status: number, contentType: string, body: unknown): string[];
  /** the document's paths (to assert a route is described) */
  readonly paths: readonly string[];
}

/** Adds `additionalProperties: false` to object schemas that list properties and say nothing else. */
function closeObjects(node: unknown): void {
  if (Array.isArray(node)) {
    for (const x of node) closeObjects(x);
    return;
  }
  if (node === null || typeof node !== 'object') return;
  const o = node as Json;
  if (o.properties !== undefined && o.additionalProperties === undefined) o.additionalProperties = false;
  for (const v of Object.values(o)) closeObjects(v);
}

/** The validator, or null when the document is not beside the checkout. */
export function loadLedgerOpenApi(): LedgerOpenApi | null {
  if (!existsSync(SPEC_PATH)) return null;
  const doc = parse(readFileSync(SPEC_PATH, 'utf8')) as Json;
  const components = doc.components as Json;
  closeObjects(components.schemas);
  const ajv = new Ajv({ strict: false, allErrors: true });
  // ajv-formats is CommonJS: its plugin is the module itself or its `default`
  const addFormats = ((formatsModule as unknown as { default?: unknown }).default ??
    formatsModule) as unknown as (a: Ajv) => void;
  addFormats(ajv);
  ajv.addFormat('int32', {
    type: 'number',
    validate: (n: number) => Number.isInteger(n) && n >= -(2 ** 31) && n < 2 ** 31,
  });
  ajv.addFormat('int64', { type: 'number', validate: (n: number) => Number.isSafeInteger(n) });
  ajv.addSchema({ $id: 'ledger-api', components }, 'ledger-api');
  const paths = doc.paths as Record<string, Record<string, Json>>;
  const compiled = new Map<string, ValidateFunction>();

  const schemaFor = (schema: Json): ValidateFunction => {
    const key = JSON.stringify(schema);
    const known = compiled.get(key);
    if (known !== undefined) return known;
    // refs point into the components document added above
    const rewritten = JSON.parse(key.replaceAll('"#/components/', '"ledger-api#/components/')) as Json;
    const v = ajv.compile(rewritten);
    compiled.set(key, v);
    return v;
  };

  return {
    paths: Object.keys(paths),
    check(method, path, status, contentType, body) {
      const op = paths[path]?.[method.toLowerCase()];
      if (op === undefined) return [`${method} ${path} is not in the document`];
      const responses = op.responses as Record<string, Json>;
      const media = contentType.split(';')[0]!.trim().toLowerCase();
      const byStatus = responses[String(status)];
      const entry =
        byStatus !== undefined && (byStatus.content as Json | undefined)?.[media] !== undefined
          ? byStatus
          : responses.default;
      if (entry === undefined) return [`${method} ${path}: status ${status} is not described`];
      const content = (entry.content as Json | undefined)?.[media] as Json | undefined;
      if (content === undefined) {
        return [`${method} ${path} ${status}: media type ${media} is not described`];
      }
      const validate = schemaFor(content.schema as Json);
      if (validate(body)) return [];
      return (validate.errors ?? []).map(
        (e) => `${e.instancePath || '/'} ${e.message ?? ''} ${JSON.stringify(e.params)}`,
      );
    },
  };
}
