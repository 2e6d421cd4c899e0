import { describe, expect, it } from 'vitest';
import '../validation.ts';
import { AUTH_MESSAGES, loginBodySchema, registerBodySchema } from './auth.ts';

const valid = {
  username: 'Player_One',
  password: 'secret1',
  phoneNumber: '(555) 010-2000',
  email: 'p@example.com',
  isOver18: true as const,
};

function firstMessage(input: unknown): string | undefined {
  const result = registerBodySchema.safeParse(input);
  return result.success ? undefined : result.error.issues[0]?.message;
}

describe('registerBodySchema', () => {
  it('accepts a valid registration and lower-cases the e-mail', () => {
    const parsed = registerBodySchema.parse({ ...valid, email: 'P@Example.COM' });
    expect(parsed.email).toBe('p@example.com');
  });

  it('allows the phone formats of the SPEC', () => {
    for (const phoneNumber of ['5550102000', '+15550102000', '(555) 010-2000', '555 010 2000']) {
      expect(registerBodySchema.safeParse({ ...valid, phoneNumber }).success).toBe(true);
    }
  });

  it('words every rule as the SPEC does', () => {
    expect(firstMessage({ ...valid, username: 'ab' })).toBe(AUTH_MESSAGES.usernameMin);
    expect(firstMessage({ ...valid, username: 'x'.repeat(31) })).toBe(AUTH_MESSAGES.usernameMax);
    expect(firstMessage({ ...valid, username: 'dash-name' })).toBe(AUTH_MESSAGES.usernamePattern);
    expect(firstMessage({ ...valid, password: 'short' })).toBe(AUTH_MESSAGES.passwordMin);
    expect(firstMessage({ ...valid, phoneNumber: '+1 555 ABC 0000' })).toBe(
      AUTH_MESSAGES.phonePattern,
    );
    expect(firstMessage({ ...valid, email: 'x@' })).toBe(AUTH_MESSAGES.email);
    expect(firstMessage({ ...valid, isOver18: false })).toBe(AUTH_MESSAGES.age);
    expect(firstMessage({ ...valid, isOver18: undefined })).toBe(AUTH_MESSAGES.age);
    expect(firstMessage({ ...valid, username: 42 })).toBe('Invalid input');
  });

  it('is strict: unknown keys are refused', () => {
    expect(registerBodySchema.safeParse({ ...valid, isAdmin: true }).success).toBe(false);
  });
});

describe('loginBodySchema', () => {
  it('requires username and password with the SPEC messages', () => {
    const result = loginBodySchema.safeParse({ username: ' ', password: '' });
    expect(result.success).toBe(false);
    expect(result.error?.issues.map((issue) => issue.message)).toEqual([
      AUTH_MESSAGES.usernameRequired,
      AUTH_MESSAGES.passwordRequired,
    ]);
  });
});
