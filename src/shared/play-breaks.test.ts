import { describe, expect, it } from 'vitest';
import { playBreakEnd, playBreakMessage } from './play-breaks.ts';

describe('the end of a break', () => {
  it('counts a time-out in whole days to the millisecond', () => {
    const from = new Date('2031-03-08T23:59:59.999Z');
    expect(playBreakEnd(from, { days: 1 }).toISOString()).toBe('2031-03-09T23:59:59.999Z');
    expect(playBreakEnd(from, { days: 30 }).toISOString()).toBe('2031-04-07T23:59:59.999Z');
  });

  it('counts a self-exclusion in calendar months, clamped to the last day of a short month', () => {
    expect(playBreakEnd(new Date('2031-08-31T10:00:00Z'), { months: 6 }).toISOString()).toBe(
      '2032-02-29T10:00:00.000Z',
    );
    expect(playBreakEnd(new Date('2031-08-31T10:00:00Z'), { months: 12 }).toISOString()).toBe(
      '2032-08-31T10:00:00.000Z',
    );
    expect(playBreakEnd(new Date('2032-02-29T10:00:00Z'), { months: 60 }).toISOString()).toBe(
      '2037-02-28T10:00:00.000Z',
    );
  });

  it('names the end in UTC in every refusal', () => {
    expect(playBreakMessage({ kind: 'self_exclusion', until: '2032-02-29T10:00:00.000Z' })).toBe(
      'You have excluded yourself from cash play until 2032-02-29 10:00 UTC: deposits and challenges are paused until then.',
    );
  });
});
