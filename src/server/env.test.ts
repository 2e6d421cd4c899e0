import { describe, expect, it } from 'vitest';
import { EnvError, parseEnv } from './env.ts';

describe('parseEnv', () => {
  it('applies the documented defaults', () => {
    const env = parseEnv({});
    expect(env).toMatchObject({
      PORT: 3000,
      DATA_DIR: './data',
      LOG_LEVEL: 'info',
      TRUST_PROXY: { kind: 'none' },
    });
    expect(env.DATABASE_URL).toBeUndefined();
  });

  it('wants a tournament match time limit longer than the wait before a no-show claim', () => {
    expect(() => parseEnv({ TOURNAMENT_MATCH_MINUTES: '30', NO_SHOW_MINUTES: '30' })).toThrow(
      'TOURNAMENT_MATCH_MINUTES: must be more than NO_SHOW_MINUTES',
    );
    expect(
      parseEnv({ TOURNAMENT_MATCH_MINUTES: '31', NO_SHOW_MINUTES: '30' }).TOURNAMENT_MATCH_MINUTES,
    ).toBe(31);
  });

  it('treats empty variables as unset', () => {
    expect(parseEnv({ PORT: '', DATABASE_URL: '' }).PORT).toBe(3000);
  });

  it('lists every bad variable at once', () => {
    let caught: unknown;
    try {
      parseEnv({
        PORT: 'eighty',
        DATABASE_URL: 'mysql://x',
        ADMIN_USERNAME: 'root',
        LOG_LEVEL: 'loud',
        CRYPTO_FALLBACK_PAYMENT_URL: 'http://pay.example.com',
      });
    } catch (error) {
      caught = error;
    }
    expect(caught).toBeInstanceOf(EnvError);
    const problems = (caught as EnvError).problems.join('\n');
    expect(problems).toContain('PORT');
    expect(problems).toContain('DATABASE_URL');
    expect(problems).toContain('ADMIN_PASSWORD');
    expect(problems).toContain('LOG_LEVEL');
    expect(problems).toContain('CRYPTO_FALLBACK_PAYMENT_URL: must be an https:// URL');
    expect((caught as EnvError).problems).toHaveLength(5);
  });

  it('reads TRUST_PROXY as no proxy, a number of proxies, or their addresses', () => {
    const trust = (value: string) => parseEnv({ TRUST_PROXY: value }).TRUST_PROXY;
    expect(trust('false')).toEqual({ kind: 'none' });
    expect(trust('0')).toEqual({ kind: 'none' });
    expect(trust('true')).toEqual({ kind: 'hops', hops: 1 });
    expect(trust('1')).toEqual({ kind: 'hops', hops: 1 });
    expect(trust('2')).toEqual({ kind: 'hops', hops: 2 });
    expect(trust('10.0.0.0/8, 192.0.2.7,loopback')).toEqual({
      kind: 'addresses',
      addresses: ['10.0.0.0/8', '192.0.2.7', 'loopback'],
    });
    expect(trust('2001:db8::/32')).toEqual({ kind: 'addresses', addresses: ['2001:db8::/32'] });
    for (const bad of ['11', 'maybe', '10.0.0.0/33', '300.1.1.1', '10.0.0.1,,10.0.0.2']) {
      expect(() => parseEnv({ TRUST_PROXY: bad }), bad).toThrow(/TRUST_PROXY: must be false/);
    }
  });

  it('reads EXCLUDED_STATES as state codes or none, with docs/responsible-play.md list by default', () => {
    expect(parseEnv({}).EXCLUDED_STATES).toEqual([
      'AR',
      'AZ',
      'DE',
      'LA',
      'MD',
      'MT',
      'SC',
      'SD',
      'TN',
    ]);
    expect(parseEnv({ EXCLUDED_STATES: ' tn, ny,TN ' }).EXCLUDED_STATES).toEqual(['TN', 'NY']);
    expect(parseEnv({ EXCLUDED_STATES: 'none' }).EXCLUDED_STATES).toEqual([]);
    expect(() => parseEnv({ EXCLUDED_STATES: 'TN,Texas,XX' })).toThrow(
      'EXCLUDED_STATES: must be US state codes separated by commas (AR,AZ,…); not a state: TEXAS, XX',
    );
    expect(parseEnv({}).GEO_CHECK).toBe(true);
    expect(parseEnv({ GEO_CHECK: 'false' }).GEO_CHECK).toBe(false);
  });

  it('reads the payout rules: an approved ID by default, and a daily limit in dollars', () => {
    expect(parseEnv({}).KYC_REQUIRED_FOR_PAYOUT).toBe(true);
    expect(parseEnv({}).PAYOUT_DAILY_LIMIT).toBe(250_000n);
    expect(parseEnv({ PAYOUT_DAILY_LIMIT: '99.50' }).PAYOUT_DAILY_LIMIT).toBe(9_950n);
    for (const bad of ['0', '-5', '12.345', 'lots']) {
      expect(() => parseEnv({ PAYOUT_DAILY_LIMIT: bad }), bad).toThrow(
        'PAYOUT_DAILY_LIMIT: must be a positive dollar amount, e.g. 2500',
      );
    }
  });

  it('reads the tax report threshold in dollars, $2,000 by default', () => {
    expect(parseEnv({}).TAX_REPORT_THRESHOLD).toBe(200_000n);
    expect(parseEnv({ TAX_REPORT_THRESHOLD: '600' }).TAX_REPORT_THRESHOLD).toBe(60_000n);
    expect(parseEnv({ TAX_REPORT_THRESHOLD: '1999.99' }).TAX_REPORT_THRESHOLD).toBe(199_999n);
    for (const bad of ['0', '-5', '12.345', '2,000', 'lots']) {
      expect(() => parseEnv({ TAX_REPORT_THRESHOLD: bad }), bad).toThrow(
        'TAX_REPORT_THRESHOLD: must be a positive dollar amount, e.g. 2500',
      );
    }
  });
});
