/**
 * Money is integer cents in `bigint` everywhere it is computed (docs/money-and-ledger.md). Dollars
 * appear only at the edges: parsed from the text a person typed, and shown as a JSON number or a
 * "$1.00" string. No function here does float arithmetic on an amount.
 */
export type Cents = bigint;

const DECIMAL_PATTERN = /^(-)?(\d{1,15})(?:\.(\d{1,2}))?$/;

export type ParseAmountResult =
  { ok: true; cents: Cents } | { ok: false; reason: 'format' | 'precision' };

/**
 * Parses a decimal dollar amount ("12", "12.5", "-3.07") into cents, exactly. A JSON number is
 * accepted through its shortest text form, so 0.1 + 0.2 (0.30000000000000004) is refused rather
 * than rounded. Exponents, NaN, infinities, thousands separators and more than two decimals are
 * refused.
 */
export function parseAmount(input: string | number): ParseAmountResult {
  if (typeof input === 'number' && !Number.isFinite(input)) return { ok: false, reason: 'format' };
  const text = typeof input === 'number' ? String(input) : input.trim();
  const match = DECIMAL_PATTERN.exec(text);
  if (!match) {
    return /^-?\d+\.\d{3,}$/.test(text)
      ? { ok: false, reason: 'precision' }
      : { ok: false, reason: 'format' };
  }
  const [, sign, whole = '0', fraction = ''] = match;
  const cents = BigInt(whole) * 100n + BigInt(fraction.padEnd(2, '0'));
  return { ok: true, cents: sign ? -cents : cents };
}

/** Whole dollars to cents. */
export function dollars(amount: number | bigint): Cents {
  if (typeof amount === 'number' && !Number.isSafeInteger(amount)) {
    throw new RangeError(`dollars() takes a whole number, got ${amount}`);
  }
  return BigInt(amount) * 100n;
}

/** "12.50" style text: sign, whole dollars and exactly two decimals. */
export function centsToDecimalString(cents: Cents): string {
  const negative = cents < 0n;
  const absolute = negative ? -cents : cents;
  const whole = absolute / 100n;
  const fraction = (absolute % 100n).toString().padStart(2, '0');
  return `${negative ? '-' : ''}${whole}.${fraction}`;
}

/** The API shows dollars as JSON numbers with at most two decimals (docs/money-and-ledger.md). */
export function centsToDollarNumber(cents: Cents): number {
  return Number(centsToDecimalString(cents));
}

/**
 * "10000" as "10,000". Written out rather than through toLocaleString: the first Intl call of a
 * page loads the browser's locale data, a long task on a slow phone for a few commas.
 */
export function groupThousands(digits: string): string {
  return digits.replace(/\B(?=(\d{3})+(?!\d))/g, ',');
}

/** "$1,234.50", or "-$3.00". */
export function formatCents(cents: Cents): string {
  const [whole = '0', fraction = '00'] = centsToDecimalString(cents < 0n ? -cents : cents).split(
    '.',
  );
  return `${cents < 0n ? '-' : ''}$${groupThousands(whole)}.${fraction}`;
}

/** A dollar number from the API back to cents, for display code that received JSON. */
export function dollarNumberToCents(amount: number): Cents {
  const parsed = parseAmount(amount);
  if (!parsed.ok) throw new RangeError(`Not a dollar amount with at most two decimals: ${amount}`);
  return parsed.cents;
}

/**
 * `percent` of `cents`, rounded half-up to the cent (away from zero for the half). `percent` is
 * given in basis points so that no fraction is ever a float: 5% is 500.
 */
export function percentOf(cents: Cents, basisPoints: bigint): Cents {
  const scaled = cents * basisPoints;
  const quotient = scaled / 10_000n;
  const remainder = scaled % 10_000n;
  const absRemainder = remainder < 0n ? -remainder : remainder;
  if (absRemainder * 2n >= 10_000n) return quotient + (scaled < 0n ? -1n : 1n);
  return quotient;
}
