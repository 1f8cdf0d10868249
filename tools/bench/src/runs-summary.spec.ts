import { renderRunsSummary, summarizeRuns } from './runs-summary';

const check = (what: string, measured: number, met: boolean, target = '≤ 1') => ({
  what,
  target,
  measured,
  met,
});

describe('summarizeRuns', () => {
  it('takes each target across the runs, wherever a benchmark put it: median, spread and runs met', () => {
    const rows = summarizeRuns([
      { targets: [check('miss ÷ chain', 1.3, false)], peer: { targets: [check('cpu ÷ peer', 0.9, false)] } },
      { targets: [check('miss ÷ chain', 0.7, true)], peer: { targets: [check('cpu ÷ peer', 1.1, false)] } },
      {
        targets: [check('miss ÷ chain', 0.95, true)],
        stream: { targets: [check('stream hit', 0.6, true, '< 5')] },
        peer: { targets: [check('cpu ÷ peer', 0.75, true)] },
      },
    ]);
    expect(rows).toEqual([
      { what: 'miss ÷ chain', target: '≤ 1', median: 0.95, lowest: 0.7, highest: 1.3, met: 2, runs: 3 },
      { what: 'cpu ÷ peer', target: '≤ 1', median: 0.9, lowest: 0.75, highest: 1.1, met: 1, runs: 3 },
      { what: 'stream hit', target: '< 5', median: 0.6, lowest: 0.6, highest: 0.6, met: 1, runs: 1 },
    ]);
  });

  it('leaves out a figure a run could not take (NaN), not counting that run for it', () => {
    const rows = summarizeRuns([
      { targets: [check('x', Number.NaN, false)] },
      { targets: [check('x', 2, false)] },
    ]);
    expect(rows).toEqual([{ what: 'x', target: '≤ 1', median: 2, lowest: 2, highest: 2, met: 0, runs: 1 }]);
  });

  it('renders one line per figure with its spread and how often it was met', () => {
    const text = renderRunsSummary(
      [{ what: 'cpu ÷ peer', target: '≤ 0.8', median: 0.93, lowest: 0.81, highest: 1.02, met: 0, runs: 3 }],
      ['a', 'b', 'c'],
    );
    expect(text).toContain('Targets over 3 runs (a, b, c)');
    expect(text).toMatch(/\| cpu ÷ peer \| ≤ 0\.8 +\| 0\.93 +\| 0\.81–1\.02 \| 0 of 3 +\|/);
  });
});
