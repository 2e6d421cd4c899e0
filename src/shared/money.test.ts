import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  centsToDecimalString,
  centsToDollarNumber,
  dollars,
  formatCents,
  parseAmount,
  percentOf,
} from './money.ts';

describe('parseAmount', () => {
  it.each([
    ['12', 1200n],
    ['12.5', 1250n],
    ['12.05', 1205n],
    ['-3.07', -307n],
    [' 7 ', 700n],
    [0.1, 10n],
    [19.99, 1999n],
    [-0.01, -1n],
  ])('parses %o exactly', (input, cents) => {
    expect(parseAmount(input)).toEqual({ ok: true, cents });
  });

  it.each([
    '',
    'abc',
    '1e3',
    '1,000',
    '$5',
    '12.',
    '.5',
    'NaN',
    'Infinity',
    '--1',
    '0x10',
    '1 000',
  ])('refuses %o as a format error', (input) => {
    expect(parseAmount(input)).toEqual({ ok: false, reason: 'format' });
  });

  it('refuses more than two decimals, including float noise', () => {
    expect(parseAmount('1.005')).toEqual({ ok: false, reason: 'precision' });
    expect(parseAmount(0.1 + 0.2)).toEqual({ ok: false, reason: 'precision' });
    expect(parseAmount(Number.NaN)).toEqual({ ok: false, reason: 'format' });
    expect(parseAmount(Number.POSITIVE_INFINITY)).toEqual({ ok: false, reason: 'format' });
    expect(parseAmount(1e21)).toEqual({ ok: false, reason: 'format' });
  });

  it('round-trips every cent amount through its decimal text', () => {
    fc.assert(
      fc.property(fc.bigInt({ min: -(10n ** 15n), max: 10n ** 15n }), (cents) => {
        expect(parseAmount(centsToDecimalString(cents))).toEqual({ ok: true, cents });
      }),
    );
  });
});

describe('display', () => {
  it('formats with two decimals, grouping and sign', () => {
    expect(formatCents(123456789n)).toBe('$1,234,567.89');
    expect(formatCents(-300n)).toBe('-$3.00');
    expect(formatCents(5n)).toBe('$0.05');
    expect(centsToDollarNumber(1999n)).toBe(19.99);
    expect(centsToDollarNumber(-5n)).toBe(-0.05);
    expect(dollars(25)).toBe(2500n);
    expect(() => dollars(2.5)).toThrow(RangeError);
  });
});

describe('percentOf', () => {
  it('rounds half up to the cent', () => {
    expect(percentOf(2000n, 500n)).toBe(100n);
    expect(percentOf(10n, 500n)).toBe(1n); // 0.5 cent rounds up
    expect(percentOf(9n, 500n)).toBe(0n); // 0.45 cent rounds down
    expect(percentOf(30n, 500n)).toBe(2n); // 1.5 cents rounds up
    expect(percentOf(-30n, 500n)).toBe(-2n);
  });

  it('never moves the result by more than half a cent from the exact value', () => {
    fc.assert(
      fc.property(
        fc.bigInt({ min: 0n, max: 10n ** 12n }),
        fc.bigInt({ min: 0n, max: 10_000n }),
        (cents, bp) => {
          const result = percentOf(cents, bp);
          const errorTimes10000 = result * 10_000n - cents * bp;
          expect(errorTimes10000 <= 5_000n && errorTimes10000 > -5_000n).toBe(true);
        },
      ),
    );
  });
});
