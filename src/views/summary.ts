/** The one place a `RunSummary` becomes the HTML both adapters write (job summary, `--summary`). */
import type { RunSummary } from '../run/ports/summaries.js';
import { deployLayoutHtml } from './deploy-summary.js';
import { planLayoutHtml } from './plan-summary.js';
import { retireLayoutHtml } from './retire-summary.js';
import { sweepSummaryHtml } from './sweep-summary.js';

/** Within GitHub's limit; every secret value removed by `redact` before escaping. */
export function renderSummary(summary: RunSummary, redact: (text: string) => string): string {
  switch (summary.kind) {
    case 'deploy':
      return deployLayoutHtml(summary, redact);
    case 'plan':
      return planLayoutHtml(summary, redact);
    case 'retire':
      return retireLayoutHtml(summary, redact);
    case 'sweep':
      return sweepSummaryHtml(summary, redact);
  }
}
