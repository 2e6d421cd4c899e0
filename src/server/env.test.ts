import { describe, expect, it } from 'vitest';
import { EnvError, parseEnv } from './env.ts';

describe('parseEnv', () => {
  it('applies the documented defaults', () => {
    const env = parseEnv({});
    expect(env).toMatchObject({
      PORT: 3000,
      DATA_DIR: './data',
      LOG_LEVEL: 'info',
      TRUST_PROXY: false,
    });
    expect(env.DATABASE_URL).toBeUndefined();
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
});
