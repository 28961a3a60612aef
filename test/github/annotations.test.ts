/** At most 10 warning annotations a step; every warning still a log line. */
import { describe, expect, it } from 'vitest';
import { ANNOTATION_LIMIT, WarningAnnotations } from '../../src/github/annotations.ts';

function capture() {
  const annotations: string[] = [];
  const lines: string[] = [];
  const warnings = new WarningAnnotations({
    annotate: (message) => annotations.push(message),
    line: (message) => lines.push(message),
  });
  return { warnings, annotations, lines };
}

const WHERE =
  'every one is in the log above; drift entries are in the job summary and the drift output';

describe('WarningAnnotations', () => {
  it('writes up to 10 as they are, the 10th at the end', () => {
    const { warnings, annotations, lines } = capture();
    for (let i = 1; i <= 10; i++) warnings.warning(`w${i}`);
    expect(annotations).toHaveLength(9);
    warnings.flush(WHERE);
    expect(annotations).toEqual(Array.from({ length: 10 }, (_, i) => `w${i + 1}`));
    expect(lines).toEqual(['Warning: w10']);
  });

  it('1,500 warnings: 10 annotations, the last says how many more and where; all 1,500 in the log', () => {
    const { warnings, annotations, lines } = capture();
    for (let i = 1; i <= 1_500; i++) warnings.warning(`w${i}`);
    warnings.flush(WHERE);
    expect(annotations).toHaveLength(ANNOTATION_LIMIT);
    expect(annotations.at(-1)).toBe(
      `1491 more warnings than GitHub shows here (it shows 10 a step): ${WHERE}. The first of them: w10`,
    );
    // The first 9 are in the log as their annotation; the others as plain lines.
    expect(lines).toHaveLength(1_491);
    expect(lines.at(-1)).toBe('Warning: w1500');
    expect(warnings.count).toBe(1_500);
  });

  it('writes nothing more for fewer than 10, and flushes once', () => {
    const { warnings, annotations } = capture();
    warnings.warning('only');
    warnings.flush(WHERE);
    warnings.flush(WHERE);
    expect(annotations).toEqual(['only']);
  });
});
