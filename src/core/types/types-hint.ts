/**
 * What to give when a V12 contract ID cannot be typed (docs/protocol/contract-id.md §6.4): the DAR
 * of the blob's package, named by package name and id — or, for the bundled reference server's
 * package, the type file that ships with reserve-audit. The command line and the verifier page
 * add how to give it (`--dar`, dropping the file on the page).
 */

/** The package of the reference server's reserve template (src/sim/reserve-template.ts). */
const REFERENCE_PACKAGE_NAME = 'amm-pools';

/** `the DAR of package "splice-amulet" (package id 6c58…), or a type file of it` */
export function formatMissingTypesHint(packageName: string, packageId: string): string {
  if (packageName === REFERENCE_PACKAGE_NAME)
    return "the reference server's type file, fixtures/types/amm-pools.json in reserve-audit (reserve-audit/fixtures/types/amm-pools.json)";
  return `the DAR of package ${JSON.stringify(packageName)} (package id ${packageId}, or a newer version of it), or a type file of it`;
}
