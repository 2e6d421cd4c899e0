import { describe, expect, it } from 'vitest';
import { formatUtc } from './format-time.ts';

describe('formatUtc', () => {
  it('writes a moment in UTC, whatever the server’s own zone', () => {
    expect(formatUtc(new Date('2026-11-26T10:06:00.647Z'))).toBe('Nov 26, 2026, 10:06 AM UTC');
    expect(formatUtc(new Date('2031-03-01T23:30:00-05:00'))).toBe('Mar 2, 2031, 4:30 AM UTC');
  });
});
