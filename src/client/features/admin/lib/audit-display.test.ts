import { describe, expect, it } from 'vitest';
import { detailLabel, detailValue } from './audit-display.ts';

describe('an audit entry’s details', () => {
  it('shows cents as dollars, and a deposit limit’s change in words, never as JSON', () => {
    expect(detailLabel('balanceAfterCents')).toBe('Balance after');
    expect(detailValue('balanceAfterCents', '-500')).toBe('-$5.00');
    const daily = { cents: '50.00', effectiveAt: '2026-11-28T13:44:00.000Z' };
    const shown = detailValue('daily', daily);
    expect(shown).toMatch(/^Limit \$50\.00, Effective at Nov 28, 2026/);
    expect(shown).not.toContain('{');
    expect(detailValue('weekly', { cents: null, effectiveAt: '2026-12-05T13:44:00.000Z' })).toMatch(
      /^Limit removed, Effective at Dec 5, 2026/,
    );
    expect(detailValue('until', '2026-12-05T13:44:00.000Z')).toMatch(/^Dec 5, 2026/);
    expect(detailValue('cancelledChallengeIds', [3, 4])).toBe('3, 4');
    expect(detailValue('note', null)).toBe('—');
  });
});
