/**
 * How a run's summary reads: the one place that renders what a flow did
 * (a `RunSummary`, src/run/ports/summaries.ts) as the HTML both adapters
 * write, the action to the job summary and the command to its `--summary`
 * file. Service text is escaped by the one GitHub-text module, after the
 * adapter's `redact` has removed every secret value.
 */
import type { RunSummary } from '../run/ports/summaries.js';
import { deployLayoutHtml } from './deploy-summary.js';
import { planLayoutHtml } from './plan-summary.js';
import { retireLayoutHtml } from './retire-summary.js';
import { sweepSummaryHtml } from './sweep-summary.js';

/** The summary as HTML, within GitHub's limit, secret values removed by `redact`. */
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
