#!/usr/bin/env node
/**
 * The public API report (docs/architecture.md "The public surface"): API Extractor reads the
 * declarations tsc wrote to dist/ for each code entry point of package.json "exports" (those with
 * `types`; the exported data files have none) and compares them
 * with the report checked in under etc/ (reserve-audit.api.md, reserve-audit-core.api.md,
 * reserve-audit-server.api.md). A change to the public API fails the check until the reports are
 * regenerated and committed with it, so it is a reviewed diff. Configuration: api-extractor.json.
 *
 *   npm run check:api              # builds the declarations, then compares (CI)
 *   npm run check:api -- --local   # rewrites the reports in etc/ (commit them with the change)
 */
import { readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Extractor, ExtractorConfig } from '@microsoft/api-extractor';

const repo = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const local = process.argv.includes('--local');
const configPath = join(repo, 'api-extractor.json');
const packageJsonPath = join(repo, 'package.json');
const { name, exports } = JSON.parse(readFileSync(packageJsonPath, 'utf8'));

let failed = 0;
for (const [subpath, target] of Object.entries(exports)) {
  // files the package exports as they are (fixtures/*, examples/*, package.json) have no API
  if (typeof target !== 'object' || target === null || typeof target.types !== 'string') continue;
  // '.' → reserve-audit, './core' → reserve-audit-core
  const reportName = subpath === '.' ? name : `${name}-${subpath.slice(2).replaceAll('/', '-')}`;
  const configObject = ExtractorConfig.loadFile(configPath);
  configObject.mainEntryPointFilePath = `<projectFolder>/${target.types.replace(/^\.\//, '')}`;
  configObject.apiReport = { ...configObject.apiReport, reportFileName: reportName };
  const config = ExtractorConfig.prepare({
    configObject,
    configObjectFullPath: configPath,
    packageJsonFullPath: packageJsonPath,
  });
  const result = Extractor.invoke(config, { localBuild: local });
  const where = `${subpath} (etc/${reportName}.api.md)`;
  if (!result.succeeded) {
    failed++;
    const hint = result.apiReportChanged
      ? '; the public API changed: run `npm run check:api -- --local` and commit etc/'
      : '';
    process.stderr.write(
      `check:api: ${where}: ${result.errorCount} error(s), ${result.warningCount} warning(s)${hint}\n`,
    );
  } else if (result.apiReportChanged) {
    process.stdout.write(`check:api: ${where} rewritten\n`);
  }
}
process.exitCode = failed === 0 ? 0 : 1;
