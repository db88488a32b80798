/** The HTML report's inlined assets: the bundled script (uPlot + table/chart code) and uPlot's CSS. */
import { escapeInlineScript, readWebAsset } from '../../io/files/web-assets.js';
import type { ReportAssets } from './html-report.js';

export async function loadReportAssets(): Promise<ReportAssets> {
  const [script, css] = await Promise.all([readWebAsset('report.js'), readWebAsset('uplot.css')]);
  return { script: escapeInlineScript(script), css: css.replace(/<\//g, '<\\/') };
}
